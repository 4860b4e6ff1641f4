public import AnchorageModel
import Foundation

extension ObjectGenerator {
    /// A medication concept identifier from a small pool, so that dose
    /// events share medications.
    public mutating func medicationConcept() -> HKHealthConceptIdentifier {
        try! HKHealthConceptIdentifier(domain: .medication, code: "rx" + String(int(1...40)))
    }

    /// A dose event: scheduled (with its date and dose) or as needed, of any
    /// log status, some without a logged dose, in a count or mass unit.
    public mutating func medicationDoseEvent() -> HKMedicationDoseEvent {
        let start = date()
        let scheduled = bool()
        let dose = HKMedicationDoseEvent.Dose(
            concept: medicationConcept(),
            scheduleType: scheduled ? .schedule : .asNeeded,
            scheduledDate: scheduled ? start.addingTimeInterval(double(-3_600...3_600)) : nil,
            scheduledDoseQuantity: scheduled ? Double(int(1...4)) : nil,
            doseQuantity: int(0...3) == 0 ? nil : double(0...500),
            logStatus: HKMedicationDoseEvent.LogStatus.allCases[int(0...5)],
            unit: [HKUnit.count(), .gramUnit(with: .milli), .literUnit(with: .milli)][int(0...2)]
        )
        return try! HKMedicationDoseEvent.make(dose, fields(start, 0))
    }

    /// A person's medication: any form, up to three codings, some with a
    /// nickname, archived or not, scheduled or not.
    public mutating func userAnnotatedMedication() -> HKUserAnnotatedMedication {
        let codings = (0..<int(0...3)).map { _ in
            HKClinicalCoding(
                system: ["http://www.nlm.nih.gov/research/umls/rxnorm", "http://snomed.info/sct"][int(0...1)],
                version: bool() ? "2026-0\(int(1...9))" : nil,
                code: String(int(1...999_999))
            )
        }
        return try! HKUserAnnotatedMedication(
            nickname: bool() ? text() : nil,
            isArchived: int(0...3) == 0,
            hasSchedule: bool(),
            medication: HKMedicationConcept(
                identifier: medicationConcept(),
                displayText: "Medication " + text(),
                generalForm: HKMedicationGeneralForm.all[int(0...HKMedicationGeneralForm.all.count - 1)],
                relatedCodings: Set(codings)
            )
        )
    }
}
