import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

@Suite("Medications and dose events in a store")
struct MedicationTests {
    static let reader = HKSource(name: "Reader", bundleIdentifier: "com.example.reader")

    /// Dose events of five medications, with many scheduled dates shared.
    static func doseEvents(seed: UInt64, count: Int) -> [HKMedicationDoseEvent] {
        var generator = ObjectGenerator(seed: seed)
        return (0..<count).map { _ in generator.medicationDoseEvent() }
    }

    static func query(_ store: HKHealthStore, _ predicate: NSPredicate?) async throws -> Set<UUID> {
        let found = try await HKSampleQueryDescriptor(
            predicates: [.sample(type: HKObjectType.medicationDoseEventType(), predicate: predicate)],
            sortDescriptors: []
        ).result(for: store)
        #expect(found.allSatisfy { $0 is HKMedicationDoseEvent })
        return Set(found.map(\.uuid))
    }

    @Test("MED-1: the seven dose event predicates find exactly what a plain filter of the saved events finds")
    func doseEventPredicates() async throws {
        try await withTemporaryStore { store, _ in
            let events = Self.doseEvents(seed: 9, count: 300)
            try await store.save(events)
            // Generated metadata carries sync identifiers: a later version
            // replaces an earlier one, so the reference filters what is visible.
            let visible = try await Self.query(store, nil)
            #expect(visible.count > 200 && visible.isSubset(of: Set(events.map(\.uuid))))
            func expected(_ keep: (HKMedicationDoseEvent) -> Bool) -> Set<UUID> {
                Set(events.filter { visible.contains($0.uuid) && keep($0) }.map(\.uuid))
            }
            let concept = events[0].medicationConceptIdentifier
            let concepts: Set = [events[1].medicationConceptIdentifier, events[2].medicationConceptIdentifier]
            #expect(
                try await Self.query(
                    store,
                    HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: concept)
                )
                    == expected { $0.medicationConceptIdentifier == concept }
            )
            #expect(
                try await Self.query(
                    store,
                    HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifiers: concepts)
                )
                    == expected { concepts.contains($0.medicationConceptIdentifier) }
            )
            let scheduled = events.compactMap(\.scheduledDate)
            let date = try #require(scheduled.first)
            #expect(
                try await Self.query(store, HKQuery.predicateForMedicationDoseEvent(scheduledDate: date))
                    == expected { $0.scheduledDate == date }
            )
            let dates = Set(scheduled.prefix(7))
            #expect(
                try await Self.query(store, HKQuery.predicateForMedicationDoseEvent(scheduledDates: dates))
                    == expected { $0.scheduledDate.map(dates.contains) ?? false }
            )
            let sorted = scheduled.sorted()
            let (start, end) = (sorted[sorted.count / 4], sorted[sorted.count / 2])
            #expect(
                try await Self.query(store, HKQuery.predicateForMedicationDoseEvent(scheduledStart: start, end: end))
                    == expected { $0.scheduledDate.map { start <= $0 && $0 < end } ?? false }
            )
            #expect(
                try await Self.query(store, HKQuery.predicateForMedicationDoseEvent(scheduledStart: nil, end: end))
                    == expected { $0.scheduledDate.map { $0 < end } ?? false }
            )
            #expect(
                try await Self.query(store, HKQuery.predicateForMedicationDoseEvent(status: .taken))
                    == expected { $0.logStatus == .taken }
            )
            let statuses: Set<NSNumber> = [NSNumber(value: 5), NSNumber(value: 6), NSNumber(value: 99)]
            #expect(
                try await Self.query(store, HKQuery.predicateForMedicationDoseEvent(statuses: statuses))
                    == expected { $0.logStatus == .skipped || $0.logStatus == .notLogged }
            )
            let both = NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForMedicationDoseEvent(status: .taken),
                HKQuery.predicateForMedicationDoseEvent(medicationConceptIdentifier: concept),
            ])
            #expect(
                try await Self.query(store, both)
                    == expected { $0.logStatus == .taken && $0.medicationConceptIdentifier == concept }
            )
            #expect(
                try await Self.query(store, HKQuery.predicateForUserAnnotatedMedications(isArchived: false)).isEmpty
            )
            let typed = try TextForms.sampleType("medicationDoseEvent")
            #expect(typed == HKObjectType.medicationDoseEventType())
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    static func medications() throws -> [HKUserAnnotatedMedication] {
        [
            try .stored(
                conceptCode: "197361",
                displayText: "Ibuprofen 200 mg",
                generalForm: .tablet,
                hasSchedule: true
            ),
            try .stored(
                conceptCode: "5640",
                displayText: "Insulin",
                generalForm: .injection,
                relatedCodings: [
                    HKClinicalCoding(system: "http://www.nlm.nih.gov/research/umls/rxnorm", version: nil, code: "5640")
                ],
                nickname: "Evening",
                hasSchedule: true
            ),
            try .stored(conceptCode: "161", displayText: "Paracetamol", generalForm: .capsule),
            try .stored(conceptCode: "36567", displayText: "Old cream", generalForm: .cream, isArchived: true),
        ]
    }

    @Test(
        "MED-2: medications are read one per call then done, or all at once; filtered, limited; a later save replaces"
    )
    func medicationQuery() async throws {
        try await withTemporaryStore { store, _ in
            #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store).isEmpty)
            let saved = try Self.medications()
            #expect(try await store.saveUserAnnotatedMedications(saved) == 4)
            #expect(try await store.saveUserAnnotatedMedications(saved) == 0, "nothing new")
            let all = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store)
            #expect(Set(all) == Set(saved))
            let active = try await HKUserAnnotatedMedicationQueryDescriptor(
                predicate: HKQuery.predicateForUserAnnotatedMedications(isArchived: false)
            ).result(for: store)
            #expect(Set(active.map(\.medication.displayText)) == ["Ibuprofen 200 mg", "Insulin", "Paracetamol"])
            let asNeeded = NSCompoundPredicate(andPredicateWithSubpredicates: [
                HKQuery.predicateForUserAnnotatedMedications(hasSchedule: false),
                HKQuery.predicateForUserAnnotatedMedications(isArchived: false),
            ])
            #expect(
                try await HKUserAnnotatedMedicationQueryDescriptor(predicate: asNeeded).result(for: store)
                    .map(\.medication.displayText) == ["Paracetamol"]
            )
            #expect(try await HKUserAnnotatedMedicationQueryDescriptor(limit: 2).result(for: store).count == 2)
            #expect(asNeeded.evaluate(with: saved[2]) && !asNeeded.evaluate(with: saved[0]))

            let calls = Collector<(String?, Bool)>()
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let query = HKUserAnnotatedMedicationQuery(
                    predicate: HKQuery.predicateForUserAnnotatedMedications(hasSchedule: true),
                    limit: HKObjectQueryNoLimit
                ) { _, medication, finished, error in
                    #expect(error == nil)
                    calls.append((medication?.medication.displayText, finished))
                    if finished { done.resume() }
                }
                store.execute(query)
            }
            #expect(calls.all.map(\.1) == [false, false, true])
            #expect(Set(calls.all.compactMap(\.0)) == ["Ibuprofen 200 mg", "Insulin"])
            #expect(calls.all.last?.0 == nil)

            let archived = try HKUserAnnotatedMedication.stored(
                conceptCode: "197361",
                displayText: "Ibuprofen 200 mg",
                generalForm: .tablet,
                isArchived: true,
                hasSchedule: true
            )
            #expect(try await store.saveUserAnnotatedMedications([archived]) == 1)
            let now = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store)
            #expect(now.count == 4)
            #expect(now.first { $0.medication.displayText == "Ibuprofen 200 mg" }?.isArchived == true)
            await expectCode(.errorInvalidArgument, rule: "PRED-14") {
                try await HKUserAnnotatedMedicationQueryDescriptor(
                    predicate: HKQuery.predicateForMedicationDoseEvent(status: .taken)
                ).result(for: store)
            }
            await expectCode(.errorInvalidArgument, rule: "MED-2") {
                try await store.saveUserAnnotatedMedications([saved[0], saved[0]])
            }
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test(
        "AUTH-12: apps never share dose events nor save medications; reading medications waits for the owner even under grantAll"
    )
    func authorization() async throws {
        var configuration = HKHealthStore.Configuration.forTests
        configuration.authorizationPolicy = .grantAll
        try await withTemporaryStore(configuration: configuration) { owner, directory in
            try await owner.saveUserAnnotatedMedications(try Self.medications())
            try await owner.save(Self.doseEvents(seed: 3, count: 5))
            let app = HKHealthStore(directory: directory, principal: Self.reader, configuration: configuration)
            let doses = HKObjectType.medicationDoseEventType()
            let medications = HKObjectType.userAnnotatedMedicationType()
            await expectCode(.errorInvalidArgument, rule: "AUTH-12") {
                try await app.requestAuthorization(toShare: [doses], read: [])
            }
            await expectCode(.errorInvalidArgument, rule: "AUTH-12") {
                try await owner.setAuthorization(for: Self.reader, toShare: [doses], granted: true)
            }
            await expectCode(.errorAuthorizationNotDetermined, rule: "AUTH-12") {
                try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app)
            }
            try await app.requestAuthorization(toShare: [], read: [doses, medications])
            #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).isEmpty, "not granted yet")
            #expect(try await Self.query(app, nil).isEmpty, "not granted yet")
            let event = Self.doseEvents(seed: 4, count: 1)[0]
            await expectCode(.errorAuthorizationNotDetermined) { try await app.save(event) }
            await expectCode(.errorAuthorizationDenied, rule: "MED-3") {
                try await app.saveUserAnnotatedMedications(try Self.medications())
            }
            try await owner.setAuthorization(for: Self.reader, read: [doses, medications], granted: true)
            #expect(try await HKUserAnnotatedMedicationQueryDescriptor().result(for: app).count == 4)
            #expect(try await Self.query(app, nil).count == 5)
            await app.close()
        }
    }

    @Test("WZ-1: a store holds no person's zones: nil for heart rate and cycling power, an error for other types")
    func preferredZones() async throws {
        try await withTemporaryStore { store, _ in
            let heartRate = try await store.preferredWorkoutZoneConfiguration(for: HKQuantityType(.heartRate))
            let power = try await store.preferredWorkoutZoneConfiguration(for: HKQuantityType(.cyclingPower))
            #expect(heartRate == nil && power == nil)
            await expectCode(.errorInvalidArgument, rule: "WZ-1") {
                try await store.preferredWorkoutZoneConfiguration(for: HKQuantityType(.stepCount))
            }
        }
    }
}
