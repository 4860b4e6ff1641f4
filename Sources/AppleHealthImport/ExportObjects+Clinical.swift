import Anchorage
import Foundation

extension ExportObjects {
    /// What a `ClinicalRecord` element gave.
    enum ClinicalOutcome {
        case record(HKClinicalRecord)
        /// Its FHIR file is not in the export.
        case missingFile(String)
        case rejected(String)
    }

    /// A `ClinicalRecord type="Procedure" identifier= sourceName=
    /// sourceURL= fhirVersion="1.0.2" receivedDate= resourceFilePath=`
    /// element with its `clinical-records/*.json` FHIR file, as an
    /// ``HKClinicalRecord`` of the clinical type its FHIR type maps to,
    /// dated when it was received, named by the resource's own text.
    mutating func clinicalRecord(
        _ element: ExportElement,
        read: (String) throws(ImportError) -> [UInt8]?
    ) throws(ImportError) -> ClinicalOutcome {
        guard let typeText = element[.type], let path = element[.resourceFilePath] else {
            return .rejected("a clinical record without its type or resource file (CLIN-1)")
        }
        guard let bytes = try read(path) else { return .missingFile(path) }
        let json = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
        // `type` is the FHIR type (`Procedure`) or, in some exports, the
        // clinical type's identifier; the resource's own JSON names its type.
        let fhirType = (json?["resourceType"] as? String) ?? typeText
        let named = HKObjectType.clinicalType(forIdentifier: HKClinicalTypeIdentifier(rawValue: typeText))
        guard let clinicalType = named ?? Self.clinicalType(fhirType, json: json),
            let received = element.bytes(.receivedDate).flatMap(ExportDate.parse)
        else { return .rejected("a clinical record of an unknown type or without a received date (CLIN-1)") }
        let resourceID = element[.identifier] ?? (json?["id"] as? String) ?? path
        do {
            let resource = try HKFHIRResource(
                resourceType: HKFHIRResourceType(rawValue: fhirType),
                identifier: String(resourceID.prefix(1_000)),
                data: Data(bytes),
                sourceURL: element[.sourceURL].flatMap { URL(string: $0) },
                fhirVersion: try HKFHIRVersion(parsing: element[.fhirVersion] ?? "1.0.2")
            )
            let fields = try SampleFields.given(
                received,
                received,
                Self.derived(from: identifier(of: element, numbered: true), label: "clinical " + path),
                source(element),
                device(element),
                Self.metadata(element)
            )
            return .record(
                try HKClinicalRecord.make(
                    type: clinicalType,
                    displayName: String(Self.displayName(json, fallback: fhirType).prefix(1_000)),
                    resource: resource,
                    fields
                )
            )
        } catch {
            return .rejected(Self.reason(error))
        }
    }

    /// The clinical type a FHIR resource type is shown under in Health.
    static func clinicalType(_ fhirType: String, json: [String: Any]?) -> HKClinicalType? {
        let identifier: HKClinicalTypeIdentifier
        switch fhirType {
        case "AllergyIntolerance": identifier = .allergyRecord
        case "Condition": identifier = .conditionRecord
        case "Coverage": identifier = .coverageRecord
        case "Immunization": identifier = .immunizationRecord
        case "Procedure": identifier = .procedureRecord
        case "DocumentReference": identifier = .clinicalNoteRecord
        case "DiagnosticReport": identifier = .labResultRecord
        case "MedicationStatement", "MedicationOrder", "MedicationRequest", "MedicationDispense":
            identifier = .medicationRecord
        case "Observation":
            // Vital signs by their FHIR category; other observations are lab results.
            let text = String(describing: json?["category"] ?? "")
            identifier = text.contains("vital-signs") ? .vitalSignRecord : .labResultRecord
        default: return nil
        }
        return HKObjectType.clinicalType(forIdentifier: identifier)
    }

    /// The text a FHIR resource names itself by: its `code`, vaccine or
    /// medication's `text`, else its type.
    static func displayName(_ json: [String: Any]?, fallback: String) -> String {
        for key in ["code", "vaccineCode", "medicationCodeableConcept", "type"] {
            if let concept = json?[key] as? [String: Any], let text = concept["text"] as? String, !text.isEmpty {
                return text
            }
        }
        return fallback
    }
}
