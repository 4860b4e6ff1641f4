import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// Which buckets of a collection query the statistics views may answer:
/// those wholly inside the predicate's date range (every sample reaching
/// into them matches), when the caller reads every source, the predicate is
/// absent or a plain date range, and no earliest permitted date hides
/// samples. The views then answer such a bucket exactly if it starts and
/// ends on 15-minute boundaries.
struct ViewEligibility {
    var viewable: Bool
    var start: Date?
    var end: Date?

    init(predicate: ObjectPredicate?, configuration: HKHealthStore.Configuration, scope: ReadScope) {
        viewable =
            configuration.maintainsStatisticsViews && configuration.earliestPermittedSampleDate == .distantPast
            && scope.everything
        switch predicate {
        case nil, .constant(true): break
        case .dateRange(let start, let end, let options) where options.isEmpty:
            self.start = start
            self.end = end
        default: viewable = false
        }
    }

    var isBounded: Bool { start != nil || end != nil }

    /// The first and last bucket wholly inside the range.
    func inner(_ grid: BucketGrid) -> (lower: Int, upper: Int) {
        var lower = Int.min
        var upper = Int.max
        if let start {
            let index = grid.index(containing: start)
            lower = grid.start(of: index) < start ? index + 1 : index
        }
        if let end { upper = grid.index(containing: end) - 1 }
        return (lower, upper)
    }
}

extension StoreEngine {
    /// A collection query answered with the statistics views for the
    /// buckets they may answer (``ViewEligibility``) and the reference
    /// evaluator for the rest: the buckets at the edges of a date range, and
    /// those outside it that straddling samples reach (ST-17), computed
    /// from the matching samples that reach out of the inner buckets.
    /// `nil` when the views may answer nothing, or not exactly.
    func viewCollection(
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        options: HKStatisticsOptions,
        grid: BucketGrid,
        caller: Caller
    ) throws(HKError) -> (collection: HKStatisticsCollection, head: UInt64)? {
        let found = try read(as: caller) { txn, session -> ([Int: HKStatistics], Int, UInt64)? in
            let scope = try scope(for: type, in: txn, session: &session)
            let eligibility = ViewEligibility(predicate: predicate, configuration: configuration, scope: scope)
            guard eligibility.viewable else { return nil }
            let head = try head(in: txn)
            let kind = EntryKind(rawValue: type.kindCode)
            guard let extent = try views.extent(of: kind, in: txn) else { return ([:], 0, head) }
            let inner = eligibility.inner(grid)
            let lower = max(grid.index(containing: extent.lowerBound), inner.lower)
            let upper = min(grid.index(containing: extent.upperBound), inner.upper)
            guard lower <= upper || !eligibility.isBounded else { return nil }
            var buckets: [Int: HKStatistics] = [:]
            if lower <= upper {
                guard let viewed = try views.buckets(lower...upper, of: type, grid: grid, options: options, in: txn)
                else { return nil }
                buckets = viewed
            }
            let fromRows = buckets.count
            if let predicate, eligibility.isBounded {
                let parts: [ObjectPredicate] = [
                    .and([predicate, .dateRange(start: nil, end: grid.start(of: lower), options: [])]),
                    .and([predicate, .dateRange(start: grid.start(of: upper + 1), end: nil, options: [])]),
                ]
                let samples = try statisticsSamples(of: type, matchingAny: parts, in: txn, session: &session)
                let edges = ReferenceStatistics.collection(samples, grid: grid, type: type, options: options)
                for (index, statistics) in edges where index < lower || index > upper {
                    buckets[index] = statistics
                }
            }
            return (buckets, fromRows, head)
        }
        guard let (buckets, fromRows, head) = found else { return nil }
        counters.statisticsBuckets(viewed: fromRows, computed: buckets.count - fromRows)
        return (HKStatisticsCollection(grid: grid, quantityType: type, options: options, buckets: buckets), head)
    }

