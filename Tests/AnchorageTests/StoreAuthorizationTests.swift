import AnchorageLog
import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

/// Authorization (section 7): principals, requests decided by the owner,
/// hidden read denial on every query kind.
@Suite("Store authorization")
struct StoreAuthorizationTests {
    let app = HKSource(name: "App", bundleIdentifier: "com.example.app")
    let other = HKSource(name: "Other", bundleIdentifier: "com.example.other")

    @Test("Requests are recorded and decided by the owner (AUTH-1, AUTH-3, AUTH-6, AUTH-11)")
    func requestsAndDecisions() async throws {
        try await withTemporaryStore { owner, directory in
            let store = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            defer { Task { await store.close() } }
            #expect(store.authorizationStatus(for: stepType) == .notDetermined)
            #expect(
                try await store.statusForAuthorizationRequest(toShare: [stepType], read: [stepType]) == .shouldRequest
            )
            try await store.requestAuthorization(toShare: [stepType], read: [stepType, heartRateType])
            #expect(store.authorizationStatus(for: stepType) == .notDetermined, "undecided")
            #expect(
                try await store.statusForAuthorizationRequest(toShare: [stepType], read: [stepType]) == .unnecessary
            )
            let pending = try owner.pendingAuthorizationRequests()
            #expect(pending.count == 1)
            #expect(pending.values.first?.share == [stepType])
            #expect(pending.values.first?.read == [stepType, heartRateType])
            await expectCode(.errorAuthorizationNotDetermined) { try await store.save(steps(1)) }
            try await owner.setAuthorization(for: app, toShare: [stepType], granted: true)
            #expect(store.authorizationStatus(for: stepType) == .sharingAuthorized)
            try await store.save(steps(1))
            try await owner.setAuthorization(for: app, toShare: [stepType], granted: false)
            #expect(store.authorizationStatus(for: stepType) == .sharingDenied)
            await expectCode(.errorAuthorizationDenied) { try await store.save(steps(2)) }
            await expectCode(.errorAuthorizationDenied) {
                try await store.setAuthorization(for: app, toShare: [stepType], granted: true)
            }
            #expect(owner.authorizationStatus(for: stepType) == .sharingAuthorized)
        }
    }

    @Test("Bad requests: nothing, correlation types, read-only types (AUTH-1, CQ-6, AUTH-8)")
    func badRequests() async throws {
        try await withTemporaryStore { _, directory in
            let store = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            await expectCode(.errorInvalidArgument) { try await store.requestAuthorization(toShare: nil, read: nil) }
            await expectCode(.errorInvalidArgument) {
                try await store.requestAuthorization(toShare: nil, read: [HKCorrelationType(.food)])
            }
            await expectCode(.errorInvalidArgument) {
                try await store.requestAuthorization(toShare: [HKQuantityType(.appleExerciseTime)], read: nil)
            }
            await store.close()
        }
    }

    @Test("Read denial is hidden: only the app's own samples, on every query kind (AUTH-4, AUTH-5, AUTH-7, SRC-2)")
    func hiddenReadDenial() async throws {
        var configuration = HKHealthStore.Configuration.forTests
        configuration.authorizationPolicy = .denyAll
        try await withTemporaryStore(configuration: configuration) {
            (owner: HKHealthStore, directory: URL) async throws in
            let store = HKHealthStore(directory: directory, principal: app, configuration: configuration)
            await expectCode(.errorAuthorizationNotDetermined) { try await samples(in: store, of: stepType) }
            try await store.requestAuthorization(toShare: [stepType], read: [stepType])
            try await owner.setAuthorization(for: app, toShare: [stepType], granted: true)
            try await owner.save(steps(1, atMinute: 0))
            try await store.save(steps(2, atMinute: 1))
            let visible = try await samples(in: store, of: stepType)
            #expect(visible.map { $0.sourceRevision.source.bundleIdentifier } == ["com.example.app"])
            let page = try await anchoredPage(in: store, of: stepType, anchor: nil)
            #expect(page.added.count == 1)
            #expect(try await store.sources(of: stepType).map(\.bundleIdentifier) == ["com.example.app"])
            try await owner.setAuthorization(for: app, read: [stepType], granted: true)
            #expect(try await samples(in: store, of: stepType).count == 2)
            try await owner.setAuthorization(for: app, toShare: [stepType], read: [stepType], granted: false)
            #expect(try await samples(in: store, of: stepType).isEmpty, "AUTH-5: no share, no read: nothing")
            await store.close()
        }
    }

    @Test("Correlations need share access to every member; readers see readable members only (CQ-4, CQ-5)")
    func correlationMembers() async throws {
        try await withTemporaryStore { owner, directory in
            let store = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            try await owner.setAuthorization(for: app, toShare: [energyType], read: [energyType], granted: true)
            await expectCode(.errorAuthorizationNotDetermined) {
                try await store.save(food("toast", kilocalories: 200, protein: 8))
            }
            #expect(try await samples(in: owner, of: energyType).isEmpty, "nothing of the failed save is stored")
            try await owner.save([
                food("toast", kilocalories: 200, protein: 8), food("tofu", kilocalories: nil, protein: 20),
            ])
            let seen = try await samples(in: store, of: HKCorrelationType(.food)).compactMap { $0 as? HKCorrelation }
            #expect(seen.count == 1, "a food with no readable member is hidden")
            #expect(seen.first?.objects.map(\.sampleType) == [energyType])
            let withProtein = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Int, any Error>) in
                store.execute(
                    HKCorrelationQuery(
                        type: HKCorrelationType(.food),
                        predicate: nil,
                        samplePredicates: [proteinType: HKQuery.predicateForSamples(withStart: nil, end: nil)]
                    ) { _, results, error in
                        if let error {
                            continuation.resume(throwing: error)
                        } else {
                            continuation.resume(returning: results?.count ?? 0)
                        }
                    }
                )
            }
            #expect(withProtein == 0, "hidden members do not match (CQ-5)")
            await store.close()
        }
    }
}

