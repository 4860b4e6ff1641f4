@_spi(Benchmarks) import Anchorage
import Foundation

/// The statistics workloads: a year of minute-level steps from two
/// overlapping sources plus hourly heart rate, queried through the views
/// and through the reference evaluator; and what the views add to ingest.
struct StatisticsBenchmarks {
    let workDirectory: URL
    /// Minutes of data per source (a year: 525,600).
    let minutes: Int

    static let steps = HKQuantityType(.stepCount)
    static let heartRate = HKQuantityType(.heartRate)
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// Midnight of 2025-01-01 in New York.
    static let origin = Date(timeIntervalSince1970: 1_735_707_600)
    static let sources = ["com.example.watch", "com.example.phone"]

    struct Ingest {
        var seconds: Double
        var store: HKHealthStore
        var directory: URL
    }

    /// Saves the data set into a new store, in batches of 1,000 per source,
    /// durable; returns the elapsed time and the open store.
    func ingest(run: Int, views: Bool) async throws -> Ingest {
        let directory = workDirectory.appendingPathComponent("statistics-\(run)-\(views)")
        try? FileManager.default.removeItem(at: directory)
        var configuration = HKHealthStore.Configuration()
        configuration.authorizationPolicy = .grantAll
        configuration.timeZone = Self.newYork
        configuration.maintainsStatisticsViews = views
        let owner = HKHealthStore(directory: directory, configuration: configuration)
        var apps: [HKHealthStore] = []
        for bundle in Self.sources {
            let app = HKHealthStore(
                directory: directory,
                principal: HKSource(name: bundle, bundleIdentifier: bundle),
                configuration: configuration
            )
            try await app.requestAuthorization(
                toShare: [Self.steps, Self.heartRate],
                read: [Self.steps, Self.heartRate]
            )
            apps.append(app)
        }
        try await owner.setSourcePriority(Self.sources, for: Self.steps)
        let (seconds, _) = try await timed {
            for first in stride(from: 0, to: minutes, by: 1_000) {
                let range = first..<min(first + 1_000, minutes)
                for (position, app) in apps.enumerated() {
                    // The phone's minutes run 30 s behind the watch's: they overlap by half.
                    try await app.save(range.map { Self.stepSample(minute: $0, offset: Double(position) * 30) })
                }
                let hours = range.filter { $0 % 60 == 0 }
                if !hours.isEmpty { try await apps[0].save(hours.map(Self.heartRateSample)) }
            }
        }
        for app in apps { await app.close() }
        return Ingest(seconds: seconds, store: owner, directory: directory)
    }

    static func stepSample(minute: Int, offset: Double) -> HKQuantitySample {
        let start = origin.addingTimeInterval(Double(minute) * 60 + offset)
        return HKQuantitySample(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: Double(20 + (minute * 7) % 90)),
            start: start,
            end: start.addingTimeInterval(60)
        )
    }

    static func heartRateSample(minute: Int) -> HKQuantitySample {
        let start = origin.addingTimeInterval(Double(minute) * 60)
        return HKQuantitySample(
            type: heartRate,
            quantity: HKQuantity(
                unit: HKUnit.count().unitDivided(by: .minute()),
                doubleValue: Double(55 + (minute / 60 * 13) % 70)
            ),
            start: start,
            end: start.addingTimeInterval(300)
        )
    }

    /// The three collection queries of the issue.
    static func queries() -> [(name: String, descriptor: HKStatisticsCollectionQueryDescriptor)] {
        var daily = DateComponents(day: 1)
        daily.timeZone = newYork
        var hourly = DateComponents(hour: 1)
        hourly.timeZone = newYork
        let week = HKQuery.predicateForSamples(
            withStart: origin.addingTimeInterval(180 * 86_400),
            end: origin.addingTimeInterval(187 * 86_400)
        )
        return [
            (
                "daily merged step sums over the year, New York",
                HKStatisticsCollectionQueryDescriptor(
                    predicate: .quantitySample(type: steps),
                    options: .cumulativeSum,
                    anchorDate: origin,
                    intervalComponents: daily
                )
            ),
            (
                "hourly merged step sums over one week",
                HKStatisticsCollectionQueryDescriptor(
                    predicate: .quantitySample(type: steps, predicate: week),
                    options: .cumulativeSum,
                    anchorDate: origin,
                    intervalComponents: hourly
                )
            ),
            (
                "daily average/min/max heart rate over the year",
                HKStatisticsCollectionQueryDescriptor(
                    predicate: .quantitySample(type: heartRate),
                    options: [.discreteAverage, .discreteMin, .discreteMax],
                    anchorDate: origin,
                    intervalComponents: daily
                )
            ),
        ]
    }

    /// The statistics query (HKStatisticsQuery): merged step sums
    /// over 300 days whose ends are not on quarter hours.
    static func singleQuery() -> (name: String, descriptor: HKStatisticsQueryDescriptor) {
        let range = HKQuery.predicateForSamples(
            withStart: origin.addingTimeInterval(86_400 + 7 * 60 + 13),
            end: origin.addingTimeInterval(301 * 86_400 + 11 * 60)
        )
        return (
            "one merged step sum over 300 days (HKStatisticsQuery)",
            HKStatisticsQueryDescriptor(
                predicate: .quantitySample(type: steps, predicate: range),
                options: .cumulativeSum
            )
        )
    }

    /// The median milliseconds of `repeats` runs of `body` after one to
    /// warm up, and its result.
    static func milliseconds<R>(repeats: Int = 5, _ body: () async throws -> R) async throws -> (Double, R) {
        var result = try await body()
        var times: [Double] = []
        for _ in 0..<repeats {
            let (seconds, value) = try await timed(body)
            result = value
            times.append(seconds * 1_000)
        }
        return (times.sorted()[times.count / 2], result)
    }

    /// Milliseconds of `descriptor` through the views, warm: the median of
    /// ten after one to warm up.
    static func viewMilliseconds(
        _ descriptor: HKStatisticsCollectionQueryDescriptor,
        store: HKHealthStore
    ) async throws -> (Double, HKStatisticsCollection) {
        try await milliseconds(repeats: 10) { try await descriptor.result(for: store) }
    }

    /// Milliseconds of `descriptor` through the reference evaluator.
    static func referenceMilliseconds(
        _ descriptor: HKStatisticsCollectionQueryDescriptor,
        store: HKHealthStore
    ) async throws -> (Double, HKStatisticsCollection) {
        let (seconds, result) = try await timed { try await descriptor.referenceResult(for: store) }
        return (seconds * 1_000, result)
    }
}
