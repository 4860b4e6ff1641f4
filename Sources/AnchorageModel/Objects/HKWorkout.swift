/// A workout: an activity over an interval, with events and totals (OBJ-21).
///
/// ```swift
/// let run = HKWorkout(
///     activityType: .running, start: start, end: end,
///     workoutEvents: nil,
///     totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 420),
///     totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 5),
///     metadata: nil)
/// run.duration   // end − start minus paused time (OBJ-22)
/// ```
public final class HKWorkout: HKSample, @unchecked Sendable {
    /// The activity.
    public let workoutActivityType: HKWorkoutActivityType
    /// Pauses, laps, segments… in date order; `nil` when there are none.
    public let workoutEvents: [HKWorkoutEvent]?
    /// The active time: end − start minus paused time (OBJ-22).
    public let duration: TimeInterval
    /// The energy burned, in an energy unit.
    public let totalEnergyBurned: HKQuantity?
    /// The distance covered, in a length unit.
    public let totalDistance: HKQuantity?
    /// Swimming strokes, as a count.
    public let totalSwimmingStrokeCount: HKQuantity?
    /// Flights of stairs climbed, as a count.
    public let totalFlightsClimbed: HKQuantity?
    /// The statistics recorded with the workout, one per quantity type, in
    /// order of type identifier (see ``allStatistics``).
    package let recordedStatistics: [HKStatistics]
    /// The workout's parts (a triathlon's legs, a structured run's
    /// intervals), in order of start date; empty for a workout of one part.
    public let workoutActivities: [HKWorkoutActivity]

    package struct Totals: Sendable, Hashable {
        package var energyBurned: HKQuantity?
        package var distance: HKQuantity?
        package var swimmingStrokeCount: HKQuantity?
        package var flightsClimbed: HKQuantity?

        package init(
            energyBurned: HKQuantity? = nil,
            distance: HKQuantity? = nil,
            swimmingStrokeCount: HKQuantity? = nil,
            flightsClimbed: HKQuantity? = nil
        ) {
            self.energyBurned = energyBurned
            self.distance = distance
            self.swimmingStrokeCount = swimmingStrokeCount
            self.flightsClimbed = flightsClimbed
        }
    }

    /// A workout's own fields, beside the common ``SampleFields``.
    package struct Parts: Sendable {
        package var activityType: HKWorkoutActivityType
        /// `nil` or empty when there are none.
        package var events: [HKWorkoutEvent]?
        package var duration: TimeInterval
        package var totals: Totals
        package var statistics: [HKStatistics]
        package var activities: [HKWorkoutActivity]

        package init(
            activityType: HKWorkoutActivityType,
            events: [HKWorkoutEvent]?,
            duration: TimeInterval,
            totals: Totals,
            statistics: [HKStatistics] = [],
            activities: [HKWorkoutActivity] = []
        ) {
            self.activityType = activityType
            self.events = events
            self.duration = duration
            self.totals = totals
            self.statistics = statistics
            self.activities = activities
        }
    }

    package init(_ parts: Parts, fields: consuming SampleFields) {
        self.recordedStatistics = parts.statistics.sorted {
            $0.quantityType.identifier < $1.quantityType.identifier
        }
        self.workoutActivities = Self.ordered(parts.activities)
        self.workoutActivityType = parts.activityType
        self.workoutEvents = parts.events.flatMap { $0.isEmpty ? nil : $0 }
        self.duration = parts.duration
        self.totalEnergyBurned = parts.totals.energyBurned
        self.totalDistance = parts.totals.distance
        self.totalSwimmingStrokeCount = parts.totals.swimmingStrokeCount
        self.totalFlightsClimbed = parts.totals.flightsClimbed
        super.init(sampleType: TypeCatalog.workout, fields: fields)
    }

    /// The workout's own fields.
    package var parts: Parts {
        Parts(
            activityType: workoutActivityType,
            events: workoutEvents,
            duration: duration,
            totals: totals,
            statistics: recordedStatistics,
            activities: workoutActivities
        )
    }

    /// The one checked door every workout is built through.
    package static func make(_ parts: Parts, _ fields: consuming SampleFields) throws(HKError) -> HKWorkout {
        try check(parts, fields)
        return HKWorkout(parts, fields: fields)
    }

