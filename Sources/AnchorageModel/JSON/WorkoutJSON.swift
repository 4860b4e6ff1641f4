import Foundation

/// A workout's recorded statistics in JSON: `{"type": "HKQuantityType…",
/// "start": …, "end": …, "sum": {"unit": …, "value": …}}`, with `average`,
/// `minimum` and `maximum` beside or instead of `sum`, in the type's
/// canonical unit.
package struct StatisticsJSON: Codable {
    package var type: String
    package var start: String
    package var end: String
    package var sum: HKQuantity?
    package var average: HKQuantity?
    package var minimum: HKQuantity?
    package var maximum: HKQuantity?

    package init(_ statistics: HKStatistics) {
        type = statistics.quantityType.identifier
        start = ISO8601.format(statistics.startDate)
        end = ISO8601.format(statistics.endDate)
        let values = statistics.recordedValues
        let unit = statistics.quantityType.canonicalUnit
        sum = values.sum.map { HKQuantity(unit: unit, doubleValue: $0) }
        average = values.average.map { HKQuantity(unit: unit, doubleValue: $0) }
        minimum = values.minimum.map { HKQuantity(unit: unit, doubleValue: $0) }
        maximum = values.maximum.map { HKQuantity(unit: unit, doubleValue: $0) }
    }

    package func statistics() throws(HKError) -> HKStatistics {
        guard let quantityType = HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: type))
        else { throw .invalid("OBJ-21", "a workout statistic's type \(type.prefix(100)) is not a quantity type") }
        guard let startDate = ISO8601.parse(start), let endDate = ISO8601.parse(end) else {
            throw .invalid("OBJ-7", "a workout statistic needs ISO 8601 start and end dates")
        }
        return try HKStatistics.recorded(
            quantityType: quantityType,
            startDate: startDate,
            endDate: endDate,
            sum: sum,
            average: average,
            minimum: minimum,
            maximum: maximum
        )
    }
}

/// A workout event in JSON: `{"type": 1, "start": …, "end": …, "metadata": …}`.
package struct EventJSON: Codable {
    package var type: Int
    package var start: String
    package var end: String
    package var metadata: [String: HKMetadataValue]?

    package init(_ event: HKWorkoutEvent) {
        type = event.type.rawValue
        start = ISO8601.format(event.dateInterval.start)
        end = ISO8601.format(event.dateInterval.end)
        metadata = event.typedMetadata.isEmpty ? nil : event.typedMetadata.values
    }

    package func event() throws(HKError) -> HKWorkoutEvent {
        guard let kind = HKWorkoutEventType(rawValue: type) else {
            throw .invalid("OBJ-23", "\(type) is not a workout event type")
        }
        guard let startDate = ISO8601.parse(start), let endDate = ISO8601.parse(end), startDate <= endDate else {
            throw .invalid("OBJ-23", "a workout event needs ISO 8601 start and end dates, start not after end")
        }
        return HKWorkoutEvent(
            type: kind,
            dateInterval: DateInterval(start: startDate, end: endDate),
            typedMetadata: try HKMetadata(validatingTyped: metadata ?? [:])
        )
    }
}

/// A workout activity in JSON: `{"uuid": …, "workoutActivityType": 13,
/// "locationType": 2, "swimmingLocationType": 0, "lapLength": …, "start": …,
/// "end": …, "duration": …, "workoutEvents": […], "statistics": […],
/// "metadata": {…}}`; only `uuid`, `workoutActivityType`, `start` and `end`
/// are required.
package struct ActivityJSON: Codable {
    package var uuid: UUID
    package var workoutActivityType: UInt
    package var locationType: Int?
    package var swimmingLocationType: Int?
    package var lapLength: HKQuantity?
    package var start: String
    package var end: String
    package var duration: Double?
    package var workoutEvents: [EventJSON]?
    package var statistics: [StatisticsJSON]?
    package var metadata: [String: HKMetadataValue]?

    package init(_ activity: HKWorkoutActivity) {
        let configuration = activity.configuration
        uuid = activity.uuid
        workoutActivityType = configuration.activityType.rawValue
        locationType = configuration.locationType.rawValue
        swimmingLocationType = configuration.swimmingLocationType.rawValue
        lapLength = configuration.lapLength
        start = ISO8601.format(activity.startDate)
        end = ISO8601.format(activity.endDate ?? activity.startDate)
        duration = activity.duration
        workoutEvents = activity.workoutEvents.isEmpty ? nil : activity.workoutEvents.map(EventJSON.init)
        statistics = activity.recordedStatistics.isEmpty ? nil : activity.recordedStatistics.map(StatisticsJSON.init)
        metadata = activity.typedMetadata.isEmpty ? nil : activity.typedMetadata.values
    }

    package func activity() throws(HKError) -> HKWorkoutActivity {
        guard let type = HKWorkoutActivityType(rawValue: workoutActivityType) else {
            throw .invalid("OBJ-21", "\(workoutActivityType) is not a workout activity type")
        }
        // Absent location types are unknown, as in a new HKWorkoutConfiguration.
        let location = locationType.map { HKWorkoutSessionLocationType(rawValue: $0) } ?? .unknown
        let swimming = swimmingLocationType.map { HKWorkoutSwimmingLocationType(rawValue: $0) } ?? .unknown
        guard let location, let swimming else {
            throw .invalid(
                "OBJ-21",
                "an activity's locationType is 1, 2 or 3 and its swimmingLocationType 0, 1 or 2"
            )
        }
        guard let startDate = ISO8601.parse(start), let endDate = ISO8601.parse(end) else {
            throw .invalid("OBJ-7", "a workout activity needs ISO 8601 start and end dates")
        }
        var events: [HKWorkoutEvent] = []
        for event in workoutEvents ?? [] { events.append(try event.event()) }
        var recorded: [HKStatistics] = []
        for item in statistics ?? [] { recorded.append(try item.statistics()) }
        return try HKWorkoutActivity.rebuilt(
            uuid: uuid,
            configuration: .init(
                activityType: type,
                locationType: location,
                swimmingLocationType: swimming,
                lapLength: lapLength
            ),
            start: startDate,
            end: endDate,
            duration: duration,
            events: events,
            statistics: recorded,
            metadata: try HKMetadata(validatingTyped: metadata ?? [:])
        )
    }
}
