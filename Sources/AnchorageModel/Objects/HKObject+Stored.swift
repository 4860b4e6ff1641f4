public import Foundation

// Objects with every stored field given — uuid and source revision
// included — for importers, replicas and services that receive objects
// made elsewhere. They check every rule the initializers check and throw
// an `HKError` instead of stopping the program, so untrusted input cannot
// crash the process.

extension HKQuantitySample {
    /// A quantity sample with the given identity and source.
    ///
    /// ```swift
    /// let sample = try HKQuantitySample.stored(type: steps, quantity: HKQuantity(unit: .count(), doubleValue: 42),
    ///                                          start: start, end: end, uuid: id,
    ///                                          sourceRevision: HKSourceRevision(source: phone, version: "17.1"))
    /// ```
    ///
    /// - Throws: ``HKError`` for a quantity the type does not accept, an end
    ///   before the start, or metadata breaking its rules.
    public static func stored(
        type: HKQuantityType,
        quantity: HKQuantity,
        start: Date,
        end: Date,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice? = nil,
        metadata: [String: HKMetadataValue] = [:]
    ) throws(HKError) -> HKQuantitySample {
        try make(type: type, quantity: quantity, .given(start, end, uuid, sourceRevision, device, metadata))
    }
}

extension HKCategorySample {
    /// A category sample with the given identity and source.
    ///
    /// - Throws: ``HKError`` for a value the type does not accept, an end
    ///   before the start, or invalid metadata.
    public static func stored(
        type: HKCategoryType,
        value: Int,
        start: Date,
        end: Date,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice? = nil,
        metadata: [String: HKMetadataValue] = [:]
    ) throws(HKError) -> HKCategorySample {
        try make(type: type, value: value, .given(start, end, uuid, sourceRevision, device, metadata))
    }
}

extension HKCorrelation {
    /// A correlation with the given identity and source.
    ///
    /// - Throws: ``HKError`` for members the type does not allow (OBJ-18,
    ///   OBJ-19), an end before the start, or invalid metadata.
    public static func stored(
        type: HKCorrelationType,
        start: Date,
        end: Date,
        objects: Set<HKSample>,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice? = nil,
        metadata: [String: HKMetadataValue] = [:]
    ) throws(HKError) -> HKCorrelation {
        try make(type: type, objects: objects, .given(start, end, uuid, sourceRevision, device, metadata))
    }
}

extension HKWorkout {
    /// A workout with the given identity and source.
    ///
    /// `statistics` are the per-type statistics recorded with the workout
    /// (made with ``HKStatistics/recorded(quantityType:startDate:endDate:sum:average:minimum:maximum:)``),
    /// which ``HKWorkout/statistics(for:)`` answers from; `workoutActivities`
    /// its parts (``HKWorkoutActivity``).
    ///
    /// - Throws: ``HKError`` for totals in the wrong units, a duration
    ///   longer than the interval, events outside it, two statistics of one
    ///   type, activities outside it, or invalid metadata.
    public static func stored(
        activityType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        workoutEvents: [HKWorkoutEvent]? = nil,
        duration: TimeInterval,
        totalEnergyBurned: HKQuantity? = nil,
        totalDistance: HKQuantity? = nil,
        totalSwimmingStrokeCount: HKQuantity? = nil,
        totalFlightsClimbed: HKQuantity? = nil,
        statistics: [HKStatistics] = [],
        workoutActivities: [HKWorkoutActivity] = [],
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice? = nil,
        metadata: [String: HKMetadataValue] = [:]
    ) throws(HKError) -> HKWorkout {
        let parts = Parts(
            activityType: activityType,
            events: workoutEvents,
            duration: duration,
            totals: Totals(
                energyBurned: totalEnergyBurned,
                distance: totalDistance,
                swimmingStrokeCount: totalSwimmingStrokeCount,
                flightsClimbed: totalFlightsClimbed
            ),
            statistics: statistics,
            activities: workoutActivities
        )
        return try make(parts, .given(start, end, uuid, sourceRevision, device, metadata))
    }
}
