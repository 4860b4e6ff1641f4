import AnchorageStoreTesting
import Foundation
import HealthKit
import Testing

/// Medication code written as HealthKit's documentation shows it: the
/// person's medications through the descriptor, then each one's dose
/// events through a sample query with a medication predicate.
@Suite("Ports: medications under import HealthKit")
struct MedicationsPortTests {
    /// A dose event as a service would send it (docs/json-format.md).
    static func doseEvent(_ uuid: String, code: String, at date: String, status: Int) throws -> HKSample {
        let json = """
            {"kind": "medicationDoseEvent", "uuid": "\(uuid)", "type": "HKMedicationDoseEventTypeIdentifierMedicationDoseEvent",
             "startDate": "\(date)", "endDate": "\(date)", "medicationConcept": {"domain": "medication", "code": "\(code)"},
             "scheduleType": 1, "doseQuantity": 1, "logStatus": \(status), "unit": "count"}
            """
        return try JSONDecoder().decode(HealthObject.self, from: Data(json.utf8)).object as! HKSample
    }

    @Test("MED-1, MED-2: medications and their taken doses read as the documentation shows")
    func medicationsAndDoses() async throws {
        try await withTemporaryStore { healthStore, _ in
            let insulin = try HKUserAnnotatedMedication.stored(
                conceptCode: "5640",
                displayText: "Insulin",
                generalForm: .injection,
                hasSchedule: false
            )
            _ = try await healthStore.saveUserAnnotatedMedications([insulin])
            try await healthStore.save([
                try Self.doseEvent(
                    "0D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B01",
                    code: "5640",
                    at: "2026-05-01T08:00:00Z",
                    status: 4
                ),
                try Self.doseEvent(
                    "0D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B02",
                    code: "5640",
                    at: "2026-05-01T20:00:00Z",
                    status: 5
                ),
                try Self.doseEvent(
                    "0D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B03",
                    code: "9999",
                    at: "2026-05-01T09:00:00Z",
                    status: 4
                ),
            ])

            // As in Apple's sample code: active medications, then each one's doses.
            let descriptor = HKUserAnnotatedMedicationQueryDescriptor(
                predicate: HKQuery.predicateForUserAnnotatedMedications(isArchived: false)
            )
            let medications = try await descriptor.result(for: healthStore)
            #expect(medications.map(\.medication.displayText) == ["Insulin"])
            var taken: [Date] = []
            for medication in medications {
                let forMedication = HKQuery.predicateForMedicationDoseEvent(
                    medicationConceptIdentifier: medication.medication.identifier
                )
                let wasTaken = HKQuery.predicateForMedicationDoseEvent(status: .taken)
                let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [forMedication, wasTaken])
                let doses = try await HKSampleQueryDescriptor(
                    predicates: [.sample(type: HealthKit.HKObjectType.medicationDoseEventType(), predicate: predicate)],
                    sortDescriptors: [SortDescriptor(\.startDate)]
                ).result(for: healthStore)
                taken += doses.compactMap { ($0 as? HKMedicationDoseEvent)?.startDate }
            }
            #expect(taken == [ISO8601DateFormatter().date(from: "2026-05-01T08:00:00Z")!])
        }
    }
}