    /// The rules a workout's fields must keep: the interval (OBJ-7), totals,
    /// statistics and activities (OBJ-21), the duration (OBJ-22) and the
    /// events (OBJ-23); the metadata was checked with `fields`.
    package static func check(_ parts: Parts, _ fields: borrowing SampleFields) throws(HKError) {
        try fields.checkInterval()
        try checkTotals(parts.totals)
        try checkEvents(parts.events ?? [], start: fields.start, end: fields.end)
        try checkComposition(parts, fields)
    }

    /// The rules left once the interval, totals and events have passed:
    /// statistics, activities and the duration's range.
    private static func checkComposition(_ parts: Parts, _ fields: borrowing SampleFields) throws(HKError) {
        try checkStatistics(parts.statistics)
        try checkActivities(parts.activities, start: fields.start, end: fields.end)
        guard parts.duration.isFinite, parts.duration >= 0, parts.duration <= fields.end.timeIntervalSince(fields.start)
        else {
            throw .invalid("OBJ-22", "a workout's duration must be between 0 and end − start")
        }
    }

    /// A caller's workout parts: the duration computed from the events, or
    /// an explicit one checked (OBJ-22), and every rule of ``check(_:_:)``,
    /// each checked once.
    package static func newParts(
        activityType: HKWorkoutActivityType,
        events: [HKWorkoutEvent]?,
        duration: TimeInterval?,
        totals: Totals,
        statistics: [HKStatistics] = [],
        activities: [HKWorkoutActivity] = [],
        _ fields: borrowing SampleFields
    ) throws(HKError) -> Parts {
        try fields.checkInterval()
        try checkTotals(totals)
        try checkEvents(events ?? [], start: fields.start, end: fields.end)
        let parts = Parts(
            activityType: activityType,
            events: events,
            duration: try activeDuration(
                start: fields.start,
                end: fields.end,
                events: events ?? [],
                explicit: duration
            ),
            totals: totals,
            statistics: statistics,
            activities: activities
        )
        try checkComposition(parts, fields)
        return parts
    }

    package override func with(_ fields: consuming SampleFields) -> HKSample {
        HKWorkout(parts, fields: fields)
    }

    package var totals: Totals {
        Totals(
            energyBurned: totalEnergyBurned,
            distance: totalDistance,
            swimmingStrokeCount: totalSwimmingStrokeCount,
            flightsClimbed: totalFlightsClimbed
        )
    }

    // MARK: HealthKit's initializers (stop the program on invalid arguments)

    /// A workout without events or totals; stops the program on invalid arguments.
    public convenience init(activityType: HKWorkoutActivityType, start: Date, end: Date) {
        self.init(activityType, start, end, events: nil, duration: nil, totals: Totals(), device: nil, metadata: nil)
    }

    /// A workout with events, energy and distance; stops the program on invalid arguments.
    public convenience init(
        activityType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        workoutEvents: [HKWorkoutEvent]?,
        totalEnergyBurned: HKQuantity?,
        totalDistance: HKQuantity?,
        metadata: [String: Any]?
    ) {
        self.init(
            activityType,
            start,
            end,
            events: workoutEvents,
            duration: nil,
            totals: Totals(energyBurned: totalEnergyBurned, distance: totalDistance),
            device: nil,
            metadata: metadata
        )
    }

    /// A workout with events, energy, distance and a device; stops the program on invalid arguments.
    public convenience init(
        activityType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        workoutEvents: [HKWorkoutEvent]?,
        totalEnergyBurned: HKQuantity?,
        totalDistance: HKQuantity?,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        self.init(
            activityType,
            start,
            end,
            events: workoutEvents,
            duration: nil,
            totals: Totals(energyBurned: totalEnergyBurned, distance: totalDistance),
            device: device,
            metadata: metadata
        )
    }

    /// The legacy form with an explicit duration; 0 means end − start (OBJ-22).
    public convenience init(
        activityType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        duration: TimeInterval,
        totalEnergyBurned: HKQuantity?,
        totalDistance: HKQuantity?,
        metadata: [String: Any]?
    ) {
        self.init(
            activityType,
            start,
            end,
            events: nil,
            duration: duration,
            totals: Totals(energyBurned: totalEnergyBurned, distance: totalDistance),
            device: nil,
            metadata: metadata
        )
    }

