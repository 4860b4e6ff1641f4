import Foundation

/// A health concept identifier in JSON: `{"domain": "medication", "code": "197361"}`.
package struct ConceptIdentifierJSON: Codable, Sendable, Hashable {
    var domain: String
    var code: String

    package init(_ identifier: HKHealthConceptIdentifier) {
        domain = identifier.domain.rawValue
        code = identifier.code
    }

    package func identifier() throws(HKError) -> HKHealthConceptIdentifier {
        try HKHealthConceptIdentifier(domain: HKHealthConceptDomain(rawValue: domain), code: code)
    }
}

/// A clinical coding in JSON: `{"system": "http://…/rxnorm", "version": "2026-01", "code": "197361"}`.
package struct ClinicalCodingJSON: Codable, Sendable, Hashable, Comparable {
    var system: String
    var version: String?
    var code: String

    package init(_ coding: HKClinicalCoding) {
        system = coding.system
        version = coding.version
        code = coding.code
    }

    package static func < (lhs: ClinicalCodingJSON, rhs: ClinicalCodingJSON) -> Bool {
        (lhs.system, lhs.code, lhs.version ?? "") < (rhs.system, rhs.code, rhs.version ?? "")
    }
}

/// A person's medication in JSON, the form the log stores (sorted keys,
/// codings in order) and the API sends (docs/json-format.md):
///
/// ```json
/// {"medication": {"identifier": {"domain": "medication", "code": "197361"}, "displayText": "Ibuprofen 200 mg",
///                 "generalForm": "tablet", "relatedCodings": [{"system": "http://www.nlm.nih.gov/research/umls/rxnorm",
///                 "code": "197361"}]},
///  "nickname": "For my back", "isArchived": false, "hasSchedule": true}
/// ```
package struct UserAnnotatedMedicationJSON: Codable, Sendable, Hashable {
    package struct Concept: Codable, Sendable, Hashable {
        var identifier: ConceptIdentifierJSON
        var displayText: String
        var generalForm: String
        var relatedCodings: [ClinicalCodingJSON]?
    }

    var medication: Concept
    var nickname: String?
    var isArchived: Bool
    var hasSchedule: Bool

    package init(_ annotated: HKUserAnnotatedMedication) {
        let concept = annotated.medication
        let codings = concept.relatedCodings.map(ClinicalCodingJSON.init).sorted()
        medication = Concept(
            identifier: ConceptIdentifierJSON(concept.identifier),
            displayText: concept.displayText,
            generalForm: concept.generalForm.rawValue,
            relatedCodings: codings.isEmpty ? nil : codings
        )
        nickname = annotated.nickname
        isArchived = annotated.isArchived
        hasSchedule = annotated.hasSchedule
    }

    /// The medication, checked (MED-1, MED-2).
    package func annotated() throws(HKError) -> HKUserAnnotatedMedication {
        let codings = medication.relatedCodings ?? []
        guard codings.count <= 64 else { throw .invalid("MED-2", "a medication has at most 64 related codings") }
        return try HKUserAnnotatedMedication(
            nickname: nickname,
            isArchived: isArchived,
            hasSchedule: hasSchedule,
            medication: HKMedicationConcept(
                identifier: try medication.identifier.identifier(),
                displayText: medication.displayText,
                generalForm: HKMedicationGeneralForm(rawValue: medication.generalForm),
                relatedCodings: Set(
                    codings.map { HKClinicalCoding(system: $0.system, version: $0.version, code: $0.code) }
                )
            )
        )
    }

    /// The bytes the log stores: JSON with sorted keys.
    package func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(self))
    }

    /// The medication in `bytes`, or `nil` when they are not a valid one.
    package static func decoded(_ bytes: UnsafeRawBufferPointer) -> HKUserAnnotatedMedication? {
        guard let json = try? JSONDecoder().decode(UserAnnotatedMedicationJSON.self, from: Data(bytes)) else {
            return nil
        }
        return try? json.annotated()
    }
}

extension HealthObject {
    /// Writes a dose event's own fields.
    package static func encodeDoseEvent(
        _ event: HKMedicationDoseEvent,
        into container: inout KeyedEncodingContainer<CodingKeys>
    ) throws {
        try container.encode(ConceptIdentifierJSON(event.medicationConceptIdentifier), forKey: .medicationConcept)
        try container.encode(event.scheduleType.rawValue, forKey: .scheduleType)
        try container.encodeIfPresent(event.scheduledDate.map(ISO8601.format), forKey: .scheduledDate)
        try container.encodeIfPresent(event.scheduledDoseQuantity, forKey: .scheduledDoseQuantity)
        try container.encodeIfPresent(event.doseQuantity, forKey: .doseQuantity)
        try container.encode(event.logStatus.rawValue, forKey: .logStatus)
        try container.encode(event.unit, forKey: .unit)
    }

    /// Reads a dose event: `medicationConcept`, `scheduleType`,
    /// `scheduledDate`, `scheduledDoseQuantity`, `doseQuantity`,
    /// `logStatus` (HealthKit raw values) and `unit`.
    package static func decodeDoseEvent(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ fields: consuming SampleFields
    ) throws -> HKMedicationDoseEvent {
        let scheduleRaw = try container.decode(Int.self, forKey: .scheduleType)
        guard let scheduleType = HKMedicationDoseEvent.ScheduleType(rawValue: scheduleRaw) else {
            throw HKError.invalid("MED-1", "\(scheduleRaw) is not a dose event schedule type")
        }
        let statusRaw = try container.decode(Int.self, forKey: .logStatus)
        guard let status = HKMedicationDoseEvent.LogStatus(rawValue: statusRaw) else {
            throw HKError.invalid("MED-1", "\(statusRaw) is not a dose event log status")
        }
        let dose = HKMedicationDoseEvent.Dose(
            concept: try container.decode(ConceptIdentifierJSON.self, forKey: .medicationConcept).identifier(),
            scheduleType: scheduleType,
            scheduledDate: try JSONDates.decodeIfPresent(container, .scheduledDate),
            scheduledDoseQuantity: try container.decodeIfPresent(Double.self, forKey: .scheduledDoseQuantity),
            doseQuantity: try container.decodeIfPresent(Double.self, forKey: .doseQuantity),
            logStatus: status,
            unit: try container.decode(HKUnit.self, forKey: .unit)
        )
        return try HKMedicationDoseEvent.make(dose, fields)
    }
}
