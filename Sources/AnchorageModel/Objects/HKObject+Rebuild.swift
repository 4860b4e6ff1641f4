// Builders used by the JSON form and the binary codec: they take every
// stored field (uuid and source revision included), check every rule the
// public initializers check, and throw instead of stopping the program.

extension HKQuantitySample {
    /// A quantity sample from stored fields, of the concrete class its type's
    /// aggregation style calls for (OBJ-12).
    package static func rebuilt(
        type: HKQuantityType,
        quantity: HKQuantity,
        start: Date,
        end: Date,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice?,
        metadata: HKMetadata
    ) throws(HKError) -> HKQuantitySample {
        try checkInterval(start: start, end: end)
        try checkQuantity(type: type, quantity: quantity)
        try checkRequiredMetadata(type: type, metadata: metadata)
        return ofAggregationStyle(
            type: type,
            quantity: quantity,
            start: start,
            end: end,
            uuid: uuid,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }

    /// The sample of the concrete class `type`'s aggregation style calls for
    /// (OBJ-12), from fields the caller has already checked.
    package static func ofAggregationStyle(
        type: HKQuantityType,
        quantity: HKQuantity,
        start: Date,
        end: Date,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice?,
        metadata: HKMetadata
    ) -> HKQuantitySample {
        if type.aggregationStyle == .cumulative {
            return HKCumulativeQuantitySample(
                type: type,
                quantity: quantity,
                start: start,
                end: end,
                uuid: uuid,
                sourceRevision: sourceRevision,
                device: device,
                metadata: metadata
            )
        }
        return HKDiscreteQuantitySample(
            type: type,
            quantity: quantity,
            start: start,
            end: end,
            uuid: uuid,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }
}

extension HKCategorySample {
    package static func rebuilt(
        type: HKCategoryType,
        value: Int,
        start: Date,
        end: Date,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice?,
        metadata: HKMetadata
    ) throws(HKError) -> HKCategorySample {
        try checkInterval(start: start, end: end)
        try checkValue(type: type, value: value)
        try checkRequiredMetadata(type: type, metadata: metadata)
        return HKCategorySample(
            type: type,
            value: value,
            start: start,
            end: end,
            uuid: uuid,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }
}

extension HKCorrelation {
    package static func rebuilt(
        type: HKCorrelationType,
        start: Date,
        end: Date,
        objects: Set<HKSample>,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice?,
        metadata: HKMetadata
    ) throws(HKError) -> HKCorrelation {
        try checkInterval(start: start, end: end)
        try checkMembers(type: type, objects: objects)
        return HKCorrelation(
            type: type,
            start: start,
            end: end,
            objects: objects,
            uuid: uuid,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
    }
}

extension HKWorkout {
    package static func rebuilt(
        activityType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        events: [HKWorkoutEvent]?,
        duration: TimeInterval,
        totals: Totals,
        uuid: UUID,
        sourceRevision: HKSourceRevision,
        device: HKDevice?,
        metadata: HKMetadata,
        statistics: [HKStatistics] = [],
        activities: [HKWorkoutActivity] = []
    ) throws(HKError) -> HKWorkout {
        try checkInterval(start: start, end: end)
        try checkTotals(totals)
        try checkStatistics(statistics)
        try checkEvents(events ?? [], start: start, end: end)
        try checkActivities(activities, start: start, end: end)
        guard duration.isFinite, duration >= 0, duration <= end.timeIntervalSince(start) else {
            throw .invalid("OBJ-22", "a workout's duration must be between 0 and end − start")
        }
        return HKWorkout(
            activityType: activityType,
            start: start,
            end: end,
            events: events.flatMap { $0.isEmpty ? nil : $0 },
            duration: duration,
            totals: totals,
            uuid: uuid,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata,
            statistics: statistics,
            activities: activities
        )
    }
}
