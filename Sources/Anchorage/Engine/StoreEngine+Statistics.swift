import AnchorageLog
import AnchorageModel
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
    ) throws(HKError) -> (samples: StatisticsSamples, head: UInt64) {
        try read(as: caller) { txn, session in
            let head = try head(in: txn)
            let ranking = try views.ranking(of: EntryKind(rawValue: type.kindCode), in: txn)
            // Statistics split a quantity series into its quantities (SERIES-6).
            session.decoder.readsSeriesPoints = true
            let found = try matchingSamplesWithSeqs(of: type, predicate: predicate, in: txn, session: &session)
            var samples = StatisticsSamplesBuilder(ranking: ranking)
            for (seq, sample) in found {
                if let sample = sample as? HKQuantitySample {
                    samples.append(sample, seq: seq, unit: type.canonicalUnit)
                }
            }
            return (samples.build(), head)
        }
    }

    /// The statistics of every matching sample, or `nil` when none matches:
    /// from the statistics views when they can answer exactly
    /// (``viewStatistics(of:predicate:options:caller:)``), else from the
    /// matching samples.
    func statistics(
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        options: HKStatisticsOptions,
        caller: Caller
    ) throws(HKError) -> HKStatistics? {
        if let viewed = try viewStatistics(of: type, predicate: predicate, options: options, caller: caller) {
            counters.viewedStatistics()
            return viewed.statistics
        }
        return try referenceStatistics(of: type, predicate: predicate, options: options, caller: caller)
    }

    /// The statistics of every matching sample computed from the samples
    /// (the reference evaluator), or `nil` when none matches.
    func referenceStatistics(
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
        counters.statisticsBuckets(viewed: 0, computed: buckets.count)
        return (HKStatisticsCollection(grid: grid, quantityType: type, options: options, buckets: buckets), head)
    }

    /// Follows committed batches after `start`: for each batch that saved or
    /// deleted samples matching the query, computes again only the buckets
    /// those samples reach, and calls `body` with the collection and the
    /// buckets whose statistics changed (ST-40..43).
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
        let grid = initial.grid
        try await follow(
            batches,
            from: start,
            type: initial.quantityType,
            predicate: predicate,
            caller: caller,
            lifecycle: lifecycle
        ) { changes, _ in
            var touched = Set<Int>()
            let spans =
                changes.samples.map { ($0.startDate, $0.endDate) } + changes.deletedSpans.map { ($0.start, $0.end) }
            for (start, end) in spans { touched.formUnion(grid.indices(start: start, end: end)) }
            let indices = touched.sorted()
            let fresh = try statisticsBuckets(
                indices,
                of: current.quantityType,
                predicate: predicate,
                options: current.options,
                grid: grid,
                caller: caller
            )
            var buckets = current.buckets
            var changed: [Int] = []
            for index in indices {
                let before = buckets[index]
                buckets[index] = fresh[index]
                if before?.merged != fresh[index]?.merged || before?.bySource != fresh[index]?.bySource {
                    changed.append(index)
                }
            }
            let next = HKStatisticsCollection(
                grid: grid,
                quantityType: current.quantityType,
                options: current.options,
                buckets: buckets
            )
            current = next
            body(next, changed.map { next.bucket($0) })
        }
    }
}
