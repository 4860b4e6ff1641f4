import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

/// HKHealthStore on the log: the seed listings and the mutation rules (§1.9).
@Suite("Store")
struct StoreTests {
    @Test("Seed listing: the anchored step-count loop (AQ-5, AQ-6, AQ-3)")
    func anchoredStepCountLoop() async throws {
        try await withTemporaryStore { store, _ in
            try await store.save([steps(100, atMinute: 0), steps(200, atMinute: 1), steps(300, atMinute: 2)])
            // As in HealthKit: nil anchor first, keep the returned anchor.
            let anchorBox = Collector<HKQueryAnchor?>()
            let seen = Collector<Double>()
            func runQuery(anchor: HKQueryAnchor?) async {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    let stepCountType = HKObjectType.quantityType(forIdentifier: .stepCount)!
                    let query = HKAnchoredObjectQuery(
                        type: stepCountType,
                        predicate: nil,
                        anchor: anchor,
                        limit: HKObjectQueryNoLimit
                    ) { query, samplesOrNil, deletedObjectsOrNil, newAnchor, errorOrNil in
                        guard let samples = samplesOrNil as? [HKQuantitySample], errorOrNil == nil else {
                            done.resume()
                            return
                        }
                        anchorBox.append(newAnchor)
                        for sample in samples { seen.append(sample.quantity.doubleValue(for: .count())) }
                        done.resume()
                    }
                    store.execute(query)
                }
            }
            await runQuery(anchor: nil)
            #expect(seen.all == [100, 200, 300])
            try await store.save([steps(400, atMinute: 3), steps(500, atMinute: 4)])
            await runQuery(anchor: anchorBox.all.last!)
            #expect(seen.all == [100, 200, 300, 400, 500], "the second run sees only the new samples")
            await runQuery(anchor: anchorBox.all.last!)
            #expect(seen.count == 5)
            #expect(anchorBox.all[2] == anchorBox.all[1], "nothing changed: the anchor is echoed (AQ-10)")
        }
    }

    @Test("Seed listing: high-calorie foods, energy ≥ 800 kcal (CQ-2, CQ-3)")
    func highCalorieFoods() async throws {
        try await withTemporaryStore { store, _ in
            let foods = [
                food("pizza", kilocalories: 900, protein: 30),
                food("salad", kilocalories: 350, protein: 5),
                food("feast", kilocalories: 1_200),
                food("shake", kilocalories: nil, protein: 40),
            ]
            try await store.save(foods)
            let found = Collector<String>()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let highCalorie = HKQuery.predicateForQuantitySamples(
                    with: .greaterThanOrEqualTo,
                    quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 800)
                )
                let query = HKCorrelationQuery(
                    type: HKObjectType.correlationType(forIdentifier: .food)!,
                    predicate: nil,
                    samplePredicates: [HKObjectType.quantityType(forIdentifier: .dietaryEnergyConsumed)!: highCalorie]
                ) { query, results, error in
                    for food in results ?? [] { found.append(food.metadata?[HKMetadataKeyFoodType] as? String ?? "?") }
                    done.resume()
                }
                store.execute(query)
            }
            #expect(found.all.sorted() == ["feast", "pizza"])
        }
    }

    @Test("Saving an existing uuid fails and stores nothing of the call (OBJ-31, OBJ-32)")
    func duplicateUUID() async throws {
        try await withTemporaryStore { store, _ in
            let first = steps(10)
            try await store.save(first)
            let fresh = steps(20, atMinute: 5)
            await expectCode(.errorInvalidArgument) { try await store.save([fresh, first]) }
            #expect(try await samples(in: store, of: stepType).map(\.uuid) == [first.uuid])
            await expectCode(.errorInvalidArgument) { try await store.save([fresh, fresh]) }
            await expectCode(.errorInvalidArgument) { try await store.save([HKObject]()) }
            try await store.save(fresh)
            #expect(try await samples(in: store, of: stepType).count == 2, "the store stays usable")
        }
    }

    @Test("Sync identifiers replace lower versions and ignore others (OBJ-33, AQ-13)")
    func syncIdentifiers() async throws {
        try await withTemporaryStore { store, _ in
            func versioned(_ count: Double, _ version: Int) -> HKQuantitySample {
                steps(count, metadata: [HKMetadataKeySyncIdentifier: "walk-1", HKMetadataKeySyncVersion: version])
            }
            let v1 = versioned(100, 1)
            try await store.save(v1)
            let start = try await anchoredPage(in: store, of: stepType, anchor: nil)
            let v2 = versioned(150, 2)
            try await store.save(v2)
            try await store.save(versioned(90, 1))
            try await store.save(versioned(95, 2))
            let visible = try await samples(in: store, of: stepType)
            #expect(visible.map(\.uuid) == [v2.uuid])
            let page = try await anchoredPage(in: store, of: stepType, anchor: start.anchor)
            #expect(page.deleted.map(\.uuid) == [v1.uuid])
            #expect(page.deleted.first?.metadata?[HKMetadataKeySyncIdentifier] as? String == "walk-1")
            #expect(page.added.map(\.uuid) == [v2.uuid])
        }
    }

    @Test("A replacement joins the replaced sample's workouts and correlation (OBJ-33)")
    func replacementKeepsLinks() async throws {
        try await withTemporaryStore { store, _ in
            let run = HKWorkout(activityType: .running, start: minutes(0), end: minutes(30))
            try await store.save(run)
            let old = steps(100, metadata: [HKMetadataKeySyncIdentifier: "s", HKMetadataKeySyncVersion: 1])
            try await store.addSamples([old], to: run)
            let new = steps(120, metadata: [HKMetadataKeySyncIdentifier: "s", HKMetadataKeySyncVersion: 2])
            try await store.save(new)
            let linked = try await samples(in: store, of: stepType, predicate: HKQuery.predicateForObjects(from: run))
            #expect(linked.map(\.uuid) == [new.uuid])
        }
    }

    @Test("Deleting: idempotent, never empty, own objects only (OBJ-34, OBJ-35)")
    func deleting() async throws {
        try await withTemporaryStore { store, directory in
            let a = steps(1, atMinute: 0)
            let b = steps(2, atMinute: 10)
            let c = steps(3, atMinute: 20)
            try await store.save([a, b, c])
            try await store.delete(a)
            try await store.delete(a)
            await expectCode(.errorInvalidArgument) { try await store.delete([HKObject]()) }
            let page = try await anchoredPage(in: store, of: stepType, anchor: nil)
            #expect(page.deleted.map(\.uuid) == [a.uuid], "a repeated delete adds no tombstone")

            let app = HKSource(name: "App", bundleIdentifier: "com.example.app")
            try await store.setAuthorization(for: app, toShare: [stepType], read: [stepType], granted: true)
            let appStore = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            let own = steps(4, atMinute: 30)
            try await appStore.save(own)
            await expectCode(.errorAuthorizationDenied) { try await appStore.delete(b) }
            let everything = HKQuery.predicateForSamples(withStart: nil, end: nil)
            #expect(try await appStore.deleteObjects(of: stepType, predicate: everything) == 1)
            #expect(try await store.deleteObjects(of: stepType, predicate: everything) == 2)
            #expect(try await samples(in: store, of: stepType).isEmpty)
            await appStore.close()
        }
    }

    @Test("Deleting a correlation keeps its members, which lose the link (OBJ-36, OBJ-20)")
    func deletingCorrelation() async throws {
        try await withTemporaryStore { store, _ in
            let meal = food("soup", kilocalories: 300, protein: 12)
            let loose = HKQuantitySample(
                type: energyType,
                quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 50),
                start: minutes(5),
                end: minutes(5)
            )
            try await store.save([meal, loose])
            let noCorrelation = HKQuery.predicateForObjectsWithNoCorrelation()
            #expect(try await samples(in: store, of: energyType, predicate: noCorrelation).map(\.uuid) == [loose.uuid])
            try await store.delete(meal)
            #expect(try await samples(in: store, of: energyType).count == 2)
            #expect(try await samples(in: store, of: energyType, predicate: noCorrelation).count == 2)
            #expect(try await samples(in: store, of: HKCorrelationType(.food)).isEmpty)
        }
    }

    @Test("Deleting a member hides it from its correlation (OBJ-36, AQ-14)")
    func deletingMember() async throws {
        try await withTemporaryStore { store, _ in
            let meal = food("stew", kilocalories: 500, protein: 20)
            try await store.save(meal)
            let protein = meal.objects(for: proteinType).first!
            try await store.delete(protein)
            let stored = try await samples(in: store, of: HKCorrelationType(.food)).first as? HKCorrelation
            #expect(stored?.objects.map(\.sampleType) == [energyType])
        }
    }

    @Test("Workouts: add(_:to:) links and saves; deleting the workout keeps the samples (OBJ-24, OBJ-25)")
    func workouts() async throws {
        try await withTemporaryStore { store, _ in
            let run = HKWorkout(activityType: .running, start: minutes(0), end: minutes(30))
            let unsaved = HKWorkout(activityType: .walking, start: minutes(40), end: minutes(50))
            await expectCode(.errorInvalidArgument) { try await store.addSamples([steps(1)], to: run) }
            try await store.save(run)
            let before = steps(10, atMinute: 1)
            try await store.save(before)
            let during = steps(20, atMinute: 2)
            try await store.addSamples([before, during], to: run)
            let linked = HKQuery.predicateForObjects(from: run)
            #expect(
                Set(try await samples(in: store, of: stepType, predicate: linked).map(\.uuid)) == [
                    before.uuid, during.uuid,
                ]
            )
            await expectCode(.errorInvalidArgument) { try await store.addSamples([steps(3)], to: unsaved) }
            try await store.delete(run)
            #expect(try await samples(in: store, of: stepType).count == 2)
            #expect(try await samples(in: store, of: stepType, predicate: linked).isEmpty)
        }
    }

    @Test("Samples ending before the earliest permitted date are refused (OBJ-9)")
    func earliestPermittedDate() async throws {
        var configuration = HKHealthStore.Configuration.forTests
        configuration.earliestPermittedSampleDate = minutes(10)
        try await withTemporaryStore(configuration: configuration) { (store: HKHealthStore, _: URL) async throws in
            #expect(store.earliestPermittedSampleDate() == minutes(10))
            await expectCode(.errorInvalidArgument) {
                try await store.save([steps(1, atMinute: 20), steps(2, atMinute: 0)])
            }
            #expect(try await samples(in: store, of: stepType).isEmpty)
        }
    }

    @Test("One engine per directory; an unopenable store reports errorDatabaseInaccessible")
    func opening() async throws {
        try await withTemporaryStore { store, directory in
            let second = HKHealthStore(directory: directory, configuration: .forTests)
            #expect(try await second.engine() === store.engine())
            try await second.save(steps(5))
            #expect(try await samples(in: store, of: stepType).count == 1)
            await second.close()
            #expect(try await samples(in: store, of: stepType).count == 1, "the first handle keeps the store open")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-file-\(UUID().uuidString)")
        try Data("not a directory".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let broken = HKHealthStore(directory: file)
        #expect(broken.openError?.code == .errorDatabaseInaccessible)
        await expectCode(.errorDatabaseInaccessible) { try await broken.save(steps(1)) }
        await expectCode(.errorDatabaseInaccessible) { _ = try await samples(in: broken, of: stepType) }
    }
}

extension StoreTests {
    @Test("Closing releases the store: it reopens with its data, and a closed handle reports errorDatabaseInaccessible")
    func closeAndReopen() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "anchorage-reopen-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = HKHealthStore(directory: directory, configuration: .forTests)
        let sample = steps(42)
        try await first.save(sample)
        await first.close()
        await expectCode(.errorDatabaseInaccessible) { try await first.save(steps(1)) }
        let second = HKHealthStore(directory: directory, configuration: .forTests)
        #expect(try await samples(in: second, of: stepType).map(\.uuid) == [sample.uuid])
        await second.close()
    }
}

