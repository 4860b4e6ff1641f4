import Anchorage
import Foundation

extension StatisticsRoutes {
    /// The numbers of a bucket, merged or of one source, in the answer's
    /// unit; each `nil` when not asked for or when nothing contributed.
    struct Values: Equatable {
        var sum, average, min, max, mostRecent, duration: Double?
        var mostRecentStartDate: Date?

        init() {}

        /// The values `options` ask for, of every source or of `source`
        /// alone (ST-9).
        init(_ statistics: HKStatistics, source: HKSource?, options: HKStatisticsOptions, unit: HKUnit) {
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
    }

    /// One bucket in the response; absent values are left out, dates are
    /// written as ISO 8601 text in UTC.
    struct Row: Equatable {
        let startDate: Date
        let endDate: Date
        var values = Values()
        /// With `separateBySource`: each source's own values (ST-9).
        var sources: [SourceValues]?

        /// A row with only its bounds.
        init(startDate: Date, endDate: Date) {
            self.startDate = startDate
            self.endDate = endDate
        }

        init(_ statistics: HKStatistics, options: HKStatisticsOptions, unit: HKUnit) {
            startDate = statistics.startDate
            endDate = statistics.endDate
            values = Values(statistics, source: nil, options: options, unit: unit)
            if options.contains(.separateBySource) {
                sources = (statistics.sources ?? []).sorted { $0.bundleIdentifier < $1.bundleIdentifier }.map {
                    SourceValues(statistics, source: $0, options: options, unit: unit)
                }
            }
        }
    }

    /// One source's values in a bucket.
    struct SourceValues: Equatable {
        let bundleIdentifier: String
        let name: String
        var values = Values()

        /// A source without values.
        init(bundleIdentifier: String, name: String) {
            self.bundleIdentifier = bundleIdentifier
            self.name = name
        }

        init(_ statistics: HKStatistics, source: HKSource, options: HKStatisticsOptions, unit: HKUnit) {
            bundleIdentifier = source.bundleIdentifier
            name = source.name
            values = Values(statistics, source: source, options: options, unit: unit)
        }
    }
}
