/// A condition on health objects: the typed, `Codable` form of HealthKit's
/// predicates (PRED-14).
///
/// Build one with `HKQuery.predicateFor…` (which return `NSPredicate`, as in
/// HealthKit) and convert with ``init(_:)``, or directly:
///
/// ```swift
/// let lastWeek: ObjectPredicate = .dateRange(start: weekAgo, end: now, options: [])
/// let mine = lastWeek && .sourceIn([HKSource.default().bundleIdentifier])
/// mine.evaluate(sample)             // true or false
/// try JSONEncoder().encode(mine)    // its documented JSON form
/// ```
public indirect enum ObjectPredicate: Sendable, Hashable {
    /// Always or never matches.
    case constant(Bool)
    /// All of the predicates.
    case and([ObjectPredicate])
    /// Any of the predicates.
    case or([ObjectPredicate])
    /// Not the predicate.
    case not(ObjectPredicate)
    /// Objects with one of these uuids (PRED-7).
    case uuidIn(Set<UUID>)
    /// Objects saved by a source with one of these bundle identifiers (PRED-8).
    case sourceIn(Set<String>)
    /// Objects saved by one of these revisions; the `HKSourceRevisionAny…`
    /// wildcards match anything (PRED-8).
    case sourceRevisionIn([RevisionPattern])
    /// Objects whose device equals one of these exactly, nil matching nil (PRED-9).
    case deviceIn([DevicePattern])
    /// Objects whose device property `key` is one of `values`; an empty set
    /// matches objects where it is nil (PRED-9).
    case deviceProperty(key: String, values: Set<String>)
    /// Objects with metadata under `key` (PRED-10).
    case metadataExists(key: String)
    /// Objects whose metadata under `key` equals one of `values` (PRED-10).
    case metadataIn(key: String, values: [HKMetadataValue])
    /// Objects whose metadata under `key` compares so with `value` (PRED-10).
    case metadataCompare(key: String, operator: ComparisonOperator, value: HKMetadataValue)
    /// Quantity samples whose quantity compares so with `quantity` (PRED-11).
    case quantityCompare(operator: ComparisonOperator, quantity: HKQuantity)
    /// Category samples whose value compares so with `value` (PRED-12).
    case categoryValueCompare(operator: ComparisonOperator, value: Int)
    /// Category samples whose value is one of `values` (PRED-12).
    case categoryValueIn(Set<Int>)
    /// Samples in a date range (PRED-1..6); a nil bound is no bound.
    case dateRange(start: Date?, end: Date?, options: HKQueryOptions)
    /// Workouts of an activity type (PRED-13).
    case workoutActivityType(HKWorkoutActivityType)
    /// Electrocardiograms of this classification (raw value).
    case electrocardiogramClassification(HKElectrocardiogram.Classification)
    /// Electrocardiograms of this symptoms status (raw value).
    case electrocardiogramSymptoms(HKElectrocardiogram.SymptomsStatus)
    /// Clinical records whose FHIR resource is of this type (and, when
    /// given, from this source with this identifier).
    case fhirResource(type: String, source: String?, identifier: String?)
    /// Medication dose events, or a person's medications, that meet a
    /// medication condition.
    case medication(MedicationCondition)
    /// States of mind whose valence compares so with the value.
    case stateOfMindValence(operator: ComparisonOperator, value: Double)
    /// States of mind of this kind.
    case stateOfMindKind(HKStateOfMind.Kind)
    /// States of mind with this label.
    case stateOfMindLabel(HKStateOfMind.Label)
    /// States of mind with this association.
    case stateOfMindAssociation(HKStateOfMind.Association)
    /// Workouts whose property compares so with `value`; durations in seconds (PRED-13).
    case workoutCompare(property: WorkoutProperty, operator: ComparisonOperator, value: HKQuantity)
    /// Samples associated with the workout `uuid` (PRED-13, OBJ-24).
    case inWorkout(UUID)
    /// Samples that belong to no correlation (OBJ-20).
    case noCorrelation
    /// Workouts whose recorded statistic of `type` compares so with
    /// `value`; workouts without that statistic never match (PRED-13).
    case workoutStatistic(
        type: HKQuantityType,
        statistic: RecordedStatistic,
        operator: ComparisonOperator,
        value: HKQuantity
    )
    /// Workouts with at least one activity that matches `predicate`, which
    /// combines the `activity…` conditions with `and`, `or`, `not` and
    /// `constant` (`HKQuery.predicateForWorkouts(activityPredicate:)`).
    case anyActivity(ObjectPredicate)
    /// Workout activities of an activity type (inside ``anyActivity(_:)``).
    case activityType(HKWorkoutActivityType)
    /// Workout activities whose duration compares so with `seconds`
    /// (inside ``anyActivity(_:)``).
    case activityDuration(operator: ComparisonOperator, seconds: TimeInterval)
    /// Workout activities in a date range, by the rules of samples
    /// (PRED-1..6; inside ``anyActivity(_:)``).
    case activityDateRange(start: Date?, end: Date?, options: HKQueryOptions)
    /// Workout activities whose recorded statistic of `type` compares so
    /// with `value` (inside ``anyActivity(_:)``).
    case activityStatistic(
        type: HKQuantityType,
        statistic: RecordedStatistic,
        operator: ComparisonOperator,
        value: HKQuantity
    )
    /// Samples related as effort scores to the workout `workout`, and to its
    /// activity `activity` when one is given
    /// (`HKHealthStore.relateWorkoutEffortSample(_:with:activity:completion:)`).
    case effortRelated(workout: UUID, activity: UUID?)

    /// Which value of a recorded statistic a predicate compares.
    public enum RecordedStatistic: String, Sendable, Hashable, Codable, CaseIterable {
        case sum, average, minimum, maximum
    }

    /// Whether the condition is about workout activities (valid only
    /// inside ``anyActivity(_:)``).
    package var isActivityCondition: Bool {
        switch self {
        case .activityType, .activityDuration, .activityDateRange, .activityStatistic: true
        default: false
        }
    }

    /// A revision to match: the source's bundle identifier and optional
    /// version, product type and operating system version; `nil` matches
    /// anything.
    public struct RevisionPattern: Sendable, Hashable, Codable {
        /// The source's bundle identifier.
        public var bundleIdentifier: String
        /// The version, or `nil` for any.
        public var version: String?
        /// The product type, or `nil` for any.
        public var productType: String?
        /// Major, minor and patch, or `nil` for any.
        public var operatingSystemVersion: [Int]?

        /// The pattern of `revision`, with HealthKit's wildcards turned into nil.
        public init(_ revision: HKSourceRevision) {
            bundleIdentifier = revision.source.bundleIdentifier
            version = revision.version == HKSourceRevisionAnyVersion ? nil : revision.version
            productType = revision.productType == HKSourceRevisionAnyProductType ? nil : revision.productType
            let os = revision.operatingSystemVersion
            operatingSystemVersion =
                os.majorVersion == -1 && os.minorVersion == -1 && os.patchVersion == -1
                ? nil : [os.majorVersion, os.minorVersion, os.patchVersion]
        }
    }

    /// A device to match: its eight properties, nil matching only nil.
    public struct DevicePattern: Sendable, Hashable, Codable {
        /// The eight device properties in ``HKDevice`` order.
        public var properties: [String?]

        /// The pattern of `device`.
        public init(_ device: HKDevice) {
            properties = device.properties
        }
    }
}

extension ObjectPredicate {
    /// Both predicates.
    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        .and([lhs, rhs])
    }

    /// Either predicate.
    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate {
        .or([lhs, rhs])
    }

    /// The negation.
    public static prefix func ! (predicate: ObjectPredicate) -> ObjectPredicate {
        .not(predicate)
    }
}