extension StoreTests {
    @Test("A store another opener holds reports errorDatabaseInaccessible, saying it is in use")
    func inUse() async throws {
        try await withTemporaryStore { (store: HKHealthStore, directory: URL) async throws in
            try await store.save(steps(1))
            // A second path to the same directory is a second opener, as another process would be.
            let link = directory.deletingLastPathComponent().appendingPathComponent(
                "anchorage-link-\(UUID().uuidString)"
            )
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
            defer { try? FileManager.default.removeItem(at: link) }
            let other = HKHealthStore(directory: link, configuration: .forTests)
            #expect(other.openError?.code == .errorDatabaseInaccessible)
            #expect(other.openError?.message.contains("in use") == true)
            await expectCode(.errorDatabaseInaccessible) { try await other.save(steps(2)) }
            #expect(try await samples(in: store, of: stepType).count == 1, "the holder is unaffected")
        }
    }
}

extension StoreTests {
    @Test("Completion-handler forms report the same outcomes as the async forms (OBJ-31, OBJ-34, OBJ-35)")
    func completionForms() async throws {
        try await withTemporaryStore { store, _ in
            let sample = steps(3)
            let saved = await withCheckedContinuation { continuation in
                store.save(sample) { success, error in continuation.resume(returning: (success, error == nil)) }
            }
            #expect(saved == (true, true))
            let again = await withCheckedContinuation { continuation in
                store.save(sample) { success, error in
                    continuation.resume(returning: (success, (error as? HKError)?.code))
                }
            }
            #expect(again == (false, .errorInvalidArgument))
            let counted = await withCheckedContinuation { continuation in
                store.deleteObjects(of: stepType, predicate: HKQuery.predicateForObject(with: sample.uuid)) {
                    success,
                    count,
                    _ in continuation.resume(returning: (success, count))
                }
            }
            #expect(counted == (true, 1))
            let emptyDelete = await withCheckedContinuation { continuation in
                store.delete([HKObject]()) { success, error in
                    continuation.resume(returning: (success, (error as? HKError)?.code))
                }
            }
            #expect(emptyDelete == (false, .errorInvalidArgument))
        }
    }
}

extension StoreTests {
    @Test("Concurrent saves of one new uuid: exactly one succeeds, the others fail whole (OBJ-32, OBJ-31)")
    func concurrentDuplicates() async throws {
        try await withTemporaryStore { store, _ in
            let contested = steps(7, atMinute: 1)
            let outcomes = try await withThrowingTaskGroup(of: (Bool, HKError.Code?).self) { group in
                for index in 0..<16 {
                    group.addTask {
                        do {
                            // Each call also saves a sample of its own, which must not survive a failure.
                            try await store.save([steps(Double(index), atMinute: Double(100 + index)), contested])
                            return (true, nil)
                        } catch let error as HKError {
                            return (false, error.code)
                        }
                    }
                }
                var outcomes: [(Bool, HKError.Code?)] = []
                for try await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            #expect(outcomes.filter(\.0).count == 1)
            #expect(outcomes.filter { !$0.0 }.allSatisfy { $0.1 == .errorInvalidArgument })
            #expect(
                try await samples(in: store, of: stepType).count == 2,
                "the winner's two samples, nothing of the others"
            )
        }
    }
}
