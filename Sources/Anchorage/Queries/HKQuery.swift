import AnchorageModel

/// The base of every query, and home of HealthKit's predicate factories.
///
/// ```swift
/// let predicate = HKQuery.predicateForSamples(withStart: start, end: end, options: .strictStartDate)
/// ```
public class HKQuery: @unchecked Sendable {
    // @unchecked: subclasses guard their mutable state; see each query.

    /// Execution state: executed once, stopped, and the lock that keeps
    /// handler calls of this query one at a time.
    let lifecycle = QueryLifecycle()

    /// The type the query reads; `nil` for queries of several types (query
    /// descriptors).
    public let objectType: HKObjectType?
    /// The predicate the query's results match, if any.
    public let predicate: NSPredicate?

    /// The sample type the query reads, when it reads one.
    public var sampleType: HKSampleType? { objectType as? HKSampleType }

    init(objectType: HKObjectType?, predicate: NSPredicate?) {
        self.objectType = objectType
        self.predicate = predicate
    }

    /// Runs the query for `store`; called once by `HKHealthStore.execute(_:)`.
    /// Subclasses override it; handlers are called through ``deliver(_:)``.
    func run(in store: HKHealthStore, engine: StoreEngine) async {}

    /// Reports `error` through the query's handler; every query overrides it.
    func fail(_ error: HKError) {}

    /// Calls `body` (which calls a handler) unless the query was stopped,
    /// never concurrently with another handler call of this query.
    func deliver(_ body: () -> Void) {
        lifecycle.deliver(body)
    }

    /// Runs a one-shot query's work and hands what it returns to `handler`,
    /// or what it throws (as an ``HKError``) through ``fail(_:)``; both
    /// through ``deliver(_:)``.
    func answer<Query: HKQuery, Value>(
        _ query: Query,
        _ handler: (Query, Value?, (any Error)?) -> Void,
        work: () throws -> Value
    ) {
        do {
            let value = try work()
            deliver { handler(query, value, nil) }
        } catch {
            deliver { fail(HKError.wrapping(error)) }
        }
    }

    /// Stops the query: no handler is called after this returns (besides one
    /// already running), and a long-running query ends.
    func stopRunning() {
        lifecycle.stop()
    }
}

extension HKQuery {
    // MARK: Dates (PRED-1..6)

    /// Samples in the interval; see ``HKQueryOptions`` for what "in" means.
    public static func predicateForSamples(
        withStart startDate: Date?,
        end endDate: Date?,
        options: HKQueryOptions = []
    )
        -> NSPredicate
    {
        HKQueryPredicate(.dateRange(start: startDate, end: endDate, options: options))
    }

    // MARK: Objects (PRED-7)

    /// The object with `uuid`.
    public static func predicateForObject(with uuid: UUID) -> NSPredicate {
        HKQueryPredicate(.uuidIn([uuid]))
    }

    /// The objects with these uuids.
    public static func predicateForObjects(with uuids: Set<UUID>) -> NSPredicate {
        HKQueryPredicate(.uuidIn(uuids))
    }

    // MARK: Sources and devices (PRED-8, PRED-9)

    /// Objects saved by `source`.
    public static func predicateForObjects(from source: HKSource) -> NSPredicate {
        HKQueryPredicate(.sourceIn([source.bundleIdentifier]))
    }

    /// Objects saved by any of `sources`.
    public static func predicateForObjects(from sources: Set<HKSource>) -> NSPredicate {
        HKQueryPredicate(.sourceIn(Set(sources.map(\.bundleIdentifier))))
    }

    /// Objects saved by any of these revisions (wildcards allowed).
    public static func predicateForObjects(from sourceRevisions: Set<HKSourceRevision>) -> NSPredicate {
        HKQueryPredicate(.sourceRevisionIn(sourceRevisions.map(ObjectPredicate.RevisionPattern.init)))
    }

    /// Objects whose device equals one of `devices`.
    public static func predicateForObjects(from devices: Set<HKDevice>) -> NSPredicate {
        HKQueryPredicate(.deviceIn(devices.map(ObjectPredicate.DevicePattern.init)))
    }

