// The identifiers of the smaller type families (correlations,
// characteristics, documents, clinical records, scored assessments) and the
// types HealthKit names by a string constant alone. Quantity and category
// identifiers have files of their own.

/// The identifier of a correlation type.
public struct HKCorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw identifier string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A blood-pressure reading: one systolic and one diastolic sample (OBJ-16).
    public static let bloodPressure = Self(rawValue: "HKCorrelationTypeIdentifierBloodPressure")
    /// A food: nutrition samples eaten together (OBJ-17).
    public static let food = Self(rawValue: "HKCorrelationTypeIdentifierFood")
}

/// The identifier of a characteristic type.
public struct HKCharacteristicTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw identifier string.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// A person's biological sex.
    public static let biologicalSex = Self(rawValue: "HKCharacteristicTypeIdentifierBiologicalSex")
    /// A person's blood type.
    public static let bloodType = Self(rawValue: "HKCharacteristicTypeIdentifierBloodType")
    /// A person's date of birth.
    public static let dateOfBirth = Self(rawValue: "HKCharacteristicTypeIdentifierDateOfBirth")
    /// A person's skin type.
    public static let fitzpatrickSkinType = Self(rawValue: "HKCharacteristicTypeIdentifierFitzpatrickSkinType")
    /// Whether a person uses a wheelchair.
    public static let wheelchairUse = Self(rawValue: "HKCharacteristicTypeIdentifierWheelchairUse")
    /// How a person's move goal is measured.
    public static let activityMoveMode = Self(rawValue: "HKCharacteristicTypeIdentifierActivityMoveMode")
}

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
