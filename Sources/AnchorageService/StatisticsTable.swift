public import Anchorage
import Foundation

/// The answer to a statistics request: one row per bucket from the one
/// containing `start` through the one containing `end`, empty ones
/// included, with the columns the options ask for. Rows are made as they
/// are visited (``forEachRow(_:)``), so a wide answer is never held whole.
///
/// ```swift
/// let table = try request.table(from: store)
/// for row in table.rows { print(row.startDate, row.values.sum ?? 0) }
/// ```
public struct StatisticsTable: Sendable {
    /// The statistics shown; `separateBySource` adds each source's lines.
    public let options: HKStatisticsOptions
    /// The unit of every value.
    public let unit: HKUnit
    /// The quantity type counted.
    public let type: HKQuantityType
    /// The bucket length as written (`1d`).
    public let intervalText: String
    /// The zone of the buckets.
    public let timeZone: TimeZone
    /// The zone as written (`Europe/Paris`, `UTC`).
    public let timeZoneText: String
    /// The first and last instants shown.
    public let start, end: Date
    private let collection: HKStatisticsCollection

    /// The table of `collection`'s buckets from `start` through `end`.
    ///
    /// ```swift
    /// let table = StatisticsTable(collection, from: start, to: end, unit: .count(), timeZone: zone)
    /// ```
    public init(
        _ collection: HKStatisticsCollection,
        from start: Date,
        to end: Date,
        unit: HKUnit,
        timeZone: TimeZone,
        intervalText: String = "1d",
        timeZoneText: String? = nil
    ) {
        self.collection = collection
        self.options = collection.options
        self.type = collection.quantityType
        self.start = start
        self.end = end
        self.unit = unit
        self.timeZone = timeZone
        self.intervalText = intervalText
        self.timeZoneText = timeZoneText ?? timeZone.identifier
    }

    /// The statistics shown, in the order the command line shows them.
    public var columns: [StatisticsColumn] { StatisticsValues.columns(of: options) }

    /// Whether each source's own values are shown too.
    public var bySource: Bool { options.contains(.separateBySource) }

    /// Visits every row in time order. Empty buckets that show no values
    /// are made from their bounds alone, without statistics objects.
    public func forEachRow(_ body: (StatisticsRow) -> Void) {
        let probe = StatisticsRow(collection.emptyStatistics(from: start, to: start), options: options, unit: unit)
        let emptyIsBoundsOnly = probe == StatisticsRow(startDate: start, endDate: start)
        collection.forEachBucket(from: start, to: end) { bounds, statistics in
            if let statistics {
                body(StatisticsRow(statistics, options: options, unit: unit))
            } else if emptyIsBoundsOnly {
                body(StatisticsRow(startDate: bounds.start, endDate: bounds.end))
            } else {
                body(
                    StatisticsRow(
                        collection.emptyStatistics(from: bounds.start, to: bounds.end),
                        options: options,
                        unit: unit
                    )
                )
            }
        }
    }

    /// Every row, in time order.
    public var rows: [StatisticsRow] {
        var rows: [StatisticsRow] = []
        forEachRow { rows.append($0) }
        return rows
    }
}
