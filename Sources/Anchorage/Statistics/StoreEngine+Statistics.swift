import AnchorageLog
import Foundation
import LMDB

extension StoreEngine {
    /// The samples of `type` matching `predicate` that the caller may read,
    /// as statistics inputs ranked by the type's source order, and the log
    /// position they were read at.
    func statisticsSamples(
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        caller: Caller
    ) throws(HKError) -> (samples: [StatisticsSample], head: UInt64) {
        try read { txn in
            var session = ReadSession(caller: caller)
            let head = try head(in: txn)
            let ranking = try views.ranking(of: EntryKind(rawValue: type.kindCode), in: txn)
            let found = try matchingSamplesWithSeqs(of: type, predicate: predicate, in: txn, session: &session)
            let unit = type.canonicalUnit
            let samples = found.compactMap { seq, sample in
                (sample as? HKQuantitySample).map { StatisticsSample($0, seq: seq, unit: unit, ranking: ranking) }
            }
            return (samples, head)
        }
    }

    /// The statistics of every matching sample, or `nil` when none matches.
    func statistics(
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        options: HKStatisticsOptions,
        caller: Caller
    ) throws(HKError) -> HKStatistics? {
        let (samples, _) = try statisticsSamples(of: type, predicate: predicate, caller: caller)
        return ReferenceStatistics.single(samples, type: type, options: options)
    }

    /// The collection of a collection query, and the log position it
    /// describes.
    func statisticsCollection(
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        options: HKStatisticsOptions,
        grid: BucketGrid,
        caller: Caller
    ) throws(HKError) -> (collection: HKStatisticsCollection, head: UInt64) {
        if let viewed = try viewCollection(of: type, predicate: predicate, options: options, grid: grid, caller: caller)
        {
            return viewed
        }
        let (samples, head) = try statisticsSamples(of: type, predicate: predicate, caller: caller)
        let buckets = ReferenceStatistics.collection(samples, grid: grid, type: type, options: options)
        return (HKStatisticsCollection(grid: grid, quantityType: type, options: options, buckets: buckets), head)
    }

    /// Follows committed batches after `start`: for each batch that saved or
    /// deleted samples matching the query, computes the collection again
    /// and calls `body` with it and the buckets that changed (ST-40..43).
    func followStatistics(
        _ batches: AsyncStream<CommittedBatch>,
        from start: UInt64,
        initial: HKStatisticsCollection,
        predicate: ObjectPredicate?,
        caller: Caller,
        lifecycle: QueryLifecycle,
        _ body: (HKStatisticsCollection, [HKStatistics]) -> Void
    ) async throws {
        var current = initial
        try await follow(
            batches,
            from: start,
            type: initial.quantityType,
            predicate: predicate,
            caller: caller,
            lifecycle: lifecycle
        ) { _, _ in
            let (next, _) = try statisticsCollection(
                of: current.quantityType,
                predicate: predicate,
                options: current.options,
                grid: current.grid,
                caller: caller
            )
            let changed = next.changedBuckets(since: current)
            current = next
            body(next, changed)
        }
    }
}
