import AnchorageLog
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
        var delivered = delivered
        for await batch in batches {
            guard !lifecycle.isStopped else { return }
            guard batch.last.seq > delivered else { continue }
            let through = batch.last.seq
            let after = delivered
            let changes = try read { txn in
                var session = ReadSession(caller: caller)
                return try anchoredChanges(
                    of: type,
                    predicate: predicate,
                    after: after,
                    through: through,
                    limit: nil,
                    in: txn,
                    session: &session
                )
            }
            delivered = through
            guard !changes.isEmpty else { continue }
            try body(changes, queryAnchor(through))
        }
    }
}
