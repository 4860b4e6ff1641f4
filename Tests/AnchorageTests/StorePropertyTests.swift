import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Generated histories checked against a reference model (AQ-9, AQ-12,
/// AQ-13, AQ-15, AQ-21), and the indices against a rebuild from the log.
@Suite("Store properties")
struct StorePropertyTests {
    /// The reference model: which objects are visible, per type.
    struct Model {
        var visible: [String: Set<UUID>] = [:]
        var sync: [String: (id: UUID, version: Int, type: String)] = [:]
        var deleted = Set<UUID>()

        mutating func saved(_ sample: HKSample) {
            if let identifier = sample.metadata?[HKMetadataKeySyncIdentifier] as? String,
                let version = sample.metadata?[HKMetadataKeySyncVersion] as? Int
            {
                if let current = sync[identifier] {
                    guard version > current.version else { return }
                    visible[current.type]?.remove(current.id)
                    deleted.insert(current.id)
                }
                sync[identifier] = (sample.uuid, version, sample.sampleType.identifier)
            }
            visible[sample.sampleType.identifier, default: []].insert(sample.uuid)
        }

        mutating func removed(_ id: UUID) {
            for type in visible.keys where visible[type]!.remove(id) != nil { deleted.insert(id) }
            for (key, entry) in sync where entry.id == id { sync.removeValue(forKey: key) }
        }
    }

    static let types: [HKQuantityType] = [stepType, heartRateType, HKQuantityType(.bodyMass)]

    static func sample(
        _ type: HKQuantityType,
        _ random: inout SeededGenerator,
        sync: (String, Int)? = nil
    )
        -> HKQuantitySample
    {
        let start = minutes(Double.random(in: 0...10_000, using: &random))
        let quantity: HKQuantity =
            switch type {
            case stepType: HKQuantity(unit: .count(), doubleValue: Double.random(in: 1...500, using: &random))
            case heartRateType:
                HKQuantity(
                    unit: HKUnit.count().unitDivided(by: .minute()),
                    doubleValue: Double.random(in: 40...180, using: &random)
                )
            default: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: Double.random(in: 40...120, using: &random))
            }
        return HKQuantitySample(
            type: type,
            quantity: quantity,
            start: start,
            end: start.addingTimeInterval(Double.random(in: 0...3_600, using: &random)),
            metadata: sync.map { [HKMetadataKeySyncIdentifier: $0.0, HKMetadataKeySyncVersion: $0.1] }
        )
    }

    /// Applies `count` random operations to the store and the model.
    static func history(
        _ store: HKHealthStore,
        model: inout Model,
        count: Int,
        random: inout SeededGenerator
    ) async throws {
        for _ in 0..<count {
            let roll = Int.random(in: 0..<10, using: &random)
            let alive = model.visible.values.flatMap { $0 }.sorted { $0.uuidString < $1.uuidString }
            if roll < 5 || alive.isEmpty {
                let batch = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    sample(types.randomElement(using: &random)!, &random)
                }
                try await store.save(batch)
                for sample in batch { model.saved(sample) }
            } else if roll < 8 {
                let victims = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    alive.randomElement(using: &random)!
                }
                let objects = victims.map { id in HKQuantitySample(uuidOnly: id) }
                try await store.delete(objects)
                for victim in Set(victims) { model.removed(victim) }
            } else {
                let identifier = "sync-\(Int.random(in: 0..<4, using: &random))"
                let version = Int.random(in: 0..<6, using: &random)
                let type =
                    model.sync[identifier].flatMap { entry in types.first { $0.identifier == entry.type } } ?? stepType
                let replacement = sample(type, &random, sync: (identifier, version))
                try await store.save(replacement)
                model.saved(replacement)
            }
        }
    }

    @Test(
        "Paging anchored queries with random limits reconstructs the visible objects (AQ-9, AQ-12, AQ-13, AQ-21)",
        arguments: [1, 2, 3]
    )
    func pagingReconstructs(seed: UInt64) async throws {
        try await withTemporaryStore { store, _ in
            var random = SeededGenerator(seed: seed)
            var model = Model()
            try await Self.history(store, model: &model, count: 60, random: &random)
            for type in Self.types {
                var anchor: HKQueryAnchor? = nil
                var seen = Set<UUID>()
                var everSeen = Set<UUID>()
                var deletions = Set<UUID>()
                var pages = 0
                while true {
                    let limit = Int.random(in: 1...7, using: &random)
                    let page = try await anchoredPage(in: store, of: type, anchor: anchor, limit: limit)
                    #expect(page.added.count + page.deleted.count <= limit)
                    if page.added.isEmpty && page.deleted.isEmpty { break }
                    for sample in page.added {
                        #expect(seen.insert(sample.uuid).inserted, "no sample is delivered twice")
                        everSeen.insert(sample.uuid)
                    }
                    for deleted in page.deleted {
                        #expect(deletions.insert(deleted.uuid).inserted, "no deletion is delivered twice")
                        seen.remove(deleted.uuid)
                    }
                    anchor = page.anchor
                    pages += 1
                    #expect(pages < 1_000)
                }
                #expect(seen == model.visible[type.identifier, default: []], "\(type.identifier)")
                #expect(everSeen.isSubset(of: model.visible[type.identifier, default: []].union(model.deleted)))
                #expect(deletions.isSubset(of: model.deleted))
            }
        }
    }

    @Test("A long-running query attached midway ends with the same visible objects (AQ-15, AQ-16)", arguments: [4, 5])
    func longRunningMidway(seed: UInt64) async throws {
        try await withTemporaryStore { store, _ in
            var random = SeededGenerator(seed: seed)
            var model = Model()
            try await Self.history(store, model: &model, count: 30, random: &random)
            let visible = Collector<(added: [UUID], deleted: [UUID])>()
            let query = HKAnchoredObjectQuery(type: stepType, predicate: nil, anchor: nil, limit: 0) {
                _,
                added,
                deleted,
                _,
                _ in
                visible.append(((added ?? []).map(\.uuid), (deleted ?? []).map(\.uuid)))
            }
            query.updateHandler = { _, added, deleted, _, _ in
                visible.append(((added ?? []).map(\.uuid), (deleted ?? []).map(\.uuid)))
            }
            store.execute(query)
            try await Self.history(store, model: &model, count: 30, random: &random)
            let expected = model.visible[stepType.identifier, default: []]
            func reconstructed() -> Set<UUID> {
                var seen = Set<UUID>()
                for change in visible.all {
                    seen.formUnion(change.added)
                    seen.subtract(change.deleted)
                }
                return seen
            }
            try await waitUntil("reconstructed() == expected") { reconstructed() == expected }
            #expect(reconstructed() == expected)
            store.stop(query)
        }
    }

    @Test("Rebuilding the indices from the log gives the same bytes")
    func rebuildMatches() async throws {
        try await withTemporaryStore { store, directory in
            var random = SeededGenerator(seed: 9)
            var model = Model()
            let app = HKSource(name: "App", bundleIdentifier: "com.example.app")
            try await store.setAuthorization(for: app, toShare: [stepType], read: [stepType], granted: true)
            try await Self.history(store, model: &model, count: 50, random: &random)
            try await store.save([food("a", kilocalories: 100, protein: 4), food("b", kilocalories: 900)])
            let run = HKWorkout(activityType: .running, start: minutes(0), end: minutes(30))
            try await store.save(run)
            try await store.addSamples([steps(5), steps(6)], to: run)
            let before = try indexDump(store)
            let replayed = try await store.engine().log.rebuildProjections()
            #expect(replayed > 50)
            #expect(try indexDump(store) == before)
            _ = directory
        }
    }

    @Test(
        "A date-range query reads index rows in proportion to its matches, not to the store, even beside a 10-year sample"
    )
    func indexReadsAreBounded() async throws {
        try await withTemporaryStore { store, _ in
            let total = 100_000
            var batch: [HKSample] = []
            for index in 0..<total {
                batch.append(steps(1, atMinute: Double(index)))
                if batch.count == 5_000 {
                    try await store.save(batch)
                    batch = []
                }
            }
            let engine = try await store.engine()
            let before = engine.counters.rowsRead
            let range = HKQuery.predicateForSamples(withStart: minutes(50_000), end: minutes(51_000))
            let found = try await samples(in: store, of: stepType, predicate: range)
            let read = engine.counters.rowsRead - before
            #expect(found.count == 1_001, "1,000 inside, plus the one ending exactly at the start (PRED-5)")
            #expect(read <= 1_010, "read \(read) index rows for 1,000 matches out of \(total)")

            // Samples of ten years and of three days, both reaching the range:
            // the search still reads about what it finds.
            let decade = HKQuantitySample(
                type: stepType,
                quantity: HKQuantity(unit: .count(), doubleValue: 3_652_000),
                start: minutes(-2_000_000),
                end: minutes(3_259_000)
            )
            let days = HKQuantitySample(
                type: stepType,
                quantity: HKQuantity(unit: .count(), doubleValue: 3),
                start: minutes(47_000),
                end: minutes(51_320)
            )
            try await store.save([decade, days])
            let again = engine.counters.rowsRead
            let beside = try await samples(in: store, of: stepType, predicate: range)
            let readBeside = engine.counters.rowsRead - again
            #expect(beside.count == 1_003)
            #expect(readBeside <= 1_020, "read \(readBeside) index rows for 1,003 matches out of \(total + 2)")
        }
    }
}

extension HKQuantitySample {
    /// A stand-in carrying only a uuid, for deleting by id in tests.
    convenience init(uuidOnly id: UUID) {
        self.init(
            type: stepType,
            quantity: HKQuantity(unit: .count(), doubleValue: 0),
            fields: SampleFields(start: day, end: day, uuid: id, sourceRevision: .local, device: nil, metadata: .empty)
        )
    }
}