    /// The legacy form with an explicit duration and a device.
    public convenience init(
        activityType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        duration: TimeInterval,
        totalEnergyBurned: HKQuantity?,
        totalDistance: HKQuantity?,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        self.init(
            activityType,
            start,
            end,
            events: nil,
            duration: duration,
            totals: Totals(energyBurned: totalEnergyBurned, distance: totalDistance),
            device: device,
            metadata: metadata
        )
    }

    /// A swimming workout with a stroke count; stops the program on invalid arguments.
    public convenience init(
        activityType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        workoutEvents: [HKWorkoutEvent]?,
        totalEnergyBurned: HKQuantity?,
        totalDistance: HKQuantity?,
        totalSwimmingStrokeCount: HKQuantity?,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        self.init(
            activityType,
            start,
            end,
            events: workoutEvents,
            duration: nil,
            totals: Totals(
                energyBurned: totalEnergyBurned,
                distance: totalDistance,
                swimmingStrokeCount: totalSwimmingStrokeCount
            ),
            device: device,
            metadata: metadata
        )
    }

    /// A workout with flights climbed; stops the program on invalid arguments.
    public convenience init(
        activityType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        workoutEvents: [HKWorkoutEvent]?,
        totalEnergyBurned: HKQuantity?,
        totalDistance: HKQuantity?,
        totalFlightsClimbed: HKQuantity?,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        self.init(
            activityType,
            start,
            end,
            events: workoutEvents,
            duration: nil,
            totals: Totals(
                energyBurned: totalEnergyBurned,
                distance: totalDistance,
                flightsClimbed: totalFlightsClimbed
            ),
            device: device,
            metadata: metadata
        )
    }

    private convenience init(
        _ activityType: HKWorkoutActivityType,
        _ start: Date,
        _ end: Date,
        events: [HKWorkoutEvent]?,
        duration: TimeInterval?,
        totals: Totals,
        device: HKDevice?,
        metadata: [String: Any]?
    ) {
        let fields = checkedOrStop { () throws(HKError) in
            try SampleFields.new(start: start, end: end, device: device, metadata: metadata)
        }
        let parts = checkedOrStop { () throws(HKError) in
            try Self.newParts(activityType: activityType, events: events, duration: duration, totals: totals, fields)
        }
        self.init(parts, fields: fields)
    }

    /// Creates a workout, throwing when an argument is invalid.
    ///
    /// - Parameters:
    ///   - duration: an explicit active time (the legacy form); `nil` or 0
    ///     computes it from the events (OBJ-22).
    ///   - statistics: per-type statistics recorded with the workout (see
    ///     ``HKStatistics/recorded(quantityType:startDate:endDate:sum:average:minimum:maximum:)``).
    ///   - workoutActivities: the workout's parts, each ended and inside the
    ///     workout's interval.
    /// - Throws: ``HKError``: `OBJ-7` (dates), `OBJ-21` (a total in a unit of
    ///   the wrong kind, or not a finite non-negative amount; two statistics
    ///   of one type; an activity that has not ended, lies outside the
    ///   workout or appears twice), `OBJ-22` (a duration out of range),
    ///   `OBJ-23` (events out of the interval, out of order, pauses and
    ///   resumes not alternating, an instant event with a length), or a
    ///   metadata rule.
    public static func validated(
        activityType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        workoutEvents: [HKWorkoutEvent]? = nil,
        totalEnergyBurned: HKQuantity? = nil,
        totalDistance: HKQuantity? = nil,
        totalSwimmingStrokeCount: HKQuantity? = nil,
        totalFlightsClimbed: HKQuantity? = nil,
        duration: TimeInterval? = nil,
        statistics: [HKStatistics] = [],
        workoutActivities: [HKWorkoutActivity] = [],
        device: HKDevice? = nil,
        metadata: [String: Any]? = nil
    ) throws(HKError) -> HKWorkout {
        let fields = try SampleFields.new(start: start, end: end, device: device, metadata: metadata)
        let parts = try newParts(
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
            activities: workoutActivities,
            fields
        )
        return HKWorkout(parts, fields: fields)
    }

