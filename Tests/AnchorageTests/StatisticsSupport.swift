import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

/// A date from an ISO 8601 string such as `2024-03-10T05:00:00Z`.
func iso(_ string: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: string) else { preconditionFailure("bad date \(string)") }
    return date
}

let utc = TimeZone(identifier: "UTC")!

/// A quantity sample of `type`.
func quantity(
    _ type: HKQuantityType,
    _ value: Double,
    _ unit: HKUnit,
    from start: Date,
    to end: Date,
    metadata: [String: Any]? = nil
) -> HKQuantitySample {
    HKQuantitySample(
        type: type,
        quantity: HKQuantity(unit: unit, doubleValue: value),
        start: start,
        end: end,
        metadata: metadata
    )
}

/// Steps from `start` to `end`.
func steps(_ count: Double, from start: Date, to end: Date, metadata: [String: Any]? = nil) -> HKQuantitySample {
    quantity(stepType, count, .count(), from: start, to: end, metadata: metadata)
}

let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())

/// A store configuration whose statistics tile days in `timeZone`, and
/// whose apps get what they ask for.
func statisticsConfiguration(timeZone: TimeZone = utc) -> HKHealthStore.Configuration {
    var configuration = HKHealthStore.Configuration.forTests
    configuration.timeZone = timeZone
    configuration.authorizationPolicy = .grantAll
    return configuration
}

/// A handle on the store in `directory` acting as the app `bundle`,
/// authorized to share and read `types`.
func appStore(
    _ directory: URL,
    _ bundle: String,
    types: Set<HKQuantityType> = [stepType, heartRateType, HKQuantityType(.bodyMass)],
    configuration: HKHealthStore.Configuration = statisticsConfiguration()
) async throws -> HKHealthStore {
    let store = HKHealthStore(
        directory: directory,
        principal: HKSource(name: bundle, bundleIdentifier: bundle),
        configuration: configuration
    )
    try await store.requestAuthorization(toShare: Set(types.map { $0 as HKSampleType }), read: Set(types.map { $0 }))
    return store
}

/// Runs an `HKStatisticsQuery` and returns what its handler got.
func statisticsResult(
    in store: HKHealthStore,
    of type: HKQuantityType,
    predicate: NSPredicate? = nil,
    options: HKStatisticsOptions
) async throws -> HKStatistics {
    let box = UncheckedBox(predicate)
    return try await withCheckedThrowingContinuation { continuation in
        let query = HKStatisticsQuery(quantityType: type, quantitySamplePredicate: box.value, options: options) {
            _,
            statistics,
            error in
            if let statistics {
                continuation.resume(returning: statistics)
            } else {
                continuation.resume(throwing: error ?? HKError(.errorNoData, "no statistics and no error"))
            }
        }
        store.execute(query)
    }
}

/// Runs an `HKStatisticsCollectionQuery` and returns its initial collection.
func collectionResult(
    in store: HKHealthStore,
    of type: HKQuantityType,
    predicate: NSPredicate? = nil,
    options: HKStatisticsOptions,
    anchor: Date,
    interval: DateComponents
) async throws -> HKStatisticsCollection {
    let box = UncheckedBox(predicate)
    return try await withCheckedThrowingContinuation { continuation in
        let query = HKStatisticsCollectionQuery(
            quantityType: type,
            quantitySamplePredicate: box.value,
            options: options,
            anchorDate: anchor,
            intervalComponents: interval
        )
        query.initialResultsHandler = { _, collection, error in
            if let collection {
                continuation.resume(returning: collection)
            } else {
                continuation.resume(throwing: error ?? HKError(.errorNoData, "no collection and no error"))
            }
        }
        store.execute(query)
    }
}

extension HKStatistics {
    /// The merged sum in counts (steps).
    var count: Double? { sumQuantity()?.doubleValue(for: .count()) }
}

/// Whether `a` and `b` agree to 1e-9 relative (or both are nil).
func close(_ a: Double?, _ b: Double?, tolerance: Double = 1e-9) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    return abs(a - b) <= tolerance * max(1, abs(a), abs(b))
}

/// Checks that the views answer every bucket of a collection query on
/// `grid` (each one from the views' rows) as the reference evaluator does
/// over the same samples, merged and by source; returns the reference's
/// buckets.
@discardableResult
func expectViewsAsReference(
    _ owner: HKHealthStore,
    _ type: HKQuantityType,
    grid: BucketGrid,
    options: HKStatisticsOptions,
    _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [Int: HKStatistics] {
    let engine = try await owner.engine()
    let before = engine.counters.statisticsBuckets
    let viewed = try #require(
        try engine.viewCollection(of: type, predicate: nil, options: options, grid: grid, caller: owner.caller),
        sourceLocation: sourceLocation
    )
    let after = engine.counters.statisticsBuckets
    let (samples, _) = try engine.statisticsSamples(of: type, predicate: nil, caller: owner.caller)
    let reference = ReferenceStatistics.collection(samples, grid: grid, type: type, options: options)
    #expect(
        after.viewed - before.viewed == reference.count,
        "\(label): every bucket from the views",
        sourceLocation: sourceLocation
    )
    #expect(Set(viewed.collection.buckets.keys) == Set(reference.keys), "\(label)", sourceLocation: sourceLocation)
    for (index, expected) in reference {
        let bucket = try #require(viewed.collection.buckets[index], sourceLocation: sourceLocation)
        #expect(
            StatisticsPropertyTests.agree(bucket, expected),
            "\(label): \(options) bucket \(index)",
            sourceLocation: sourceLocation
        )
        #expect(
            bucket.sources?.count == expected.sources?.count,
            "\(label): sources of bucket \(index)",
            sourceLocation: sourceLocation
        )
    }
    return reference
}
