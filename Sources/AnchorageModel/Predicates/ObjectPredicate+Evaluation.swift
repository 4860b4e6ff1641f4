/// What a store knows beyond the object itself: correlation membership and
/// workout associations. The model alone knows neither.
public struct PredicateContext: Sendable {
    /// Whether the object `uuid` is a member of a correlation.
    public var isCorrelationMember: @Sendable (UUID) -> Bool
    /// Whether the object `uuid` is associated with the workout `workout`.
    public var isAssociated: @Sendable (_ uuid: UUID, _ workout: UUID) -> Bool
    /// Whether the sample `uuid` is related as effort to the workout
    /// `workout` (and to its activity `activity`, when not `nil`).
    public var isEffortRelated: @Sendable (_ uuid: UUID, _ workout: UUID, _ activity: UUID?) -> Bool

    /// A context; by default nothing belongs to a correlation or a workout.
    public init(
        isCorrelationMember: @escaping @Sendable (UUID) -> Bool = { _ in false },
        isAssociated: @escaping @Sendable (UUID, UUID) -> Bool = { _, _ in false },
        isEffortRelated: @escaping @Sendable (UUID, UUID, UUID?) -> Bool = { _, _, _ in false }
    ) {
        self.isCorrelationMember = isCorrelationMember
        self.isAssociated = isAssociated
        self.isEffortRelated = isEffortRelated
    }

    /// The context of the model alone.
    public static let none = PredicateContext()
}

extension ObjectPredicate {
    /// Whether `object` matches.
    ///
    /// ```swift
    /// let matches = HKQuery.predicateForSamples(withStart: a, end: b).objectPredicate.evaluate(sample)
    /// ```
    public func evaluate(_ object: HKObject, context: PredicateContext = .none) -> Bool {
        switch self {
        case .constant(let value):
            return value
        case .and(let predicates):
            return predicates.allSatisfy { $0.evaluate(object, context: context) }
        case .or(let predicates):
            return predicates.contains { $0.evaluate(object, context: context) }
        case .not(let predicate):
            return !predicate.evaluate(object, context: context)
        case .uuidIn(let uuids):
            return uuids.contains(object.uuid)
        case .sourceIn(let bundleIdentifiers):
            return bundleIdentifiers.contains(object.sourceRevision.source.bundleIdentifier)
        case .sourceRevisionIn(let patterns):
            return patterns.contains { $0.matches(object.sourceRevision) }
        case .deviceIn(let patterns):
            let properties = object.device?.properties ?? Array(repeating: nil, count: 8)
            return patterns.contains { $0.properties == properties }
        case .deviceProperty(let key, let values):
            guard let index = devicePropertyKeys.firstIndex(of: key) else { return false }
            let value = object.device?.properties[index]
            guard let value else { return values.isEmpty }
            return values.contains(value)
        case .metadataExists(let key):
            return object.typedMetadata[key] != nil
        case .metadataIn(let key, let values):
            guard let stored = object.typedMetadata[key] else { return false }
            return values.contains { Self.compare(stored, .equalTo, $0) }
        case .metadataCompare(let key, let op, let value):
            guard let stored = object.typedMetadata[key] else { return false }
            return Self.compare(stored, op, value)
        case .quantityCompare(let op, let quantity):
            guard let sample = object as? HKQuantitySample,
                let value = sample.quantity.unit.convert(sample.quantity.value, to: quantity.unit)
            else { return false }
            return op.holds(value, quantity.value)
        case .categoryValueCompare(let op, let value):
            guard let sample = object as? HKCategorySample else { return false }
            return op.holds(sample.value, value)
        case .categoryValueIn(let values):
            guard let sample = object as? HKCategorySample else { return false }
            return values.contains(sample.value)
        case .dateRange(let start, let end, let options):
            guard let sample = object as? HKSample else { return false }
            return Self.dateMatches(sample, start: start, end: end, options: options)
        case .workoutActivityType(let type):
            return (object as? HKWorkout)?.workoutActivityType == type
        case .electrocardiogramClassification(let value):
            return (object as? HKElectrocardiogram)?.classification == value
        case .electrocardiogramSymptoms(let value):
            return (object as? HKElectrocardiogram)?.symptomsStatus == value
        case .fhirResource(let type, let source, let identifier):
            guard let record = object as? HKClinicalRecord, let resource = record.fhirResource,
                resource.resourceType.rawValue == type
            else { return false }
            if let source, record.sourceRevision.source.bundleIdentifier != source { return false }
            if let identifier, resource.identifier != identifier { return false }
            return true
        case .medication(let condition):
            guard let event = object as? HKMedicationDoseEvent else { return false }
            return condition.evaluate(event)
        case .stateOfMindValence(let op, let value):
            guard let mind = object as? HKStateOfMind else { return false }
            return op.holds(mind.valence, value)
        case .stateOfMindKind(let value):
            return (object as? HKStateOfMind)?.kind == value
        case .stateOfMindLabel(let value):
            return (object as? HKStateOfMind)?.labels.contains(value) ?? false
        case .stateOfMindAssociation(let value):
            return (object as? HKStateOfMind)?.associations.contains(value) ?? false
        case .workoutCompare(let property, let op, let value):
            guard let workout = object as? HKWorkout, let measured = workout.quantity(of: property),
                let converted = measured.unit.convert(measured.value, to: value.unit)
            else { return false }
            return op.holds(converted, value.value)
        case .inWorkout(let workout):
            return context.isAssociated(object.uuid, workout)
        case .noCorrelation:
            return !context.isCorrelationMember(object.uuid)
        case .workoutStatistic(let type, let statistic, let op, let value):
            guard let workout = object as? HKWorkout else { return false }
            return Self.compare(workout.statistics(for: type), statistic, op, value)
        case .anyActivity(let predicate):
            guard let workout = object as? HKWorkout else { return false }
            return workout.workoutActivities.contains { predicate.evaluate($0) }
        case .activityType, .activityDuration, .activityDateRange, .activityStatistic:
            // Conditions on activities, not objects (see `validate(for:)`).
            return false
        case .effortRelated(let workout, let activity):
            return context.isEffortRelated(object.uuid, workout, activity)
        }
    }