    /// Objects whose device property `key` (`HKDevicePropertyKey…`) is one
    /// of `allowedValues`; an empty set matches objects where it is nil.
    public static func predicateForObjects(withDeviceProperty key: String, allowedValues: Set<String>) -> NSPredicate {
        guard devicePropertyKeys.contains(key) else {
            programmerError(.invalid("PRED-9", "'\(key)' is not an HKDevicePropertyKey"))
        }
        return HKQueryPredicate(.deviceProperty(key: key, values: allowedValues))
    }

    // MARK: Metadata (PRED-10)

    /// Objects with metadata under `key`.
    public static func predicateForObjects(withMetadataKey key: String) -> NSPredicate {
        HKQueryPredicate(.metadataExists(key: key))
    }

    /// Objects whose metadata under `key` equals one of `allowedValues`.
    public static func predicateForObjects(withMetadataKey key: String, allowedValues: [Any]) -> NSPredicate {
        do {
            var values: [HKMetadataValue] = []
            for value in allowedValues { values.append(try HKMetadataValue.converting(value, key: key)) }
            return HKQueryPredicate(.metadataIn(key: key, values: values))
        } catch {
            programmerError(error)
        }
    }

    /// Objects whose metadata under `key` compares so with `value`.
    public static func predicateForObjects(
        withMetadataKey key: String,
        operatorType: ComparisonOperator,
        value: Any
    ) -> NSPredicate {
        do {
            return HKQueryPredicate(
                .metadataCompare(
                    key: key,
                    operator: operatorType,
                    value: try HKMetadataValue.converting(value, key: key)
                )
            )
        } catch {
            programmerError(error)
        }
    }

    // MARK: Correlations and workouts (OBJ-20, PRED-13)

    /// Samples that belong to no correlation.
    public static func predicateForObjectsWithNoCorrelation() -> NSPredicate {
        HKQueryPredicate(.noCorrelation)
    }

    /// Samples associated with `workout`.
    public static func predicateForObjects(from workout: HKWorkout) -> NSPredicate {
        HKQueryPredicate(.inWorkout(workout.uuid))
    }

    /// Clinical records whose FHIR resource is of `resourceType`.
    public static func predicateForClinicalRecords(withFHIRResourceType resourceType: HKFHIRResourceType) -> NSPredicate
    {
        HKQueryPredicate(.fhirResource(type: resourceType.rawValue, source: nil, identifier: nil))
    }

    /// The clinical record whose FHIR resource is `identifier` of
    /// `resourceType` from `source`: how an app finds one record again
    /// (its uuid may change when Health Records downloads it anew).
    public static func predicateForClinicalRecords(
        from source: HKSource,
        fhirResourceType resourceType: HKFHIRResourceType,
        identifier: String
    ) -> NSPredicate {
        HKQueryPredicate(
            .fhirResource(type: resourceType.rawValue, source: source.bundleIdentifier, identifier: identifier)
        )
    }

    /// States of mind whose valence compares so with `valence`.
    ///
    /// ```swift
    /// let unpleasant = HKQuery.predicateForStatesOfMind(withValence: 0, operatorType: .lessThan)
    /// ```
    public static func predicateForStatesOfMind(
        withValence valence: Double,
        operatorType: ComparisonOperator
    ) -> NSPredicate {
        HKQueryPredicate(.stateOfMindValence(operator: operatorType, value: valence))
    }

    /// States of mind of `kind`.
    public static func predicateForStatesOfMind(with kind: HKStateOfMind.Kind) -> NSPredicate {
        HKQueryPredicate(.stateOfMindKind(kind))
    }

    /// States of mind with `label`.
    public static func predicateForStatesOfMind(with label: HKStateOfMind.Label) -> NSPredicate {
        HKQueryPredicate(.stateOfMindLabel(label))
    }

    /// States of mind with `association`.
    public static func predicateForStatesOfMind(with association: HKStateOfMind.Association) -> NSPredicate {
        HKQueryPredicate(.stateOfMindAssociation(association))
    }

    /// Electrocardiograms with `classification`.
    ///
    /// ```swift
    /// let irregular = HKQuery.predicateForElectrocardiograms(classification: .atrialFibrillation)
    /// ```
    public static func predicateForElectrocardiograms(
        classification: HKElectrocardiogram.Classification
    ) -> NSPredicate {
        HKQueryPredicate(.electrocardiogramClassification(classification))
    }

