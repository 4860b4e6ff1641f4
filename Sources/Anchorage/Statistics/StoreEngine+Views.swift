import AnchorageLog
import Foundation
import LMDB

extension StoreEngine {
    /// A collection query answered from the statistics views, or `nil` when
    /// the views cannot answer it exactly: a caller who may read only some
    /// sources, a predicate other than a plain date range, an earliest
    /// permitted date, or buckets that do not fall on 15-minute boundaries.
    ///
    /// With a date range, the buckets wholly inside it come from the views
    /// (every sample reaching into them matches); the buckets at its edges,
    /// and those outside it that straddling samples reach (ST-17), from
    /// the reference evaluator over the samples that reach out of the
    /// inner buckets.
    func viewCollection(
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        options: HKStatisticsOptions,
        grid: BucketGrid,
        caller: Caller
    ) throws(HKError) -> (collection: HKStatisticsCollection, head: UInt64)? {
        guard configuration.earliestPermittedSampleDate == .distantPast else { return nil }
        let range: (start: Date?, end: Date?)
        switch predicate {
        case nil, .constant(true): range = (nil, nil)
        case .dateRange(let start, let end, let dateOptions) where dateOptions.isEmpty: range = (start, end)
        default: return nil
        }
        return try read { txn -> (HKStatisticsCollection, UInt64)? in
            var session = ReadSession(caller: caller)
            guard try scope(for: type, in: txn, session: &session).everything else { return nil }
            let head = try head(in: txn)
            let kind = EntryKind(rawValue: type.kindCode)
            guard let extent = try views.extent(of: kind, in: txn) else {
                return (HKStatisticsCollection(grid: grid, quantityType: type, options: options, buckets: [:]), head)
            }
            var lower = grid.index(containing: extent.lowerBound)
            var upper = grid.index(containing: extent.upperBound)
            if let start = range.start {
                let index = grid.index(containing: start)
                lower = max(lower, grid.start(of: index) < start ? index + 1 : index)
            }
            if let end = range.end { upper = min(upper, grid.index(containing: end) - 1) }
            var buckets: [Int: HKStatistics] = [:]
            if lower <= upper {
                guard let inner = try views.buckets(lower...upper, of: type, grid: grid, options: options, in: txn)
                else { return nil }
                buckets = inner
            } else if range.start != nil || range.end != nil {
                return nil
            }
            if let predicate, range.start != nil || range.end != nil {
                let edges = try edgeBuckets(
                    of: type,
                    predicate: predicate,
                    inner: lower <= upper ? (grid.start(of: lower), grid.start(of: upper + 1)) : nil,
                    options: options,
                    grid: grid,
                    in: txn,
                    session: &session
                )
                for (index, statistics) in edges where index < lower || index > upper {
                    buckets[index] = statistics
                }
            }
            return (HKStatisticsCollection(grid: grid, quantityType: type, options: options, buckets: buckets), head)
        }
    }

    /// The buckets outside `inner` computed by the reference evaluator from
    /// the matching samples that reach out of it.
    private func edgeBuckets(
        of type: HKQuantityType,
        predicate: ObjectPredicate,
        inner: (start: Date, end: Date)?,
        options: HKStatisticsOptions,
        grid: BucketGrid,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> [Int: HKStatistics] {
        var parts: [ObjectPredicate] = [predicate]
        if let inner {
            parts = [
                .and([predicate, .dateRange(start: nil, end: inner.start, options: [])]),
                .and([predicate, .dateRange(start: inner.end, end: nil, options: [])]),
            ]
        }
        let ranking = try views.ranking(of: EntryKind(rawValue: type.kindCode), in: txn)
        var seen = Set<UInt64>()
        var samples: [StatisticsSample] = []
        for part in parts {
            for (seq, sample) in try matchingSamplesWithSeqs(of: type, predicate: part, in: txn, session: &session) {
                guard seen.insert(seq).inserted, let sample = sample as? HKQuantitySample else { continue }
                samples.append(StatisticsSample(sample, seq: seq, unit: type.canonicalUnit, ranking: ranking))
            }
        }
        return ReferenceStatistics.collection(samples, grid: grid, type: type, options: options)
    }
}