    /// Whether the workout activity `activity` matches: the `activity…`
    /// conditions combined with `and`, `or`, `not` and `constant`; any other
    /// condition does not match an activity.
    ///
    /// ```swift
    /// let cycling = HKQuery.predicateForWorkoutActivities(workoutActivityType: .cycling)
    /// cycling.objectPredicate.evaluate(race.workoutActivities[1])   // true
    /// ```
    public func evaluate(_ activity: HKWorkoutActivity) -> Bool {
        switch self {
        case .constant(let value):
            return value
        case .and(let predicates):
            return predicates.allSatisfy { $0.evaluate(activity) }
        case .or(let predicates):
            return predicates.contains { $0.evaluate(activity) }
        case .not(let predicate):
            return !predicate.evaluate(activity)
        case .activityType(let type):
            return activity.configuration.activityType == type
        case .activityDuration(let op, let seconds):
            return op.holds(activity.duration, seconds)
        case .activityDateRange(let start, let end, let options):
            return Self.dateMatches(
                startDate: activity.startDate,
                endDate: activity.endDate ?? activity.startDate,
                start: start,
                end: end,
                options: options
            )
        case .activityStatistic(let type, let statistic, let op, let value):
            return Self.compare(activity.statistics(for: type), statistic, op, value)
        default:
            return false
        }
    }

    /// Compares one value of recorded statistics with `value` after unit
    /// conversion; absent statistics or values never match.
    package static func compare(
        _ statistics: HKStatistics?,
        _ statistic: RecordedStatistic,
        _ op: ComparisonOperator,
        _ value: HKQuantity
    ) -> Bool {
        guard let statistics else { return false }
        let quantity: HKQuantity? =
            switch statistic {
            case .sum: statistics.sumQuantity()
            case .average: statistics.averageQuantity()
            case .minimum: statistics.minimumQuantity()
            case .maximum: statistics.maximumQuantity()
            }
        guard let quantity, let converted = quantity.unit.convert(quantity.value, to: value.unit) else { return false }
        return op.holds(converted, value.value)
    }

    /// The date rules PRED-1..6.
    package static func dateMatches(_ sample: HKSample, start: Date?, end: Date?, options: HKQueryOptions) -> Bool {
        dateMatches(startDate: sample.startDate, endDate: sample.endDate, start: start, end: end, options: options)
    }

