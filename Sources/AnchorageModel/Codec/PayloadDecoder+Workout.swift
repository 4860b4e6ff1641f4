import Foundation

extension PayloadDecoder {
    /// A workout after its common fields (docs/payload-format.md, kind 4):
    /// activity type, duration, totals, events, then the optional recorded
    /// statistics and activities.
    package mutating func readWorkout(
        _ reader: inout PayloadReader,
        _ fields: consuming SampleFields
    ) throws(HKError) -> HKWorkout {
        let raw = try reader.varint("the activity type")
        guard raw <= UInt64(UInt.max), let activity = HKWorkoutActivityType(rawValue: UInt(raw)) else {
            throw .invalid("OBJ-21", "\(raw) is not a workout activity type")
        }
        let duration = try reader.double("the duration")
        let mask = try reader.byte("the totals")
        guard mask & ~15 == 0 else { throw .invalid("PAYLOAD-2", "the workout totals mask \(mask) is not valid") }
        var totals: [HKQuantity?] = []
        for index in 0..<4 {
            if mask & (1 << index) != 0 {
                let value = try reader.double("a workout total")
                totals.append(HKQuantity(unit: try readUnit(&reader), doubleValue: value))
            } else {
                totals.append(nil)
            }
        }
        let events = try readEvents(&reader)
        var statistics: [HKStatistics] = []
        var activities: [HKWorkoutActivity] = []
        if !reader.isAtEnd {
            statistics = try readWorkoutStatistics(&reader)
            if !reader.isAtEnd {
                activities = try readActivities(&reader)
            } else if statistics.isEmpty {
                throw .invalid("PAYLOAD-2", "a workout lists no statistics and no activities follow")
            }
        }
        let parts = HKWorkout.Parts(
            activityType: activity,
            events: events,
            duration: duration,
            totals: HKWorkout.Totals(
                energyBurned: totals[0],
                distance: totals[1],
                swimmingStrokeCount: totals[2],
                flightsClimbed: totals[3]
            ),
            statistics: statistics,
            activities: activities
        )
        return try HKWorkout.make(parts, fields)
    }

    /// A count of events, then per event its type, interval and metadata.
    private mutating func readEvents(_ reader: inout PayloadReader) throws(HKError) -> [HKWorkoutEvent] {
        let count = try reader.count("the number of workout events", limit: Self.maximumEvents)
        var events: [HKWorkoutEvent] = []
        for _ in 0..<min(count, reader.remaining) {
            guard let type = HKWorkoutEventType(rawValue: Int(try reader.byte("a workout event's type"))) else {
                throw .invalid("OBJ-23", "a workout event's type is unknown")
            }
            let eventStart = try reader.date("a workout event's start")
            let eventEnd = try reader.date("a workout event's end")
            guard eventStart <= eventEnd else { throw .invalid("OBJ-23", "a workout event ends before it starts") }
            let eventMetadata = try readMetadata(&reader)
            events.append(
                HKWorkoutEvent(
                    type: type,
                    dateInterval: DateInterval(start: eventStart, end: eventEnd),
                    typedMetadata: eventMetadata
                )
            )
        }
        guard events.count == count else { throw PayloadReader.truncated("the workout events") }
        return events
    }

    /// Recorded statistics: a count, then per statistic the quantity
    /// type's code, the interval, a mask of the values present (sum,
    /// average, minimum, maximum) and those values in the type's canonical
    /// unit.
    private func readWorkoutStatistics(_ reader: inout PayloadReader) throws(HKError) -> [HKStatistics] {
        let count = try reader.count("the number of workout statistics", limit: HKWorkout.maximumStatistics)
        var statistics: [HKStatistics] = []
        for _ in 0..<min(count, reader.remaining) {
            let code = try reader.varint("a workout statistic's type")
            guard code <= UInt64(UInt32.max),
                let type = TypeCatalog.sampleType(forKindCode: UInt32(code)) as? HKQuantityType
            else { throw .invalid("PAYLOAD-2", "a workout statistic's type code \(code) is not a quantity type") }
            let start = try reader.date("a workout statistic's start")
            let end = try reader.date("a workout statistic's end")
            let mask = try reader.byte("a workout statistic's values")
            guard mask & ~15 == 0 else {
                throw .invalid("PAYLOAD-2", "the workout statistic mask \(mask) is not valid")
            }
            var fields: [Double?] = []
            for index in 0..<4 {
                fields.append(mask & (1 << index) != 0 ? try reader.double("a workout statistic") : nil)
            }
            statistics.append(
                try HKStatistics.recorded(
                    quantityType: type,
                    startDate: start,
                    endDate: end,
                    values: StatisticsValues(sum: fields[0], average: fields[1], minimum: fields[2], maximum: fields[3])
                )
            )
        }
        guard statistics.count == count else { throw PayloadReader.truncated("the workout statistics") }
        return statistics
    }

    /// A workout's activities: a count (at least 1), then per activity its
    /// uuid, configuration, interval, duration, metadata, events and
    /// statistics.
    private mutating func readActivities(_ reader: inout PayloadReader) throws(HKError) -> [HKWorkoutActivity] {
        let count = try reader.count("the number of workout activities", limit: HKWorkout.maximumActivities)
        guard count > 0 else { throw .invalid("PAYLOAD-2", "a workout's activity list is empty") }
        var activities: [HKWorkoutActivity] = []
        for _ in 0..<min(count, reader.remaining) {
            let uuid = try reader.uuid("an activity's uuid")
            let raw = try reader.varint("an activity's type")
            guard raw <= UInt64(UInt.max), let type = HKWorkoutActivityType(rawValue: UInt(raw)) else {
                throw .invalid("OBJ-21", "\(raw) is not a workout activity type")
            }
            guard let location = HKWorkoutSessionLocationType(rawValue: Int(try reader.byte("a location type"))),
                let swimming = HKWorkoutSwimmingLocationType(rawValue: Int(try reader.byte("a swimming location")))
            else { throw .invalid("PAYLOAD-2", "an activity's location type is unknown") }
            let flags = try reader.byte("an activity's flags")
            guard flags & ~1 == 0 else { throw .invalid("PAYLOAD-2", "the activity flags \(flags) are not valid") }
            var lapLength: HKQuantity?
            if flags & 1 != 0 {
                let value = try reader.double("a lap length")
                lapLength = HKQuantity(unit: try readUnit(&reader), doubleValue: value)
            }
            let start = try reader.date("an activity's start")
            let end = try reader.date("an activity's end")
            let duration = try reader.double("an activity's duration")
            let metadata = try readMetadata(&reader)
            let events = try readEvents(&reader)
            let statistics = try readWorkoutStatistics(&reader)
            let activity = try HKWorkoutActivity.rebuilt(
                uuid: uuid,
                configuration: .init(
                    activityType: type,
                    locationType: location,
                    swimmingLocationType: swimming,
                    lapLength: lapLength
                ),
                start: start,
                end: end,
                duration: duration,
                events: events,
                statistics: statistics,
                metadata: metadata
            )
            // A stored duration is kept as it was written, 0 included.
            guard activity.duration == duration else {
                throw .invalid("OBJ-22", "an activity's duration must be between 0 and end − start")
            }
            activities.append(activity)
        }
        guard activities.count == count else { throw PayloadReader.truncated("the workout activities") }
        guard zip(HKWorkout.ordered(activities), activities).allSatisfy({ $0 === $1 }) else {
            throw .invalid("PAYLOAD-2", "a workout's activities are not in order of start date")
        }
        return activities
    }
}
