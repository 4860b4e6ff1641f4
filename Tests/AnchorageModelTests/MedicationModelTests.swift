import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

@Suite("Medication dose events and medications", .ownThread)
struct MedicationModelTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// A dose event's JSON with `changes` applied to a valid scheduled one.
    static func json(_ changes: [String: Any?] = [:]) -> Data {
        var object: [String: Any] = [
            "kind": "medicationDoseEvent", "uuid": "6F1C2B8E-3D4A-4F5B-9C6D-7E8F9A0B1C2D",
            "type": HKMedicationDoseEventTypeIdentifierMedicationDoseEvent,
            "startDate": "2026-11-20T08:00:00Z", "endDate": "2026-11-20T08:00:00Z",
            "medicationConcept": ["domain": "medication", "code": "197361"],
            "scheduleType": 2, "scheduledDate": "2026-11-20T08:00:00Z", "scheduledDoseQuantity": 1.0,
            "doseQuantity": 1.0, "logStatus": 4, "unit": "count",
        ]
        for (key, value) in changes { object[key] = value }
        return try! JSONSerialization.data(withJSONObject: object)
    }

    static func decode(_ data: Data) throws -> HKObject {
        try JSONDecoder().decode(HealthObject.self, from: data).object
    }

    @Test("MED-1: a valid dose event reads from JSON with HealthKit's raw values and writes back the same")
    func documentedShape() throws {
        let event = try #require(try Self.decode(Self.json()) as? HKMedicationDoseEvent)
        #expect(event.scheduleType == .schedule)
        #expect(event.logStatus == .taken)
        #expect(event.scheduledDoseQuantity == 1)
        #expect(event.unit == .count())
        #expect(event.medicationConceptIdentifier.domain == .medication)
        #expect(event.medicationDoseEventType == HKObjectType.medicationDoseEventType())
        let again = try #require(
            try Self.decode(try Self.encoder.encode(HealthObject(event))) as? HKMedicationDoseEvent
        )
        #expect(identical(event, again))
        let asNeeded = try Self.decode(
            Self.json(["scheduleType": 1, "scheduledDate": nil, "scheduledDoseQuantity": nil, "doseQuantity": nil])
        )
        #expect((asNeeded as? HKMedicationDoseEvent)?.scheduledDate == nil)
        #expect((asNeeded as? HKMedicationDoseEvent)?.doseQuantity == nil)
    }

    /// Invalid changes to a valid dose event, and words the error says.
    static func invalidCases() -> [([String: Any?], String)] {
        [
            (["scheduledDate": nil], "scheduledDate"),
            (["scheduledDoseQuantity": nil], "scheduledDoseQuantity"),
            (["scheduleType": 1], "as-needed"),
            (["scheduleType": 1, "scheduledDate": nil], "as-needed"),
            (["doseQuantity": -2.75], "doseQuantity"),
            (["scheduledDoseQuantity": -9.25], "scheduledDoseQuantity"),
            (["scheduleType": 3], "schedule type"),
            (["logStatus": 7], "log status"),
            (["medicationConcept": ["domain": "medication", "code": ""]], "concept"),
        ]
    }

    @Test(
        "MED-1: scheduled dates and doses exactly for scheduled events, finite non-negative quantities; typed errors without the values",
        arguments: 0..<9
    )
    func validation(index: Int) throws {
        let (changes, words) = Self.invalidCases()[index]
        do {
            _ = try Self.decode(Self.json(changes))
            Issue.record("decoded an invalid dose event: \(changes)")
        } catch let error as HKError {
            #expect(error.rule == "MED-1", "\(error)")
            #expect(error.code == .errorInvalidArgument)
            #expect(error.message.contains(words), "\(error.message)")
            #expect(!error.message.contains("2.75") && !error.message.contains("9.25"), "no health values")
        }
    }

    @Test("MED-1: the payload decoder refuses a dose event whose quantity is not finite")
    func payloadRefusesNaN() throws {
        var generator = ObjectGenerator(seed: 5)
        var event = generator.medicationDoseEvent()
        while event.doseQuantity == nil { event = generator.medicationDoseEvent() }
        var bytes = PayloadCodec.encode(event)
        // The dose is the last double before the unit block (a length then the unit's text).
        let unit = Array(event.unit.storage.utf8)
        let doseAt = bytes.count - unit.count - 1 - 8
        withUnsafeBytes(of: Double.nan.bitPattern.littleEndian) { nan in
            bytes.replaceSubrange(doseAt..<doseAt + 8, with: nan)
        }
        #expect(throws: HKError.self) { try PayloadCodec.decode(bytes) }
        do {
            _ = try PayloadCodec.decode(bytes)
        } catch {
            #expect(error.rule == "MED-1")
        }
    }

    @Test("generated dose events round-trip through the payload (kind 14) and JSON, field for field")
    func roundTrip() throws {
        var generator = ObjectGenerator(seed: 14)
        var decoder = PayloadDecoder()
        for _ in 0..<400 {
            let event = generator.medicationDoseEvent()
            let bytes = PayloadCodec.encode(event)
            #expect(bytes[1] == 14)
            #expect(identical(event, try decoder.decode(bytes)))
            let json = try Self.encoder.encode(HealthObject(event))
            let back = try Self.decode(json)
            #expect(identical(event, back), "\(String(decoding: json, as: UTF8.self))")
            #expect(try Self.encoder.encode(HealthObject(back)) == json)
        }
    }

    @Test("MED-2: medications round-trip through their stored JSON; limits are typed errors")
    func medicationRecords() throws {
        var generator = ObjectGenerator(seed: 26)
        for _ in 0..<200 {
            let medication = generator.userAnnotatedMedication()
            let bytes = try UserAnnotatedMedicationJSON(medication).encoded()
            let back = try #require(bytes.withUnsafeBytes { UserAnnotatedMedicationJSON.decoded($0) })
            #expect(back == medication)
            #expect(try UserAnnotatedMedicationJSON(back).encoded() == bytes)
        }
        #expect(throws: HKError.self) {
            try HKUserAnnotatedMedication.stored(conceptCode: "1", displayText: "", generalForm: .tablet)
        }
        #expect(throws: HKError.self) {
            try HKUserAnnotatedMedication.stored(
                conceptCode: "1",
                displayText: "Ibuprofen",
                generalForm: .tablet,
                nickname: String(repeating: "n", count: 1_001)
            )
        }
        #expect(throws: HKError.self) {
            try HKUserAnnotatedMedication.stored(conceptCode: "", displayText: "Ibuprofen", generalForm: .tablet)
        }
        let coding = HKClinicalCoding(system: "http://snomed.info/sct", version: nil, code: "387207008")
        #expect(coding == HKClinicalCoding(system: "http://snomed.info/sct", version: nil, code: "387207008"))
        #expect(coding != HKClinicalCoding(system: "http://snomed.info/sct", version: "2026", code: "387207008"))
    }

    @Test("medication conditions keep their meaning through their JSON form")
    func conditionCoding() throws {
        let concept = try HKHealthConceptIdentifier(domain: .medication, code: "197361")
        let conditions: [ObjectPredicate] = [
            .medication(.conceptIn([concept])),
            .medication(.scheduledDateIn([Date(timeIntervalSinceReferenceDate: 800_000_000.25)])),
            .medication(.scheduledRange(start: Date(timeIntervalSinceReferenceDate: 1), end: nil)),
            .medication(.statusIn([.taken, .skipped])),
            .and([.medication(.hasSchedule(true)), .not(.medication(.isArchived(true)))]),
        ]
        for condition in conditions {
            let json = try Self.encoder.encode(condition)
            #expect(try JSONDecoder().decode(ObjectPredicate.self, from: json) == condition)
        }
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(ObjectPredicate.self, from: Data(#"{"medication": {"statusIn": [9]}}"#.utf8))
        }
        #expect(conditions[4].isMedicationPredicate)
        #expect(!conditions[0].isMedicationPredicate)
    }

    @Test("WZ-1: zones from boundaries: one more zone than boundaries, contiguous, zero-based, source .app")
    func zones() throws {
        let bpm = HKUnit.count().unitDivided(by: .minute())
        let boundaries = [120.0, 140, 160].map { HKQuantity(unit: bpm, doubleValue: $0) }
        let configuration = try HKWorkoutZoneConfiguration(
            quantityType: HKQuantityType(.heartRate),
            zoneBoundaries: boundaries
        )
        #expect(configuration.source == .app)
        #expect(configuration.quantityType == HKQuantityType(.heartRate))
        #expect(configuration.zones.map(\.index) == [0, 1, 2, 3])
        #expect(configuration.zones.first?.minimum == nil)
        #expect(configuration.zones.last?.maximum == nil)
        for (lower, upper) in zip(configuration.zones, configuration.zones.dropFirst()) {
            #expect(lower.maximum == upper.minimum)
        }
        let hertz = HKUnit.count().unitDivided(by: .second())
        #expect(configuration.zone(of: HKQuantity(unit: bpm, doubleValue: 140))?.index == 2)
        #expect(configuration.zone(of: HKQuantity(unit: hertz, doubleValue: 2))?.index == 1, "120 bpm is zone 1")
        let power = try HKWorkoutZoneConfiguration(
            quantityType: HKQuantityType(.cyclingPower),
            zoneBoundaries: [HKQuantity(unit: .watt(), doubleValue: 200)]
        )
        #expect(power.zones.count == 2)
    }

    @Test(
        "WZ-1: the type must be heart rate or cycling power; boundaries compatible, finite, strictly increasing",
        arguments: [
            (HKQuantityTypeIdentifier.stepCount, [100.0], "count/min"),
            (.heartRate, [], "count/min"),
            (.heartRate, [120, 120], "count/min"),
            (.heartRate, [140, 120], "count/min"),
            (.heartRate, [120, .infinity], "count/min"),
            (.heartRate, [120], "W"),
        ] as [(HKQuantityTypeIdentifier, [Double], String)]
    )
    func zoneValidation(type: HKQuantityTypeIdentifier, values: [Double], unit: String) {
        do {
            _ = try HKWorkoutZoneConfiguration(
                quantityType: HKQuantityType(type),
                zoneBoundaries: values.map { HKQuantity(unit: HKUnit(from: unit), doubleValue: $0) }
            )
            Issue.record("accepted \(type.rawValue) \(values)")
        } catch let error as HKError {
            #expect(error.rule == "WZ-1")
            #expect(error.code == .errorInvalidArgument)
        } catch {
            Issue.record("untyped error \(error)")
        }
    }
}
