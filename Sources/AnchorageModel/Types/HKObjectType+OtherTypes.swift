// HealthKit's types for data Anchorage does not store: electrocardiograms,
// audiograms, heartbeat series and workout routes, clinical and CDA
// records, vision prescriptions, states of mind, medications and scored
// assessments. The type objects exist, so that code naming them compiles,
// asks for authorization and queries as it does on a phone: a query finds no
// samples of them, because no sample class of them exists here to save.
// Their kind codes (7001…) are assigned like every other type's, once.

/// The type of series samples: workout routes and heartbeat series.
///
/// ```swift
/// let routes = HKSeriesType.workoutRoute()
/// ```
public final class HKSeriesType: HKSampleType, @unchecked Sendable {
    /// The type of workout routes (`HKWorkoutRouteTypeIdentifier`).
    public class func workoutRoute() -> HKSeriesType { TypeCatalog.workoutRoute }
    /// The type of heartbeat series (`HKDataTypeIdentifierHeartbeatSeries`).
    public class func heartbeat() -> HKSeriesType { TypeCatalog.heartbeatSeries }
}

/// The type of CDA documents.
public final class HKDocumentType: HKSampleType, @unchecked Sendable {
    /// The document type for `identifier`; stops the program if it is unknown.
    public convenience init(_ identifier: HKDocumentTypeIdentifier) {
        guard let known = TypeCatalog.documentTypes[identifier] else {
            programmerError(.invalid("OBJ-11", "'\(identifier.rawValue)' is not a document type identifier"))
        }
        self.init(identifier: known.identifier, kindCode: known.kindCode)
    }

    package override init(identifier: String, kindCode: UInt32) {
        super.init(identifier: identifier, kindCode: kindCode)
    }
}

/// The type of clinical (FHIR) records.
public final class HKClinicalType: HKSampleType, @unchecked Sendable {
    /// The clinical type for `identifier`; stops the program if it is unknown.
    public convenience init(_ identifier: HKClinicalTypeIdentifier) {
        guard let known = TypeCatalog.clinicalTypes[identifier] else {
            programmerError(.invalid("OBJ-11", "'\(identifier.rawValue)' is not a clinical type identifier"))
        }
        self.init(identifier: known.identifier, kindCode: known.kindCode)
    }

    package override init(identifier: String, kindCode: UInt32) {
        super.init(identifier: identifier, kindCode: kindCode)
    }
}

/// The type of scored assessments (GAD-7, PHQ-9).
public final class HKScoredAssessmentType: HKSampleType, @unchecked Sendable {
    /// The assessment type for `identifier`; stops the program if it is unknown.
    public convenience init(_ identifier: HKScoredAssessmentTypeIdentifier) {
        guard let known = TypeCatalog.scoredAssessmentTypes[identifier] else {
            programmerError(.invalid("OBJ-11", "'\(identifier.rawValue)' is not a scored assessment type identifier"))
        }
        self.init(identifier: known.identifier, kindCode: known.kindCode)
    }

    package override init(identifier: String, kindCode: UInt32) {
        super.init(identifier: identifier, kindCode: kindCode)
    }
}

/// The type of audiograms.
public final class HKAudiogramSampleType: HKSampleType, @unchecked Sendable {}
/// The type of electrocardiograms.
public final class HKElectrocardiogramType: HKSampleType, @unchecked Sendable {}
/// The type of vision prescriptions.
public final class HKPrescriptionType: HKSampleType, @unchecked Sendable {}
/// The type of states of mind.
public final class HKStateOfMindType: HKSampleType, @unchecked Sendable {}
/// The type of medication dose events.
public final class HKMedicationDoseEventType: HKSampleType, @unchecked Sendable {}
/// The type of the medications a person has annotated.
public final class HKUserAnnotatedMedicationType: HKObjectType, @unchecked Sendable {}

/// The identifier of a document type.
public struct HKDocumentTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw identifier string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A Clinical Document Architecture document.
    public static let CDA = Self(rawValue: "HKDocumentTypeIdentifierCDA")
}

