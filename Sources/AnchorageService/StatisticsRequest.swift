public import Anchorage
import Foundation

/// One statistics collection query as a front end asks for it: a quantity
/// type, the buckets from `start` through `end`, the statistics and the unit
/// they are shown in. Built by ``init(query:)`` (HTTP) or
/// ``init(arguments:)`` (the command line); answered by
/// ``table(from:readable:)``.
///
/// ```swift
/// let request = try StatisticsRequest(queryString: "type=stepCount&from=2024-06-01&to=2024-06-07")
/// let table = try request.table(from: store)
/// ```
public struct StatisticsRequest: Sendable, Equatable {
    /// The most buckets one request may ask for.
    public static let maximumBuckets = 100_000
    /// The most bytes of one value (a type, a date, a unit…) the parsers read.
    public static let maximumValueBytes = 1_024

    /// The quantity type whose samples are counted.
    public var type: HKQuantityType
    /// The statistics computed; `separateBySource` adds each source's own.
    public var options: HKStatisticsOptions
    /// The length of a bucket, in ``timeZone``'s calendar.
    public var interval: DateComponents
    /// The interval as it was written (`1d`, `15m`), echoed in answers.
    public var intervalText: String
    /// The zone days, weeks, months and years follow.
    public var timeZone: TimeZone
    /// The zone as it was written, echoed in answers.
    public var timeZoneText: String
    /// The first instant shown: its bucket is the first row.
    public var start: Date
    /// The last instant shown: its bucket is the last row.
    public var end: Date
    /// The start of one bucket.
    public var anchor: Date
    /// The unit of the values.
    public var unit: HKUnit
    /// Only the samples of these apps and devices (bundle identifiers), as
    /// `HKQuery.predicateForObjects(from:)` selects them; empty for all.
    public var sources: [String]

    /// The query this request runs.
    ///
    /// ```swift
    /// let count = try request.descriptor.bucketCount(for: store, from: request.start, to: request.end)
    /// ```
    public var descriptor: HKStatisticsCollectionQueryDescriptor {
        let sourcePredicate =
            sources.isEmpty
            ? nil : HKQuery.predicateForObjects(from: Set(sources.map { HKSource(name: $0, bundleIdentifier: $0) }))
        return HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: type, predicate: sourcePredicate),
            options: options,
            anchorDate: anchor,
            intervalComponents: interval
        )
    }
}