    /// The statistics of the buckets `indices` of a collection query, each
    /// from the views when they may answer it, else from the reference
    /// evaluator over the samples reaching into it; empty buckets are left
    /// out. What a running query reads after a batch (ST-42).
    func statisticsBuckets(
        _ indices: [Int],
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        options: HKStatisticsOptions,
        grid: BucketGrid,
        caller: Caller
    ) throws(HKError) -> [Int: HKStatistics] {
        // Read in one short transaction; the reference evaluator's sweeps run
        // after it ends, so a wide request never pins an old snapshot (which
        // would keep the writer from reusing pages) while it computes.
        let (viewed, pending) = try read(as: caller) { txn, session in
            let scope = try scope(for: type, in: txn, session: &session)
            let eligibility = ViewEligibility(predicate: predicate, configuration: configuration, scope: scope)
            var result: [Int: HKStatistics] = [:]
            var remaining = indices
            if eligibility.viewable {
                let inner = eligibility.inner(grid)
                let inside = indices.filter { $0 >= inner.lower && $0 <= inner.upper }
                if let viewed = try views.buckets(inside, of: type, grid: grid, options: options, in: txn) {
                    result = viewed
                    remaining = indices.filter { $0 < inner.lower || $0 > inner.upper }
                }
            }
            let pending = try referenceInputs(
                remaining,
                of: type,
                predicate: predicate,
                grid: grid,
                in: txn,
                session: &session
            )
            return (result, pending)
        }
        var result = viewed
        result.merge(Self.swept(pending, grid: grid, type: type, options: options)) { _, new in new }
        counters.statisticsBuckets(viewed: viewed.count, computed: result.count - viewed.count)
        return result
    }

    /// The samples reaching one run of consecutive buckets.
    typealias ReferenceInput = (run: ClosedRange<Int>, samples: StatisticsSamples)

    /// What the reference evaluator needs for the buckets `indices`: the
    /// samples reaching each run of consecutive buckets, read once.
    private func referenceInputs(
        _ indices: [Int],
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        grid: BucketGrid,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> [ReferenceInput] {
        try Self.runs(of: indices).map { run in
            var parts: [ObjectPredicate] = [
                .dateRange(start: grid.start(of: run.lowerBound), end: grid.start(of: run.upperBound + 1), options: [])
            ]
            if let predicate { parts = [.and([predicate] + parts)] }
            return (run, try statisticsSamples(of: type, matchingAny: parts, in: txn, session: &session))
        }
    }

    /// The reference evaluator's buckets for each run, swept bucket by
    /// bucket from the samples reaching it, outside any read transaction.
    /// Empty buckets are left out.
    static func swept(
        _ pending: [ReferenceInput],
        grid: BucketGrid,
        type: HKQuantityType,
        options: HKStatisticsOptions
    ) -> [Int: HKStatistics] {
        var result: [Int: HKStatistics] = [:]
        for (run, samples) in pending {
            let computed = ReferenceStatistics.collection(
                samples,
                grid: grid,
                type: type,
                options: options,
                within: run
            )
            result.merge(computed) { _, new in new }
        }
        return result
    }

    /// `indices` as runs of consecutive values, in order.
    static func runs(of indices: [Int]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for index in indices.sorted() {
            if let last = runs.last, index <= last.upperBound + 1 {
                runs[runs.count - 1] = last.lowerBound...max(last.upperBound, index)
            } else {
                runs.append(index...index)
            }
        }
        return runs
    }

    /// The samples matching any of `predicates`, each once, ranked.
    private func statisticsSamples(
        of type: HKQuantityType,
        matchingAny predicates: [ObjectPredicate],
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> StatisticsSamples {
        let ranking = try views.ranking(of: EntryKind(rawValue: type.kindCode), in: txn)
        var seen = Set<UInt64>()
        var samples = StatisticsSamplesBuilder(ranking: ranking)
        // Statistics split a quantity series into its quantities (SERIES-6).
        session.decoder.readsSeriesPoints = true
        for predicate in predicates {
            for (seq, sample) in try matchingSamplesWithSeqs(of: type, predicate: predicate, in: txn, session: &session)
            {
                guard seen.insert(seq).inserted, let sample = sample as? HKQuantitySample else { continue }
                samples.append(sample, seq: seq, unit: type.canonicalUnit)
            }
        }
        return samples.build()
    }
}
