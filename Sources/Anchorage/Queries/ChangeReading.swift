import AnchorageLog
import AnchorageModel
import LMDB

/// What the descriptors of changes since an anchor share
/// (``HKAnchoredObjectQueryDescriptor``, ``ChangeFeedDescriptor``): one
/// page read in one transaction, and the long-running stream of pages.
protocol ChangeReading: Sendable {
    associatedtype Changes: Sendable

    var anchor: HKQueryAnchor? { get }
    var limit: Int? { get }
    /// The sample types read, each with its predicate.
    func typedPredicates() throws -> [(type: HKSampleType, predicate: ObjectPredicate?)]
    /// Whether activity summaries are read too.
    var readsActivitySummaries: Bool { get }

    /// The descriptor's result from merged changes ending at `anchor`.
    static func result(_ merged: MergedChanges, newAnchor anchor: HKQueryAnchor) -> Changes

    /// Whether `changes` reports nothing.
    static func isEmpty(_ changes: Changes) -> Bool

    /// Nothing, with `anchor` as the new anchor.
    static func none(at anchor: HKQueryAnchor) -> Changes
}

extension ChangeReading {
    /// The merged changes of every predicate in anchor order after `start`
    /// through `upper`, cut at about `limit`.
    func changes(
        _ engine: StoreEngine,
        caller: Caller,
        after start: UInt64,
        through upper: UInt64,
        limit: Int?,
        covered: [StoreID: UInt64]? = nil,
        in txn: borrowing ReadTransaction
    ) throws -> Changes {
        var session = ReadSession(caller: caller)
        let merged = try engine.mergedChanges(
            of: try typedPredicates(),
            activitySummaries: readsActivitySummaries,
            after: start,
            through: upper,
            limit: limit,
            covered: covered,
            in: txn,
            session: &session
        )
        return Self.result(
            merged,
            newAnchor: try engine.queryAnchor(merged.last, after: start, covered: covered, in: txn)
        )
    }

    /// One page since ``anchor`` (AQ-18, AQ-19).
    func readPage(for healthStore: HKHealthStore) throws -> Changes {
        let engine = try healthStore.openEngine()
        if let limit, limit <= 0 {
            throw HKError(.errorInvalidArgument, rule: "AQ-18", "the limit is \(limit); use nil or a positive number")
        }
        return try engine.read { txn in
            let upper = try engine.head(in: txn)
            let (start, covered) = try anchor?.resume(in: engine, head: upper, txn: txn) ?? (0, nil)
            // An integer anchor past the end is echoed (AQ-4, AQ-11).
            if start > upper, let anchor { return Self.none(at: anchor) }
            return try changes(
                engine,
                caller: healthStore.caller,
                after: start,
                through: upper,
                limit: limit,
                covered: covered,
                in: txn
            )
        }
    }

    /// The long-running form (AQ-20): first the changes since ``anchor``
    /// through the head, then, for each committed batch past what was
    /// delivered, its changes when there are any. It ends when the
    /// consuming task is cancelled.
    func follow(_ healthStore: HKHealthStore) -> AsyncThrowingStream<Changes, any Error> {
        let descriptor = self
        return followingStream(of: Changes.self) { continuation in
            let engine = try await healthStore.openEngine()
            // Subscribe before reading, so no commit falls between the two.
            let batches = engine.log.committedBatches()
            let (start, resumed) = try engine.read { txn in
                try descriptor.anchor?.resume(in: engine, head: engine.head(in: txn), txn: txn) ?? (0, nil)
            }
            // What the consumer has seen on another copy is skipped all along.
            var covered = resumed
            func read(after: UInt64, through: UInt64?) throws -> (Changes, UInt64) {
                try engine.read { txn in
                    let upper = try through ?? engine.head(in: txn)
                    let changes = try descriptor.changes(
                        engine,
                        caller: healthStore.caller,
                        after: after,
                        through: upper,
                        limit: nil,
                        covered: covered,
                        in: txn
                    )
                    if var seen = covered {
                        for (origin, counter) in try engine.log.dots(after: after, through: upper, in: txn) {
                            seen[origin] = max(seen[origin, default: 0], counter)
                        }
                        covered = seen
                    }
                    return (changes, upper)
                }
            }
            let (first, upper) = try read(after: start, through: nil)
            var delivered = max(start, upper)
            continuation.yield(first)
            for await batch in batches {
                try Task.checkCancellation()
                guard batch.last.seq > delivered else { continue }
                let (changes, _) = try read(after: delivered, through: batch.last.seq)
                delivered = batch.last.seq
                if !Self.isEmpty(changes) { continuation.yield(changes) }
            }
        }
    }
}
