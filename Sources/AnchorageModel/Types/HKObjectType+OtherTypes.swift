// HealthKit's types beyond quantities, categories, correlations and
// workouts: electrocardiograms, audiograms, heartbeat series and workout
// routes, clinical and CDA records, vision prescriptions, states of mind,
// medication dose events, a person's medications and scored assessments.
// Each has its sample class (or, for medications, its own entries) except
// CDA documents, whose type exists so that code naming it compiles, asks
// for authorization and queries as it does on a phone. Their kind codes
// (7001…) are assigned like every other type's, once.

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
        self.init(
            copying: TypeCatalog.typeOrStop(identifier, in: TypeCatalog.documentTypes, rule: "OBJ-11", kind: "document")
        )
    }
}

/// The type of clinical (FHIR) records.
public final class HKClinicalType: HKSampleType, @unchecked Sendable {
    /// The clinical type for `identifier`; stops the program if it is unknown.
    public convenience init(_ identifier: HKClinicalTypeIdentifier) {
        self.init(
            copying: TypeCatalog.typeOrStop(identifier, in: TypeCatalog.clinicalTypes, rule: "OBJ-11", kind: "clinical")
        )
    }
}

/// The type of scored assessments (GAD-7, PHQ-9).
public final class HKScoredAssessmentType: HKSampleType, @unchecked Sendable {
    /// The assessment type for `identifier`; stops the program if it is unknown.
    public convenience init(_ identifier: HKScoredAssessmentTypeIdentifier) {
        self.init(
            copying: TypeCatalog.typeOrStop(
                identifier,
                in: TypeCatalog.scoredAssessmentTypes,
                rule: "OBJ-11",
                kind: "scored assessment"
            )
        )
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

    /// The types beyond quantities, categories, correlations and workouts.
    package static let otherTypes: [HKObjectType] =
        [
            workoutRoute, heartbeatSeries, audiogram, electrocardiogram, visionPrescription, stateOfMind,
            medicationDoseEvent, userAnnotatedMedication,
        ] + Array(documentTypes.values) + Array(scoredAssessmentTypes.values) + Array(clinicalTypes.values)
}
