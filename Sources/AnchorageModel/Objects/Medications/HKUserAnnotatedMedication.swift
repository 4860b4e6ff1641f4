import Foundation

/// A medication as a concept: what it is, the form it comes in and the
/// codes clinical terminologies give it.
public final class HKMedicationConcept: Hashable, @unchecked Sendable {
    // @unchecked: immutable.
    /// The concept's identifier; dose events logged for it carry the same.
    public let identifier: HKHealthConceptIdentifier
    /// The name the medication is shown with.
    public let displayText: String
    /// The form it is made in.
    public let generalForm: HKMedicationGeneralForm
    /// Its codes in clinical terminologies.
    public let relatedCodings: Set<HKClinicalCoding>

    package init(
        identifier: HKHealthConceptIdentifier,
        displayText: String,
        generalForm: HKMedicationGeneralForm,
        relatedCodings: Set<HKClinicalCoding>
    ) throws(HKError) {
        guard !displayText.isEmpty, displayText.utf8.count <= 1_000 else {
            throw .invalid("MED-2", "a medication's displayText is 1 to 1,000 bytes")
        }
        guard !generalForm.rawValue.isEmpty, generalForm.rawValue.utf8.count <= 100 else {
            throw .invalid("MED-2", "a medication's generalForm is a name of 1 to 100 bytes")
        }
        guard relatedCodings.count <= 64 else { throw .invalid("MED-2", "a medication has at most 64 related codings") }
        for coding in relatedCodings {
            guard !coding.system.isEmpty, !coding.code.isEmpty, coding.system.utf8.count <= 1_000,
                coding.code.utf8.count <= 1_000, (coding.version?.utf8.count ?? 0) <= 1_000
            else {
                throw .invalid("MED-2", "a clinical coding has a system and a code of 1 to 1,000 bytes")
            }
        }
        self.identifier = identifier
        self.displayText = displayText
        self.generalForm = generalForm
        self.relatedCodings = relatedCodings
    }

    public static func == (lhs: HKMedicationConcept, rhs: HKMedicationConcept) -> Bool {
        lhs.identifier == rhs.identifier && lhs.displayText == rhs.displayText && lhs.generalForm == rhs.generalForm
            && lhs.relatedCodings == rhs.relatedCodings
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

/// A medication the person tracks in the Health app's Medications: the
/// concept, the person's nickname for it, whether it has a schedule and
/// whether the person archived it (MED-2). Not a sample: one per
/// medication concept, the latest save of a concept replacing the earlier.
///
/// ```swift
/// let active = try await HKUserAnnotatedMedicationQueryDescriptor(
///     predicate: HKQuery.predicateForUserAnnotatedMedications(isArchived: false)
/// ).result(for: store)
/// ```
public final class HKUserAnnotatedMedication: Hashable, @unchecked Sendable {
    // @unchecked: immutable.
    /// The person's name for the medication, if any.
    public let nickname: String?
    /// Whether the person archived the medication (stopped tracking it).
    public let isArchived: Bool
    /// Whether the medication has a schedule (false for as-needed only).
    public let hasSchedule: Bool
    /// The medication.
    public let medication: HKMedicationConcept

    /// A medication, checked (MED-2). HealthKit's apps cannot make these;
    /// the store's owner saves them
    /// (``HKHealthStore/saveUserAnnotatedMedications(_:)``) and importers
    /// and services read them from JSON.
    package init(
        nickname: String?,
        isArchived: Bool,
        hasSchedule: Bool,
        medication: HKMedicationConcept
    ) throws(HKError) {
        guard (nickname?.utf8.count ?? 0) <= 1_000 else {
            throw .invalid("MED-2", "a medication's nickname is at most 1,000 bytes")
        }
        self.nickname = nickname
        self.isArchived = isArchived
        self.hasSchedule = hasSchedule
        self.medication = medication
    }

    /// A medication with every field given, checked.
    ///
    /// - Throws: ``HKError`` `MED-1` for an empty or long identifier code,
    ///   `MED-2` for a display text, form, nickname or coding out of its
    ///   limits.
    public static func stored(
        conceptCode: String,
        displayText: String,
        generalForm: HKMedicationGeneralForm,
        relatedCodings: Set<HKClinicalCoding> = [],
        nickname: String? = nil,
        isArchived: Bool = false,
        hasSchedule: Bool = false
    ) throws(HKError) -> HKUserAnnotatedMedication {
        try HKUserAnnotatedMedication(
            nickname: nickname,
            isArchived: isArchived,
            hasSchedule: hasSchedule,
            medication: HKMedicationConcept(
                identifier: HKHealthConceptIdentifier(domain: .medication, code: conceptCode),
                displayText: displayText,
                generalForm: generalForm,
                relatedCodings: relatedCodings
            )
        )
    }

    public static func == (lhs: HKUserAnnotatedMedication, rhs: HKUserAnnotatedMedication) -> Bool {
        lhs.nickname == rhs.nickname && lhs.isArchived == rhs.isArchived && lhs.hasSchedule == rhs.hasSchedule
            && lhs.medication == rhs.medication
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(medication) }
}
