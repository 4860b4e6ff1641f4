import Foundation

extension HKSample {
    /// The same sample saved by `revision` (OBJ-2): a store assigns the
    /// saving app's revision, whatever the caller's object carried.
    /// Correlation members are restamped too; `objects` replaces the
    /// members of a correlation when given.
    package func restamped(_ revision: HKSourceRevision, members: Set<HKSample>? = nil) -> HKSample {
        switch self {
        case let sample as HKQuantitySample:
            return HKQuantitySample.ofAggregationStyle(
                type: sample.quantityType,
                quantity: sample.quantity,
                start: startDate,
                end: endDate,
                uuid: uuid,
                sourceRevision: revision,
                device: device,
                metadata: typedMetadata
            )
        case let sample as HKCategorySample:
            return HKCategorySample(
                type: sample.categoryType,
                value: sample.value,
                start: startDate,
                end: endDate,
                uuid: uuid,
                sourceRevision: revision,
                device: device,
                metadata: typedMetadata
            )
        case let correlation as HKCorrelation:
            return HKCorrelation(
                type: correlation.correlationType,
                start: startDate,
                end: endDate,
                objects: members ?? Set(correlation.objects.map { $0.restamped(revision) }),
                uuid: uuid,
                sourceRevision: revision,
                device: device,
                metadata: typedMetadata
            )
        case let workout as HKWorkout:
            return HKWorkout(
                activityType: workout.workoutActivityType,
                start: startDate,
                end: endDate,
                events: workout.workoutEvents,
                duration: workout.duration,
                totals: HKWorkout.Totals(
                    energyBurned: workout.totalEnergyBurned,
                    distance: workout.totalDistance,
                    swimmingStrokeCount: workout.totalSwimmingStrokeCount,
                    flightsClimbed: workout.totalFlightsClimbed
                ),
                uuid: uuid,
                sourceRevision: revision,
                device: device,
                metadata: typedMetadata,
                statistics: workout.recordedStatistics,
                activities: workout.workoutActivities
            )
        default:
            return self
        }
    }

    /// The same correlation with other members: the visible ones, when a
    /// store returns it (CQ-4, OBJ-36).
    package func withMembers(_ members: Set<HKSample>) -> HKSample {
        guard self is HKCorrelation else { return self }
        return restamped(sourceRevision, members: members)
    }
}
