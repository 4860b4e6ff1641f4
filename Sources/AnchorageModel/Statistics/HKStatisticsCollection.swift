public import Foundation

/// The buckets of a collection query (ST-36..39).
///
/// ```swift
/// collection.enumerateStatistics(from: monthAgo, to: now) { statistics, stop in
///     let steps = statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0
///     print(statistics.startDate, steps)
/// }
/// ```
public final class HKStatisticsCollection: Sendable {
    package let grid: BucketGrid
    package let quantityType: HKQuantityType
    package let options: HKStatisticsOptions
    /// The populated buckets, by index.
    package let buckets: [Int: HKStatistics]
    private let order: [Int]

    package init(
        grid: BucketGrid,
        quantityType: HKQuantityType,
        options: HKStatisticsOptions,
        buckets: [Int: HKStatistics]
    ) {
        self.grid = grid
        self.quantityType = quantityType
        self.options = options
        self.buckets = buckets
        self.order = buckets.keys.sorted()
    }

    /// The populated buckets, oldest first; empty ones are left out (ST-36).
    public func statistics() -> [HKStatistics] {
        order.map { buckets[$0]! }
    }

    /// The bucket containing `date`, with `nil` quantities when no sample
    /// contributed; never `nil` (ST-37).
    public func statistics(for date: Date) -> HKStatistics? {
        bucket(grid.index(containing: date))
    }

    /// Calls `block` for every bucket from the one containing `startDate`
    /// through the one containing `endDate`, empty ones included, oldest
    /// first, until it sets its second argument to `true` (ST-38).
    public func enumerateStatistics(
        from startDate: Date,
        to endDate: Date,
        with block: (HKStatistics, UnsafeMutablePointer<ObjCBool>) -> Void
    ) {
        let first = grid.index(containing: startDate)
        let last = grid.index(containing: endDate)
        guard first <= last else { return }
        var stop = ObjCBool(false)
        for index in first...last {
            block(bucket(index), &stop)
            if stop.boolValue { return }
        }
    }

    /// The buckets ``enumerateStatistics(from:to:with:)`` visits, as their
    /// bounds and their statistics when populated (`nil` when empty), so
    /// that a caller writing many empty buckets need not make an object
    /// for each. ``emptyStatistics(from:to:)`` is what an empty one stands for.
    package func forEachBucket(from startDate: Date, to endDate: Date, _ body: (DateInterval, HKStatistics?) -> Void) {
        let first = grid.index(containing: startDate)
        let last = grid.index(containing: endDate)
        guard first <= last else { return }
        for index in first...last {
            body(grid.interval(index), buckets[index])
        }
    }

    /// The statistics of an empty bucket with these bounds.
    package func emptyStatistics(from start: Date, to end: Date) -> HKStatistics {
        HKStatistics.empty(of: quantityType, from: start, to: end, options: options)
    }

    /// Every source that contributed to some bucket, with
    /// `separateBySource`; otherwise empty (ST-39).
    public func sources() -> Set<HKSource> {
        var sources = Set<HKSource>()
        for statistics in buckets.values { sources.formUnion(statistics.sources ?? []) }
        return sources
    }

    /// The statistics of bucket `index`, empty when it is not populated.
    package func bucket(_ index: Int) -> HKStatistics {
        if let statistics = buckets[index] { return statistics }
        let bounds = grid.interval(index)
        return HKStatistics.empty(of: quantityType, from: bounds.start, to: bounds.end, options: options)
    }
}
