extension PayloadCodec {
    /// A workout after its common fields (docs/payload-format.md, kind 4).
    package static func writeWorkout(_ workout: HKWorkout, into writer: inout PayloadWriter) {
        writer.varint(UInt64(workout.workoutActivityType.rawValue))
        writer.double(workout.duration)
        let totals = [
            workout.totalEnergyBurned, workout.totalDistance, workout.totalSwimmingStrokeCount,
            workout.totalFlightsClimbed,
        ]
        var mask: UInt8 = 0
        for (index, total) in totals.enumerated() where total != nil { mask |= 1 << index }
        writer.byte(mask)
        for total in totals {
            guard let total else { continue }
            writer.double(total.value)
            writer.string(total.unit.unitString)
        }
        writeEvents(workout.workoutEvents ?? [], into: &writer)
        // Recorded statistics and activities follow only when there are
        // any, so a workout without them keeps the bytes it always had; the
        // statistics count is written (0 included) when activities follow.
        guard !workout.recordedStatistics.isEmpty || !workout.workoutActivities.isEmpty else { return }
        writeStatistics(workout.recordedStatistics, into: &writer)
        guard !workout.workoutActivities.isEmpty else { return }
        writer.varint(UInt64(workout.workoutActivities.count))
        for activity in workout.workoutActivities { writeActivity(activity, into: &writer) }
    }

    private static func writeEvents(_ events: [HKWorkoutEvent], into writer: inout PayloadWriter) {
        writer.varint(UInt64(events.count))
        for event in events {
            writer.byte(UInt8(event.type.rawValue))
            writer.date(event.dateInterval.start)
            writer.date(event.dateInterval.end)
            writeMetadata(event.typedMetadata, into: &writer)
        }
    }

    private static func writeStatistics(_ statistics: [HKStatistics], into writer: inout PayloadWriter) {
        writer.varint(UInt64(statistics.count))
        for item in statistics {
            writer.varint(UInt64(item.quantityType.kindCode))
            writer.date(item.startDate)
            writer.date(item.endDate)
            let values = item.recordedValues
            let fields = [values.sum, values.average, values.minimum, values.maximum]
            var mask: UInt8 = 0
            for (index, field) in fields.enumerated() where field != nil { mask |= 1 << index }
            writer.byte(mask)
            for field in fields { if let field { writer.double(field) } }
        }
    }

    private static func writeActivity(_ activity: HKWorkoutActivity, into writer: inout PayloadWriter) {
        let configuration = activity.configuration
        writer.uuid(activity.uuid)
        writer.varint(UInt64(configuration.activityType.rawValue))
        writer.byte(UInt8(configuration.locationType.rawValue))
        writer.byte(UInt8(configuration.swimmingLocationType.rawValue))
        writer.byte(configuration.lapLength == nil ? 0 : 1)
        if let lap = configuration.lapLength {
            writer.double(lap.value)
            writer.string(lap.unit.unitString)
        }
        writer.date(activity.startDate)
        // A stored workout's activities have ended (HKWorkout.checkActivities).
        writer.date(activity.endDate ?? activity.startDate)
        writer.double(activity.duration)
        writeMetadata(activity.typedMetadata, into: &writer)
        writeEvents(activity.workoutEvents, into: &writer)
        writeStatistics(activity.recordedStatistics, into: &writer)
    }
}
