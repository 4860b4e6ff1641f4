import Foundation
import Testing

@testable import AnchorageModel

@Suite("Type names people type")
struct TypeNameTests {
    @Test(
        "the series, recording, questionnaire, prescription and clinical types by short name and by identifier",
        arguments: [
            ("workoutRoute", HKWorkoutRouteTypeIdentifier), ("heartbeatSeries", HKDataTypeIdentifierHeartbeatSeries),
            ("electrocardiogram", "HKDataTypeIdentifierElectrocardiogram"),
            ("audiogram", "HKDataTypeIdentifierAudiogram"),
            ("stateOfMind", HKDataTypeIdentifierStateOfMind), ("gad7", HKScoredAssessmentTypeIdentifier.GAD7.rawValue),
            ("phq9", HKScoredAssessmentTypeIdentifier.PHQ9.rawValue),
            ("visionPrescription", HKVisionPrescriptionTypeIdentifier),
            ("immunizationRecord", HKClinicalTypeIdentifier.immunizationRecord.rawValue),
            ("labResultRecord", HKClinicalTypeIdentifier.labResultRecord.rawValue),
            ("medicationDoseEvent", HKMedicationDoseEventTypeIdentifierMedicationDoseEvent),
        ]
    )
    func names(name: String, identifier: String) throws {
        #expect(try TextForms.sampleType(name).identifier == identifier)
        #expect(try TextForms.sampleType(identifier).identifier == identifier)
        #expect(TextForms.shortName(of: identifier) == name, "listings name the type as people type it")
    }

    @Test("quantity, category, correlation and workout identifiers shorten to the names people type")
    func shortNames() throws {
        for name in ["stepCount", "sleepAnalysis", "bloodPressure", "workout"] {
            #expect(TextForms.shortName(of: try TextForms.sampleType(name).identifier) == name)
        }
        #expect(TextForms.shortName(of: "HKSomethingNew") == "HKSomethingNew")
    }

    @Test("a name that is no type says what to write instead")
    func unknown() {
        #expect(throws: TextFormError.self) { try TextForms.sampleType("immunisationRecord") }
    }
}