/// The identifier of a clinical record type.
public struct HKClinicalTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw identifier string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let allergyRecord = Self(rawValue: "HKClinicalTypeIdentifierAllergyRecord")
    public static let clinicalNoteRecord = Self(rawValue: "HKClinicalTypeIdentifierClinicalNoteRecord")
    public static let conditionRecord = Self(rawValue: "HKClinicalTypeIdentifierConditionRecord")
    public static let coverageRecord = Self(rawValue: "HKClinicalTypeIdentifierCoverageRecord")
    public static let immunizationRecord = Self(rawValue: "HKClinicalTypeIdentifierImmunizationRecord")
    public static let labResultRecord = Self(rawValue: "HKClinicalTypeIdentifierLabResultRecord")
    public static let medicationRecord = Self(rawValue: "HKClinicalTypeIdentifierMedicationRecord")
    public static let procedureRecord = Self(rawValue: "HKClinicalTypeIdentifierProcedureRecord")
    public static let vitalSignRecord = Self(rawValue: "HKClinicalTypeIdentifierVitalSignRecord")
}

/// The identifier of a scored assessment type.
public struct HKScoredAssessmentTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable,
    CustomStringConvertible
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw identifier string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The GAD-7 anxiety assessment.
    public static let GAD7 = Self(rawValue: "HKScoredAssessmentTypeIdentifierGAD7")
    /// The PHQ-9 depression assessment.
    public static let PHQ9 = Self(rawValue: "HKScoredAssessmentTypeIdentifierPHQ9")
}

/// The workout type's identifier.
public let HKWorkoutTypeIdentifier = "HKWorkoutTypeIdentifier"
/// The workout route series type's identifier.
public let HKWorkoutRouteTypeIdentifier = "HKWorkoutRouteTypeIdentifier"
/// The heartbeat series type's identifier.
public let HKDataTypeIdentifierHeartbeatSeries = "HKDataTypeIdentifierHeartbeatSeries"
/// The vision prescription type's identifier.
public let HKVisionPrescriptionTypeIdentifier = "HKVisionPrescriptionTypeIdentifier"
/// The state of mind type's identifier.
public let HKDataTypeIdentifierStateOfMind = "HKDataTypeIdentifierStateOfMind"
/// The medication dose event type's identifier.
public let HKMedicationDoseEventTypeIdentifierMedicationDoseEvent =
    "HKMedicationDoseEventTypeIdentifierMedicationDoseEvent"
/// The annotated medication type's identifier.
public let HKDataTypeIdentifierUserAnnotatedMedicationConcept = "HKDataTypeIdentifierUserAnnotatedMedicationConcept"

extension HKObjectType {
    /// The document type for `identifier`, or `nil` if it is unknown.
    public class func documentType(forIdentifier identifier: HKDocumentTypeIdentifier) -> HKDocumentType? {
        TypeCatalog.documentTypes[identifier]
    }

    /// The clinical record type for `identifier`, or `nil` if it is unknown.
    public class func clinicalType(forIdentifier identifier: HKClinicalTypeIdentifier) -> HKClinicalType? {
        TypeCatalog.clinicalTypes[identifier]
    }

    /// The series type with `identifier` (``HKWorkoutRouteTypeIdentifier``
    /// or ``HKDataTypeIdentifierHeartbeatSeries``), or `nil`.
    public class func seriesType(forIdentifier identifier: String) -> HKSeriesType? {
        switch identifier {
        case HKWorkoutRouteTypeIdentifier: TypeCatalog.workoutRoute
        case HKDataTypeIdentifierHeartbeatSeries: TypeCatalog.heartbeatSeries
        default: nil
        }
    }

