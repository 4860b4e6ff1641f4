import AnchorageLog
import AnchorageModel
import Foundation

extension StoreEngine {
    /// Follows committed batches from position `delivered`: for each batch
    /// that touched `type` and `predicate`, calls `body` with exactly the
    /// changes since the previous call and the anchor after the batch (AQ-15,
    /// AQ-16, OBS-4). Returns when the query stops, its task is cancelled,
    /// or the store closes.
    func follow(
        _ batches: AsyncStream<CommittedBatch>,
        from delivered: UInt64,
        type: HKSampleType,
        predicate: ObjectPredicate?,
        caller: Caller,
        lifecycle: QueryLifecycle,
        _ body: (AnchoredChanges, HKQueryAnchor) throws -> Void
    ) async throws {
        try await follow(
            batches,
            from: delivered,
            targets: [QueryTarget(type: type, predicate: predicate)],
            caller: caller,
            lifecycle: lifecycle
        ) { changes, anchor in
            try body(changes[0], anchor)
        }
    }

    /// Follows committed batches for several targets at once: `body` gets,
    /// for each batch that touched any of them, every target's changes (in
    /// the targets' order; empty for those it did not touch).
    func follow(
        _ batches: AsyncStream<CommittedBatch>,
        from delivered: UInt64,
        targets: [QueryTarget],
        caller: Caller,
        lifecycle: QueryLifecycle,
        _ body: ([AnchoredChanges], HKQueryAnchor) throws -> Void
    ) async throws {
        var delivered = delivered
        for await batch in batches {
            await lifecycle.batchArrived()
            guard !lifecycle.isStopped else { return }
            guard batch.last.seq > delivered else { continue }
            let through = batch.last.seq
            let after = delivered
            let changes = try read(as: caller) { txn, session in
                try targets.map { target in
                    try anchoredChanges(
                        of: target.type,
                        predicate: target.predicate,
                        after: after,
                        through: through,
                        limit: nil,
                        in: txn,
                        session: &session
                    )
                }
            }
            delivered = through
            guard changes.contains(where: { !$0.isEmpty }) else { continue }
            try body(changes, queryAnchor(through))
        }
    }
}