    /// Electrocardiograms with `symptomsStatus`.
    public static func predicateForElectrocardiograms(
        symptomsStatus: HKElectrocardiogram.SymptomsStatus
    ) -> NSPredicate {
        HKQueryPredicate(.electrocardiogramSymptoms(symptomsStatus))
    }

    /// The samples associated with `electrocardiogram`: the symptoms
    /// recorded with it.
    public static func predicateForObjectsAssociated(electrocardiogram: HKElectrocardiogram) -> NSPredicate {
        HKQueryPredicate(.inWorkout(electrocardiogram.uuid))
    }

    /// Workouts of `workoutActivityType`.
    public static func predicateForWorkouts(with workoutActivityType: HKWorkoutActivityType) -> NSPredicate {
        HKQueryPredicate(.workoutActivityType(workoutActivityType))
    }

    /// Workouts whose duration compares so with `duration` seconds.
    public static func predicateForWorkouts(
        with operatorType: ComparisonOperator,
        duration: TimeInterval
    ) -> NSPredicate {
        HKQueryPredicate(
            .workoutCompare(
                property: .duration,
                operator: operatorType,
                value: HKQuantity(unit: .second(), doubleValue: duration)
            )
        )
    }

    /// Workouts whose energy burned compares so with `totalEnergyBurned`.
    public static func predicateForWorkouts(
        with operatorType: ComparisonOperator,
        totalEnergyBurned: HKQuantity
    )
        -> NSPredicate
    {
        workoutPredicate(.totalEnergyBurned, operatorType, totalEnergyBurned, unit: .kilocalorie())
    }

    /// Workouts whose distance compares so with `totalDistance`.
    public static func predicateForWorkouts(
        with operatorType: ComparisonOperator,
        totalDistance: HKQuantity
    ) -> NSPredicate {
        workoutPredicate(.totalDistance, operatorType, totalDistance, unit: .meter())
    }

    /// Workouts whose stroke count compares so with `totalSwimmingStrokeCount`.
    public static func predicateForWorkouts(
        with operatorType: ComparisonOperator,
        totalSwimmingStrokeCount: HKQuantity
    ) -> NSPredicate {
        workoutPredicate(.totalSwimmingStrokeCount, operatorType, totalSwimmingStrokeCount, unit: .count())
    }

    /// Workouts whose flights climbed compares so with `totalFlightsClimbed`.
    public static func predicateForWorkouts(
        with operatorType: ComparisonOperator,
        totalFlightsClimbed: HKQuantity
    )
        -> NSPredicate
    {
        workoutPredicate(.totalFlightsClimbed, operatorType, totalFlightsClimbed, unit: .count())
    }

    private static func workoutPredicate(
        _ property: WorkoutProperty,
        _ op: ComparisonOperator,
        _ quantity: HKQuantity,
        unit: HKUnit
    ) -> NSPredicate {
        guard quantity.is(compatibleWith: unit) else {
            programmerError(.invalid("PRED-13", "\(property) compares with \(unit.unitString)-compatible quantities"))
        }
        return HKQueryPredicate(.workoutCompare(property: property, operator: op, value: quantity))
    }

    // MARK: Quantities and categories (PRED-11, PRED-12)

    /// Quantity samples whose quantity compares so with `quantity`, after
    /// unit conversion.
    public static func predicateForQuantitySamples(
        with operatorType: ComparisonOperator,
        quantity: HKQuantity
    )
        -> NSPredicate
    {
        HKQueryPredicate(.quantityCompare(operator: operatorType, quantity: quantity))
    }

    /// Category samples whose value compares so with `value`.
    public static func predicateForCategorySamples(with operatorType: ComparisonOperator, value: Int) -> NSPredicate {
        HKQueryPredicate(.categoryValueCompare(operator: operatorType, value: value))
    }

    /// Category samples whose value is one of `values`.
    public static func predicateForCategorySamples(equalTo values: Set<Int>) -> NSPredicate {
        HKQueryPredicate(.categoryValueIn(values))
    }
}
