public import Foundation

/// The statistics of one interval: a whole query's samples, or one bucket
/// of a collection (ST-5..11).
///
/// ```swift
/// if let steps = statistics.sumQuantity() {
///     print(steps.doubleValue(for: .count()))
/// }
/// ```
///
/// Every getter returns `nil` unless its option was requested and some
/// sample contributed (ST-3). Quantities come in the type's canonical unit
/// (steps in counts, heart rate in counts per minute…); convert them with
/// `doubleValue(for:)`. The per-source getters answer only with
/// `separateBySource` (ST-8); the others then still give the merged values
/// (ST-9).
public final class HKStatistics: Sendable, CustomStringConvertible {
    /// The type the statistics describe.
    public let quantityType: HKQuantityType
    /// The bucket's start, or the earliest start of the matching samples (ST-6).
    public let startDate: Date
    /// The bucket's end, or the latest end of the matching samples (ST-6).
    public let endDate: Date
    /// The sources that contributed, with `separateBySource`; otherwise `nil` (ST-7).
    public let sources: [HKSource]?

    package let options: HKStatisticsOptions
    package let merged: StatisticsValues
    package let bySource: [String: StatisticsValues]

    package init(
        quantityType: HKQuantityType,
        startDate: Date,
        endDate: Date,
        options: HKStatisticsOptions,
        merged: StatisticsValues,
        bySource: [HKSource: StatisticsValues]
    ) {
        self.quantityType = quantityType
        self.startDate = startDate
        self.endDate = endDate
        self.options = options
        self.merged = merged
        if options.contains(.separateBySource) {
            self.sources = bySource.keys.sorted { $0.bundleIdentifier < $1.bundleIdentifier }
            self.bySource = Dictionary(uniqueKeysWithValues: bySource.map { ($0.key.bundleIdentifier, $0.value) })
        } else {
            self.sources = nil
            self.bySource = [:]
        }
    }

    /// The same values over another interval: a bucket whose samples and
    /// length equal those of one already evaluated.
    package func moved(start: Date, end: Date) -> HKStatistics {
        HKStatistics(self, startDate: start, endDate: end)
    }

    private init(_ other: HKStatistics, startDate: Date, endDate: Date) {
        quantityType = other.quantityType
        self.startDate = startDate
        self.endDate = endDate
        options = other.options
        merged = other.merged
        sources = other.sources
        bySource = other.bySource
    }

    /// Statistics with no values: an empty bucket (ST-37, ST-38).
    package static func empty(
        of type: HKQuantityType,
        from start: Date,
        to end: Date,
        options: HKStatisticsOptions
    )
        -> HKStatistics
    {
        HKStatistics(
            quantityType: type,
            startDate: start,
            endDate: end,
            options: options,
            merged: .empty,
            bySource: [:]
        )
    }

    // MARK: Merged values

    /// The sum, prorated and merged across sources (`cumulativeSum`).
    public func sumQuantity() -> HKQuantity? { quantity(merged.sum, .cumulativeSum) }
    /// The average (`discreteAverage`).
    public func averageQuantity() -> HKQuantity? { quantity(merged.average, .discreteAverage) }
    /// The smallest value (`discreteMin`).
    public func minimumQuantity() -> HKQuantity? { quantity(merged.minimum, .discreteMin) }
    /// The largest value (`discreteMax`).
    public func maximumQuantity() -> HKQuantity? { quantity(merged.maximum, .discreteMax) }
    /// The most recent sample's value (`mostRecent`).
    public func mostRecentQuantity() -> HKQuantity? { quantity(merged.mostRecent?.value, .mostRecent) }
    /// The most recent sample's interval (`mostRecent`).
    public func mostRecentQuantityDateInterval() -> DateInterval? { interval(merged.mostRecent) }
    /// The time the samples cover, in seconds (`duration`).
    public func duration() -> HKQuantity? { seconds(merged.duration) }

    // MARK: Per-source values

    /// `source`'s sum, without merging (ST-9).
    public func sumQuantity(for source: HKSource) -> HKQuantity? {
        quantity(bySource[source.bundleIdentifier]?.sum, .cumulativeSum)
    }
    /// `source`'s average.
    public func averageQuantity(for source: HKSource) -> HKQuantity? {
        quantity(bySource[source.bundleIdentifier]?.average, .discreteAverage)
    }
    /// `source`'s smallest value.
    public func minimumQuantity(for source: HKSource) -> HKQuantity? {
        quantity(bySource[source.bundleIdentifier]?.minimum, .discreteMin)
    }
    /// `source`'s largest value.
    public func maximumQuantity(for source: HKSource) -> HKQuantity? {
        quantity(bySource[source.bundleIdentifier]?.maximum, .discreteMax)
    }
    /// `source`'s most recent value.
    public func mostRecentQuantity(for source: HKSource) -> HKQuantity? {
        quantity(bySource[source.bundleIdentifier]?.mostRecent?.value, .mostRecent)
    }
    /// `source`'s most recent sample's interval.
    public func mostRecentQuantityDateInterval(for source: HKSource) -> DateInterval? {
        interval(bySource[source.bundleIdentifier]?.mostRecent)
    }
    /// The time `source`'s samples cover.
    public func duration(for source: HKSource) -> HKQuantity? {
        seconds(bySource[source.bundleIdentifier]?.duration)
    }

    public var description: String {
        "HKStatistics(\(quantityType.identifier), \(startDate) – \(endDate))"
    }

    // MARK: Helpers

    private func quantity(_ value: Double?, _ option: HKStatisticsOptions) -> HKQuantity? {
        guard options.contains(option), let value else { return nil }
        return HKQuantity(unit: quantityType.canonicalUnit, doubleValue: value)
    }

    private func seconds(_ value: Double?) -> HKQuantity? {
        guard options.contains(.duration), let value else { return nil }
        return HKQuantity(unit: .second(), doubleValue: value)
    }

    private func interval(_ recent: StatisticsValues.MostRecent?) -> DateInterval? {
        guard options.contains(.mostRecent), let recent else { return nil }
        return DateInterval(
            start: Date(timeIntervalSinceReferenceDate: recent.start),
            end: Date(timeIntervalSinceReferenceDate: recent.end)
        )
    }
}
