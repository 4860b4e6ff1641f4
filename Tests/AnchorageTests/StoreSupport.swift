import AnchorageLog
import Foundation
import LMDB
import Synchronization
import Testing

@testable import Anchorage

let stepType = HKQuantityType(.stepCount)
let heartRateType = HKQuantityType(.heartRate)
let energyType = HKQuantityType(.dietaryEnergyConsumed)
let proteinType = HKQuantityType(.dietaryProtein)

/// A step count sample over one minute starting `minute` minutes after `day`.
func steps(_ count: Double, atMinute minute: Double = 0, metadata: [String: Any]? = nil) -> HKQuantitySample {
    HKQuantitySample(
        type: stepType,
        quantity: HKQuantity(unit: .count(), doubleValue: count),
        start: minutes(minute),
        end: minutes(minute + 1),
        metadata: metadata
    )
}

/// A heart rate reading at `minute`.
func heartRate(_ bpm: Double, atMinute minute: Double = 0) -> HKQuantitySample {
    HKQuantitySample(
        type: heartRateType,
        quantity: HKQuantity(unit: HKUnit.count().unitDivided(by: .minute()), doubleValue: bpm),
        start: minutes(minute),
        end: minutes(minute)
    )
}

/// A food with the given energy (kcal) and protein (g) samples.
func food(_ name: String, kilocalories: Double?, protein: Double? = nil, atMinute minute: Double = 0) -> HKCorrelation {
    var members = Set<HKSample>()
    if let kilocalories {
        members.insert(
            HKQuantitySample(
                type: energyType,
                quantity: HKQuantity(unit: .kilocalorie(), doubleValue: kilocalories),
                start: minutes(minute),
                end: minutes(minute)
            )
        )
    }
    if let protein {
        members.insert(
            HKQuantitySample(
                type: proteinType,
                quantity: HKQuantity(unit: .gram(), doubleValue: protein),
                start: minutes(minute),
                end: minutes(minute)
            )
        )
    }
    return HKCorrelation(
        type: HKCorrelationType(.food),
        start: minutes(minute),
        end: minutes(minute),
        objects: members,
        metadata: [HKMetadataKeyFoodType: name]
    )
}

/// Runs a sample query and returns its results.
func samples(
    in store: HKHealthStore,
    of type: HKSampleType,
    predicate: NSPredicate? = nil,
    limit: Int = HKObjectQueryNoLimit,
    sortDescriptors: [NSSortDescriptor]? = nil
) async throws -> [HKSample] {
    let box = UncheckedBox((predicate, sortDescriptors))
    return try await withCheckedThrowingContinuation { continuation in
        let query = HKSampleQuery(
            sampleType: type,
            predicate: box.value.0,
            limit: limit,
            sortDescriptors: box.value.1
        ) { _, results, error in
            if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: results ?? []) }
        }
        store.execute(query)
    }
}

/// One anchored query page: added samples, deletions and the new anchor.
struct AnchoredPage {
    var added: [HKSample]
    var deleted: [HKDeletedObject]
    var anchor: HKQueryAnchor
}

/// Runs an iOS 9 anchored query once.
func anchoredPage(
    in store: HKHealthStore,
    of type: HKSampleType,
    predicate: NSPredicate? = nil,
    anchor: HKQueryAnchor?,
    limit: Int = HKObjectQueryNoLimit
) async throws -> AnchoredPage {
    let box = UncheckedBox(predicate)
    return try await anchoredPage(in: store) { handler in
        HKAnchoredObjectQuery(type: type, predicate: box.value, anchor: anchor, limit: limit, resultsHandler: handler)
    }
}

/// Runs the anchored query `make` builds once, with the handler given.
func anchoredPage(
    in store: HKHealthStore,
    _ make: (
        @escaping @Sendable (HKAnchoredObjectQuery, [HKSample]?, [HKDeletedObject]?, HKQueryAnchor?, (any Error)?) ->
            Void
    ) -> HKAnchoredObjectQuery
) async throws -> AnchoredPage {
    try await withCheckedThrowingContinuation { continuation in
        let query = make { _, added, deleted, newAnchor, error in
            if let error {
                continuation.resume(throwing: error)
            } else {
                continuation.resume(
                    returning: AnchoredPage(added: added ?? [], deleted: deleted ?? [], anchor: newAnchor!)
                )
            }
        }
        store.execute(query)
    }
}

/// Every key and value of the store's index databases, in order.
func indexDump(_ store: HKHealthStore) throws -> [[UInt8]] {
    try databaseDump(store) { $0.index.all }
}

/// Every key and value of the store's statistics views, in order.
func viewDump(_ store: HKHealthStore) throws -> [[UInt8]] {
    try databaseDump(store) { $0.views.all }
}

/// Runs `body` in a write transaction on the projections file of the
/// closed store in `directory`, behind the store's back (to damage or age
/// what it holds).
func writeProjectionsFile<R>(in directory: URL, _ body: (borrowing WriteTransaction) throws -> R) throws -> R {
    var options = Environment.Configuration()
    options.options = [.noSubdirectory]
    options.maxDatabases = 64
    let environment = try Environment(path: directory.path + "/projections.mdb", configuration: options)
    return try environment.write(body)
}

/// Every key and value of the databases `pick` chooses, in order.
func databaseDump(_ store: HKHealthStore, _ pick: (StoreEngine) -> [Database]) throws -> [[UInt8]] {
    let engine = try store.engine()
    return try engine.read { txn in
        var rows: [[UInt8]] = []
        for database in pick(engine) {
            rows.append(Array("--".utf8))
            try txn.withCursor(on: database) { cursor in
                try cursor.scan { key, value in
                    rows.append(Array(key))
                    rows.append(Array(value))
                    return true
                }
            }
        }
        return rows
    }
}

/// Collects values from concurrent callbacks.
final class Collector<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }
}

/// Expects `body` to throw an ``HKError`` with `code` (and `rule`, and a
/// message containing `words`, when given).
func expectCode<R>(
    _ code: HKError.Code,
    rule: String? = nil,
    saying words: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> R
) async {
    do {
        _ = try await body()
        Issue.record("expected \(code), but nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as HKError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let rule { #expect(error.rule == rule, "\(error)", sourceLocation: sourceLocation) }
        if let words { #expect(error.message.contains(words), "\(error)", sourceLocation: sourceLocation) }
    } catch {
        Issue.record("expected \(code), got \(error)", sourceLocation: sourceLocation)
    }
}
