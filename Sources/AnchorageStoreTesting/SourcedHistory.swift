@_spi(Benchmarks) public import Anchorage
import Foundation

/// A varied history of step samples from three sources, for tests of
/// per-source statistics: overlapping, instant and hours-long samples,
/// deterministic (no random generator), in the API's JSON form.
///
/// ```swift
/// let body = SourcedHistory.jsonArray(90)            // POST /v1/samples, anchorage save
/// let expected = try await SourcedHistory.reference(store)
/// ```
public enum SourcedHistory {
    /// The three sources' bundle identifiers (also their names).
    public static let sources = ["com.example.phone", "com.example.watch", "com.example.app"]
    /// 2024-06-01T00:00:00Z: every sample starts on this day.
    public static let dayStart = Date(timeIntervalSince1970: 1_717_200_000)

    /// The i-th sample, as JSON.
    public static func json(_ index: Int) -> String {
        let start = dayStart.addingTimeInterval(Double(index * 397 % 1_440) * 60)
        let end = start.addingTimeInterval(Double(index * 53 % 181) * 60)
        let bundle = sources[index % 3]
        return """
            {"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
            "startDate":"\(start.formatted(.iso8601))","endDate":"\(end.formatted(.iso8601))",\
            "quantity":{"unit":"count","value":\(index * 31 % 997 + 1)},\
            "sourceRevision":{"source":{"name":"\(bundle)","bundleIdentifier":"\(bundle)"}}}
            """
    }

    /// The first `count` samples as a JSON array.
    public static func jsonArray(_ count: Int) -> String {
        "[" + (0..<count).map(json).joined(separator: ",") + "]"
    }

    /// One hourly bucket of the reference evaluator: the merged sum and
    /// each source's, by bundle identifier.
    public struct Bucket: Sendable {
        public var sum: Double?
        public var bySource: [String: Double]
    }

    /// The reference evaluator's hourly step buckets of the day in `store`
    /// (UTC), by bucket start; with `selected`, of those sources only.
    public static func reference(_ store: HKHealthStore, sources selected: [String] = []) async throws -> [Date: Bucket]
    {
        let predicate =
            selected.isEmpty
            ? nil : HKQuery.predicateForObjects(from: Set(selected.map { HKSource(name: $0, bundleIdentifier: $0) }))
        var components = DateComponents(hour: 1)
        components.timeZone = TimeZone(identifier: "UTC")
        let collection = try await HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: HKQuantityType(.stepCount), predicate: predicate),
            options: [.cumulativeSum, .separateBySource],
            anchorDate: dayStart,
            intervalComponents: components
        ).referenceResult(for: store)
        var buckets: [Date: Bucket] = [:]
        collection.enumerateStatistics(from: dayStart, to: dayStart.addingTimeInterval(86_399)) { statistics, _ in
            var bySource: [String: Double] = [:]
            for source in statistics.sources ?? [] {
                bySource[source.bundleIdentifier] = statistics.sumQuantity(for: source)?.doubleValue(for: .count())
            }
            buckets[statistics.startDate] = Bucket(
                sum: statistics.sumQuantity()?.doubleValue(for: .count()),
                bySource: bySource
            )
        }
        return buckets
    }

    /// Whether two values agree to a relative 1e-9 (both absent counts).
    public static func close(_ a: Double?, _ b: Double?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= 1e-9 * max(1, abs(a))
    }

    /// The merged sum and per-source sums of rows as the HTTP API and
    /// `anchorage stats --format json` write them (`sum`, `sources` of
    /// `{bundleIdentifier, sum}`), checked against the reference; returns
    /// how many per-source values were compared, and the disagreements.
    public static func compare(
        rows: [(start: Date, sum: Double?, sources: [[String: Any]])],
        with reference: [Date: Bucket],
        selected: [String] = []
    ) -> (compared: Int, problems: [String]) {
        var compared = 0
        var problems: [String] = []
        for row in rows {
            let expected = reference[row.start]
            if !close(row.sum, expected?.sum) {
                problems.append("merged sum at \(row.start): \(String(describing: row.sum))")
            }
            var listed: [String: Double] = [:]
            for source in row.sources { listed[source["bundleIdentifier"] as? String ?? ""] = source["sum"] as? Double }
            if Set(listed.keys) != Set((expected?.bySource ?? [:]).keys) {
                problems.append("sources at \(row.start): \(listed.keys.sorted())")
            }
            if !selected.isEmpty && !Set(listed.keys).isSubset(of: Set(selected)) {
                problems.append("unselected sources at \(row.start)")
            }
            for (bundle, sum) in expected?.bySource ?? [:] {
                if !close(listed[bundle], sum) { problems.append("\(bundle) at \(row.start)") }
                compared += 1
            }
        }
        return (compared, problems)
    }
}
