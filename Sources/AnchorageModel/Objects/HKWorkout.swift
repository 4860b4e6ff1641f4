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

    package init(
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
    ) {
        self.recordedStatistics = statistics.sorted {
            $0.quantityType.identifier < $1.quantityType.identifier
        }
        self.workoutActivities = Self.ordered(activities)
        self.workoutActivityType = activityType
        self.workoutEvents = events
        self.duration = duration
        self.totalEnergyBurned = totals.energyBurned
        self.totalDistance = totals.distance
        self.totalSwimmingStrokeCount = totals.swimmingStrokeCount
        self.totalFlightsClimbed = totals.flightsClimbed
        super.init(
            sampleType: TypeCatalog.workout,
            startDate: start,
            endDate: end,
            uuid: uuid,
            sourceRevision: sourceRevision,
            device: device,
            metadata: metadata
        )
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
        let checked: (HKMetadata, TimeInterval)
        do {
            checked = try Self.check(
                start: start,
                end: end,
                events: events,
                duration: duration,
                totals: totals,
                metadata: metadata
            )
        } catch {
            programmerError(error)
        }
        self.init(
            activityType: activityType,
            start: start,
            end: end,
            events: events.flatMap { $0.isEmpty ? nil : $0 },
            duration: checked.1,
            totals: totals,
            uuid: .random(),
            sourceRevision: .local,
            device: device,
            metadata: checked.0
        )
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
        let totals = Totals(
            energyBurned: totalEnergyBurned,
            distance: totalDistance,
            swimmingStrokeCount: totalSwimmingStrokeCount,
            flightsClimbed: totalFlightsClimbed
        )
        let checked = try check(
            start: start,
            end: end,
            events: workoutEvents,
            duration: duration,
            totals: totals,
            metadata: metadata
        )
        try checkStatistics(statistics)
        try checkActivities(workoutActivities, start: start, end: end)
        return HKWorkout(
            activityType: activityType,
            start: start,
            end: end,
            events: workoutEvents.flatMap { $0.isEmpty ? nil : $0 },
            duration: checked.1,
            totals: totals,
            uuid: .random(),
            sourceRevision: .local,
            device: device,
            metadata: checked.0,
            statistics: statistics,
            activities: workoutActivities
        )
    }

    package static func check(
        start: Date,
        end: Date,
        events: [HKWorkoutEvent]?,
        duration: TimeInterval?,
        totals: Totals,
        metadata: [String: Any]?
    ) throws(HKError) -> (HKMetadata, TimeInterval) {
        try checkInterval(start: start, end: end)
        try checkTotals(totals)
        try checkEvents(events ?? [], start: start, end: end)
        let computed = try activeDuration(start: start, end: end, events: events ?? [], explicit: duration)
        return (try HKMetadata(validating: metadata), computed)
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
    package static func checkEvents(_ events: [HKWorkoutEvent], start: Date, end: Date) throws(HKError) {
        guard events.count <= maximumEvents else {
            throw .invalid("OBJ-23", "a workout may have at most \(maximumEvents) events")
        }
        var previous: Date?
        var paused = false
        for (index, event) in events.enumerated() {
            let interval = event.dateInterval
            guard interval.start >= start, interval.end <= end else {
                throw .invalid("OBJ-23", "workout event \(index) (\(event.type)) lies outside the workout")
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
        var paused: TimeInterval = 0
        var pausedAt: Date?
        for event in events {
            switch event.type {
            case .pause: pausedAt = event.dateInterval.start
            case .resume:
                if let since = pausedAt { paused += event.dateInterval.start.timeIntervalSince(since) }
                pausedAt = nil
            default: break
            }
        }
        if let since = pausedAt { paused += end.timeIntervalSince(since) }
        return total - paused
    }
}
