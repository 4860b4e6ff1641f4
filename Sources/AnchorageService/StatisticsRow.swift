public import Anchorage
import Foundation

/// The numbers of a bucket, merged or of one source, in the table's unit;
/// each `nil` when not asked for or when nothing contributed.
///
/// ```swift
/// let values = StatisticsValues(statistics, source: nil, options: .cumulativeSum, unit: .count())
/// values.sum   // 4901
/// ```
public struct StatisticsValues: Equatable, Sendable {
    public var sum, average, min, max, mostRecent, duration: Double?
    /// When the most recent quantity's sample started.
    public var mostRecentStartDate: Date?

    /// No values.
    public init() {}

    /// The values `options` ask for, of every source or of `source` alone
    /// (ST-9); `duration` in seconds.
    public init(_ statistics: HKStatistics, source: HKSource?, options: HKStatisticsOptions, unit: HKUnit) {
        func value(_ merged: @autoclosure () -> HKQuantity?, _ own: (HKSource) -> HKQuantity?) -> Double? {
            (source.map(own) ?? merged()).flatMap { try? $0.checkedDoubleValue(for: unit) }
        }
        if options.contains(.cumulativeSum) { sum = value(statistics.sumQuantity(), statistics.sumQuantity(for:)) }
        if options.contains(.discreteAverage) {
            average = value(statistics.averageQuantity(), statistics.averageQuantity(for:))
        }
        if options.contains(.discreteMin) {
            min = value(statistics.minimumQuantity(), statistics.minimumQuantity(for:))
        }
        if options.contains(.discreteMax) {
            max = value(statistics.maximumQuantity(), statistics.maximumQuantity(for:))
        }
        if options.contains(.mostRecent) {
            mostRecent = value(statistics.mostRecentQuantity(), statistics.mostRecentQuantity(for:))
            mostRecentStartDate =
                (source.map(statistics.mostRecentQuantityDateInterval(for:))
                ?? statistics.mostRecentQuantityDateInterval())?.start
        }
        if options.contains(.duration) {
            duration = (source.map(statistics.duration(for:)) ?? statistics.duration())?
                .doubleValue(for: .second())
        }
    }

    /// The statistics `options` ask for, in the order the command line
    /// shows them: sum, average, min, max, mostRecent, duration.
    ///
    /// ```swift
    /// StatisticsValues.columns(of: [.discreteMin, .duration])   // [.min, .duration]
    /// ```
    public static func columns(of options: HKStatisticsOptions) -> [StatisticsColumn] {
        StatisticsColumn.allCases.filter { options.contains($0.option) }
    }

    /// The value of `column`.
    public subscript(column: StatisticsColumn) -> Double? {
        switch column {
        case .sum: sum
        case .average: average
        case .min: min
        case .max: max
        case .mostRecent: mostRecent
        case .duration: duration
        }
    }
}

/// One statistic a table shows.
///
/// ```swift
/// StatisticsColumn.duration.name   // "duration"
/// ```
public enum StatisticsColumn: String, CaseIterable, Sendable {
    case sum, average, min, max, mostRecent, duration

    /// Its name in the HTTP answer and in `options`.
    public var name: String { rawValue }

    /// The option that computes it.
    public var option: HKStatisticsOptions {
        switch self {
        case .sum: .cumulativeSum
        case .average: .discreteAverage
        case .min: .discreteMin
        case .max: .discreteMax
        case .mostRecent: .mostRecent
        case .duration: .duration
        }
    }
}

/// One bucket of a ``StatisticsTable``: its bounds, its merged values and,
/// with `separateBySource`, each source's own.
///
/// ```swift
/// let row = StatisticsRow(statistics, options: [.cumulativeSum, .separateBySource], unit: .count())
/// row.sources?.first?.bundleIdentifier
/// ```
public struct StatisticsRow: Equatable, Sendable {
    public let startDate: Date
    public let endDate: Date
    public var values = StatisticsValues()
    /// With `separateBySource`: each source's own values (ST-9), by bundle
    /// identifier.
    public var sources: [StatisticsSourceValues]?

    /// A row with only its bounds.
    public init(startDate: Date, endDate: Date) {
        self.startDate = startDate
        self.endDate = endDate
    }

    /// The row of a bucket's statistics.
    public init(_ statistics: HKStatistics, options: HKStatisticsOptions, unit: HKUnit) {
        startDate = statistics.startDate
        endDate = statistics.endDate
        values = StatisticsValues(statistics, source: nil, options: options, unit: unit)
        if options.contains(.separateBySource) {
            sources = (statistics.sources ?? []).sorted { $0.bundleIdentifier < $1.bundleIdentifier }.map {
                StatisticsSourceValues(statistics, source: $0, options: options, unit: unit)
            }
        }
    }
}

/// One source's values in a bucket.
///
/// ```swift
/// let own = StatisticsSourceValues(bundleIdentifier: "com.example.watch", name: "Watch")
/// ```
public struct StatisticsSourceValues: Equatable, Sendable {
    public let bundleIdentifier: String
    public let name: String
    public var values = StatisticsValues()

    /// A source without values.
    public init(bundleIdentifier: String, name: String) {
        self.bundleIdentifier = bundleIdentifier
        self.name = name
    }

    /// `source`'s values in a bucket.
    public init(_ statistics: HKStatistics, source: HKSource, options: HKStatisticsOptions, unit: HKUnit) {
        bundleIdentifier = source.bundleIdentifier
        name = source.name
        values = StatisticsValues(statistics, source: source, options: options, unit: unit)
    }
}