    /// Totals must be finite, non-negative amounts of the right kind (OBJ-21).
    package static func checkTotals(_ totals: Totals) throws(HKError) {
        let rules: [(HKQuantity?, HKUnit, String)] = [
            (totals.energyBurned, .kilocalorie(), "totalEnergyBurned needs an energy unit"),
            (totals.distance, .meter(), "totalDistance needs a length unit"),
            (totals.swimmingStrokeCount, .count(), "totalSwimmingStrokeCount needs a count"),
            (totals.flightsClimbed, .count(), "totalFlightsClimbed needs a count"),
        ]
        for (quantity, unit, message) in rules {
            guard let quantity else { continue }
            guard quantity.is(compatibleWith: unit) else {
                throw .invalid("OBJ-21", "\(message), not \(quantity.unit.unitString)")
            }
            guard quantity.value.isFinite, quantity.value >= 0 else {
                throw .invalid("OBJ-21", "workout totals must be finite and not negative")
            }
        }
    }

    /// Events lie inside the workout, in date order; pauses and resumes
    /// alternate starting with a pause; only laps and segments have a length
    /// (OBJ-23).
    package static func checkEvents(
        _ events: [HKWorkoutEvent],
        start: Date,
        end: Date,
        overlapping: Bool = false
    ) throws(HKError) {
        guard events.count <= maximumEvents else {
            throw .invalid("OBJ-23", "a workout may have at most \(maximumEvents) events")
        }
        var previous: Date?
        var paused = false
        for (index, event) in events.enumerated() {
            let interval = event.dateInterval
            if overlapping {
                // An activity's events: the watch writes the workout's
                // segments (a kilometre, a mile) into every interval of a
                // structured workout they overlap, so they may run before
                // and past the activity; they must overlap it.
                guard interval.end >= start, interval.start <= end else {
                    throw .invalid("OBJ-23", "event \(index) (\(event.type)) does not overlap its activity")
                }
            } else {
                guard interval.start >= start, interval.end <= end else {
                    throw .invalid("OBJ-23", "workout event \(index) (\(event.type)) lies outside the workout")
                }
            }
            if let previous, interval.start < previous {
                throw .invalid("OBJ-23", "workout event \(index) (\(event.type)) is out of date order")
            }
            previous = interval.start
            if interval.duration != 0 && event.type != .lap && event.type != .segment {
                throw .invalid(
                    "OBJ-23",
                    "only lap and segment events may have a length; event \(index) is a \(event.type)"
                )
            }
            switch event.type {
            case .pause:
                guard !paused else { throw .invalid("OBJ-23", "workout event \(index) pauses a paused workout") }
                paused = true
            case .resume:
                guard paused else {
                    throw .invalid("OBJ-23", "workout event \(index) resumes a workout that is not paused")
                }
                paused = false
            default:
                break
            }
        }
    }

    /// end − start minus the paused intervals; a pause without a resume runs
    /// to the end (OBJ-22). An explicit positive duration (the legacy form)
    /// is taken as given if it fits the interval.
    package static func activeDuration(
        start: Date,
        end: Date,
        events: [HKWorkoutEvent],
        explicit: TimeInterval?
    ) throws(HKError) -> TimeInterval {
        let total = end.timeIntervalSince(start)
        if let explicit, explicit != 0 {
            guard explicit.isFinite, explicit > 0, explicit <= total else {
                throw .invalid("OBJ-22", "a workout's duration must be positive and at most end − start")
            }
            return explicit
        }
        // Paused time within [start, end]: an activity's events may lie
        // outside it (see `checkEvents(_:start:end:overlapping:)`).
        func within(_ from: Date, _ to: Date) -> TimeInterval {
            max(0, min(to, end).timeIntervalSince(max(from, start)))
        }
        var paused: TimeInterval = 0
        var pausedAt: Date?
        for event in events {
            switch event.type {
            case .pause: pausedAt = event.dateInterval.start
            case .resume:
                if let since = pausedAt { paused += within(since, event.dateInterval.start) }
                pausedAt = nil
            default: break
            }
        }
        if let since = pausedAt { paused += within(since, end) }
        return total - paused
    }
}