    /// The audiogram type.
    public class func audiogramSampleType() -> HKAudiogramSampleType { TypeCatalog.audiogram }
    /// The electrocardiogram type.
    public class func electrocardiogramType() -> HKElectrocardiogramType { TypeCatalog.electrocardiogram }
    /// The vision prescription type.
    public class func visionPrescriptionType() -> HKPrescriptionType { TypeCatalog.visionPrescription }
    /// The state of mind type.
    public class func stateOfMindType() -> HKStateOfMindType { TypeCatalog.stateOfMind }
    /// The medication dose event type.
    public class func medicationDoseEventType() -> HKMedicationDoseEventType { TypeCatalog.medicationDoseEvent }
    /// The annotated medication type.
    public class func userAnnotatedMedicationType() -> HKUserAnnotatedMedicationType {
        TypeCatalog.userAnnotatedMedication
    }

    /// Whether an app must ask for each object of this type separately:
    /// `true` only for vision prescriptions, as in HealthKit.
    public func requiresPerObjectAuthorization() -> Bool {
        self is HKPrescriptionType
    }
}

extension HKSampleType {
    /// Whether HealthKit recalibrates estimates of this type
    /// (``HKHealthStore/recalibrateEstimates(sampleType:date:completion:)``):
    /// no type here has estimates to recalibrate.
    public var allowsRecalibrationForEstimates: Bool { false }
}

extension TypeCatalog {
    package static let workoutRoute = HKSeriesType(identifier: HKWorkoutRouteTypeIdentifier, kindCode: 7001)
    package static let heartbeatSeries = HKSeriesType(identifier: HKDataTypeIdentifierHeartbeatSeries, kindCode: 7002)
    package static let audiogram = HKAudiogramSampleType(identifier: "HKDataTypeIdentifierAudiogram", kindCode: 7003)
    package static let electrocardiogram = HKElectrocardiogramType(
        identifier: "HKDataTypeIdentifierElectrocardiogram",
        kindCode: 7004
    )
    package static let visionPrescription = HKPrescriptionType(
        identifier: HKVisionPrescriptionTypeIdentifier,
        kindCode: 7005
    )
    package static let stateOfMind = HKStateOfMindType(identifier: HKDataTypeIdentifierStateOfMind, kindCode: 7006)
    package static let medicationDoseEvent = HKMedicationDoseEventType(
        identifier: HKMedicationDoseEventTypeIdentifierMedicationDoseEvent,
        kindCode: 7007
    )
    package static let userAnnotatedMedication = HKUserAnnotatedMedicationType(
        identifier: HKDataTypeIdentifierUserAnnotatedMedicationConcept,
        kindCode: 7008
    )
    package static let documentTypes: [HKDocumentTypeIdentifier: HKDocumentType] = [
        .CDA: HKDocumentType(identifier: HKDocumentTypeIdentifier.CDA.rawValue, kindCode: 7009)
    ]
    package static let scoredAssessmentTypes: [HKScoredAssessmentTypeIdentifier: HKScoredAssessmentType] = [
        .GAD7: HKScoredAssessmentType(identifier: HKScoredAssessmentTypeIdentifier.GAD7.rawValue, kindCode: 7010),
        .PHQ9: HKScoredAssessmentType(identifier: HKScoredAssessmentTypeIdentifier.PHQ9.rawValue, kindCode: 7011),
    ]
    package static let clinicalTypes: [HKClinicalTypeIdentifier: HKClinicalType] = Dictionary(
        uniqueKeysWithValues: [
            (HKClinicalTypeIdentifier.allergyRecord, UInt32(7101)), (.clinicalNoteRecord, 7102),
            (.conditionRecord, 7103), (.coverageRecord, 7104), (.immunizationRecord, 7105),
            (.labResultRecord, 7106), (.medicationRecord, 7107), (.procedureRecord, 7108),
            (.vitalSignRecord, 7109),
        ].map { identifier, code in (identifier, HKClinicalType(identifier: identifier.rawValue, kindCode: code)) }
    )

    /// The types of data Anchorage does not store.
    package static let otherTypes: [HKObjectType] =
        [
            workoutRoute, heartbeatSeries, audiogram, electrocardiogram, visionPrescription, stateOfMind,
            medicationDoseEvent, userAnnotatedMedication,
        ] + Array(documentTypes.values) + Array(scoredAssessmentTypes.values) + Array(clinicalTypes.values)
}