    /// The date rules PRED-1..6 for an interval.
    package static func dateMatches(
        startDate: Date,
        endDate: Date,
        start: Date?,
        end: Date?,
        options: HKQueryOptions
    ) -> Bool {
        let strictStart = options.contains(.strictStartDate)
        let strictEnd = options.contains(.strictEndDate)
        if !strictStart && !strictEnd {
            // Overlap (PRED-1): ends at or after start, starts before end.
            if let start, endDate < start { return false }
            if let end, startDate >= end { return false }
            return true
        }
        if strictStart {
            if let start, startDate < start { return false }
            if let end, startDate >= end { return false }
        }
        if strictEnd {
            if let start, endDate < start { return false }
            if let end, endDate >= end { return false }
        }
        return true
    }

    /// Compares two metadata values; values of different kinds never match
    /// (PRED-10), quantities compare after conversion, incompatible ones never.
    package static func compare(_ stored: HKMetadataValue, _ op: ComparisonOperator, _ value: HKMetadataValue) -> Bool {
        switch (stored, value) {
        case (.string(let a), .string(let b)):
            return op.holds(a, b)
        case (.date(let a), .date(let b)):
            return op.holds(a, b)
        case (.quantity(let a), .quantity(let b)):
            guard let converted = a.unit.convert(a.value, to: b.unit) else { return false }
            return op.holds(converted, b.value)
        case (.integer(let a), .integer(let b)):
            return op.holds(a, b)
        default:
            guard let a = stored.number, let b = value.number else { return false }
            return op.holds(a, b)
        }
    }

    /// Checks what can only be checked against the queried type: a quantity
    /// comparison needs a unit the type accepts (PRED-11).
    ///
    /// - Throws: ``HKError`` (`PRED-11`) for an incompatible unit.
    public func validate(for type: HKSampleType) throws(HKError) {
        switch self {
        case .and(let predicates), .or(let predicates):
            for predicate in predicates { try predicate.validate(for: type) }
        case .not(let predicate):
            try predicate.validate(for: type)
        case .anyActivity(let predicate):
            try predicate.validateActivityCondition()
        case .activityType, .activityDuration, .activityDateRange, .activityStatistic:
            throw .invalid(
                "PRED-13",
                "a workout activity predicate selects workouts only inside predicateForWorkouts(activityPredicate:)"
            )
        case .quantityCompare(_, let quantity):
            if let quantityType = type as? HKQuantityType, !quantityType.is(compatibleWith: quantity.unit) {
                throw .invalid(
                    "PRED-11",
                    "a \(type.identifier) query cannot compare with a quantity in \(quantity.unit.unitString)"
                )
            }
        default:
            break
        }
    }
}

extension ObjectPredicate {
    /// Checks a predicate given to ``anyActivity(_:)``: only activity
    /// conditions, combined.
    package func validateActivityCondition() throws(HKError) {
        switch self {
        case .and(let predicates), .or(let predicates):
            for predicate in predicates { try predicate.validateActivityCondition() }
        case .not(let predicate):
            try predicate.validateActivityCondition()
        case .constant, .activityType, .activityDuration, .activityDateRange, .activityStatistic:
            break
        default:
            throw .invalid(
                "PRED-13",
                "predicateForWorkouts(activityPredicate:) takes a predicate made by predicateForWorkoutActivities…"
            )
        }
    }
}

extension ObjectPredicate.RevisionPattern {
    package func matches(_ revision: HKSourceRevision) -> Bool {
        guard revision.source.bundleIdentifier == bundleIdentifier else { return false }
        if let version, revision.version != version { return false }
        if let productType, revision.productType != productType { return false }
        if let operatingSystemVersion {
            let os = revision.operatingSystemVersion
            if [os.majorVersion, os.minorVersion, os.patchVersion] != operatingSystemVersion { return false }
        }
        return true
    }
}

extension HKWorkout {
    /// A workout property as a quantity (duration in seconds).
    package func quantity(of property: WorkoutProperty) -> HKQuantity? {
        switch property {
        case .duration: HKQuantity(unit: .second(), doubleValue: duration)
        case .totalEnergyBurned: totalEnergyBurned
        case .totalDistance: totalDistance
        case .totalSwimmingStrokeCount: totalSwimmingStrokeCount
        case .totalFlightsClimbed: totalFlightsClimbed
        }
    }
}