extension StoreAuthorizationTests {
    @Test("Characteristics: set by the owner, read per grant, notSet when denied (OBJ-28..30)")
    func characteristics() async throws {
        try await withTemporaryStore { (owner: HKHealthStore, directory: URL) async throws in
            var me = HKCharacteristics()
            me.bloodType = .oPositive
            me.biologicalSex = .female
            me.dateOfBirth = DateComponents(
                calendar: Calendar(identifier: .gregorian),
                era: 1,
                year: 1990,
                month: 4,
                day: 2
            )
            try await owner.setCharacteristics(me)
            #expect(try owner.bloodType().bloodType == .oPositive)
            #expect(try owner.dateOfBirthComponents().year == 1990)

            let store = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            await expectCode(.errorAuthorizationNotDetermined) { try store.bloodType() }
            await expectCode(.errorAuthorizationDenied) { try await store.setCharacteristics(me) }
            try await store.requestAuthorization(
                toShare: nil,
                read: [HKCharacteristicType(.bloodType), HKCharacteristicType(.biologicalSex)]
            )
            #expect(try store.bloodType().bloodType == .notSet, "undecided reads look unset (AUTH-4)")
            try await owner.setAuthorization(for: app, read: [HKCharacteristicType(.bloodType)], granted: true)
            try await owner.setAuthorization(for: app, read: [HKCharacteristicType(.biologicalSex)], granted: false)
            #expect(try store.bloodType().bloodType == .oPositive)
            #expect(try store.biologicalSex().biologicalSex == .notSet)
            await store.close()
        }
    }
}

extension StoreAuthorizationTests {
    @Test("An app deletes its own correlations; share grants of the members suffice (OBJ-34, CQ-4)")
    func deletingOwnCorrelation() async throws {
        try await withTemporaryStore { (owner: HKHealthStore, directory: URL) async throws in
            let store = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            try await owner.setAuthorization(
                for: app,
                toShare: [energyType, proteinType],
                read: [energyType],
                granted: true
            )
            let meal = food("bagel", kilocalories: 300, protein: 11)
            try await store.save(meal)
            try await store.delete(meal)
            #expect(try await samples(in: owner, of: HKCorrelationType(.food)).isEmpty)
            #expect(try await samples(in: owner, of: energyType).count == 1, "members stay (OBJ-36)")
            await store.close()
        }
    }
}

extension StoreAuthorizationTests {
    @Test("Deleting by uuid what the app cannot read deletes nothing and reveals nothing (AUTH-4, AUTH-5, OBJ-34)")
    func deletingWhatCannotBeRead() async throws {
        try await withTemporaryStore { (owner: HKHealthStore, directory: URL) async throws in
            let store = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            try await owner.setAuthorization(for: app, toShare: [stepType], granted: true)
            let pulse = heartRate(60)
            let walk = steps(100)
            let meal = food("bagel", kilocalories: 300)
            try await owner.save([pulse, walk, meal])
            // No grant for heart rate or the meal's energy; steps are shared only, so
            // the owner's are out of sight (AUTH-5): each is as if it did not exist.
            for hidden in [pulse.uuid, walk.uuid, meal.uuid] {
                #expect(try await store.deleteObjects(withUUIDs: [hidden]) == 0)
                #expect(try await store.deleteObjects(withUUIDs: [UUID()]) == 0)
            }
            // Once the app may read heart rate, the owner's reading is there, and not its to delete.
            try await owner.setAuthorization(for: app, read: [heartRateType], granted: true)
            await expectCode(.errorAuthorizationDenied) { _ = try await store.deleteObjects(withUUIDs: [pulse.uuid]) }
            #expect(try await samples(in: owner, of: heartRateType).count == 1)
            #expect(try await samples(in: owner, of: stepType).count == 1)
            #expect(try await samples(in: owner, of: HKCorrelationType(.food)).count == 1)
            #expect(try await owner.eventLog().checkProjections() == nil, "audit: the index equals a replay")
            await store.close()
        }
    }
}
