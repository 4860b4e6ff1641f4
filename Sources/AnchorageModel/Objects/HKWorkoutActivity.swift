public import Foundation

/// One part of a workout: a leg of a triathlon, an interval of a
/// structured run, with its own configuration, events and statistics.
///
/// ```swift
/// let bike = HKWorkoutConfiguration()
/// bike.activityType = .cycling
/// let leg = HKWorkoutActivity(workoutConfiguration: bike, start: t0, end: t1, metadata: nil)
/// let race = try HKWorkout.validated(
///     activityType: .swimBikeRun, start: t0, end: t2, workoutActivities: [leg, run])
/// race.workoutActivities.map(\.workoutConfiguration.activityType)   // [.cycling, .running]
/// ```
///
/// Activities are stored inside their workout: saved, replicated and
/// deleted with it. Two activities are equal when their `uuid`s are.
public final class HKWorkoutActivity: Hashable, @unchecked Sendable {
    // @unchecked: every stored property is immutable and Sendable except
    // the events and statistics, which are immutable classes.

    /// The activity's identity.
    public let uuid: UUID
    /// When the activity started.
    public let startDate: Date
    /// When it ended; `nil` while it runs (an activity of a saved workout
    /// always has an end).
    public let endDate: Date?
    /// The active time: end − start minus paused time (OBJ-22); 0 while
    /// the activity runs.
    public let duration: TimeInterval
    /// Pauses, laps, segments… of this activity, in date order.
    public let workoutEvents: [HKWorkoutEvent]
    package let configuration: HKWorkoutConfiguration.Frozen
    package let typedMetadata: HKMetadata
    /// The statistics recorded with the activity, in order of type identifier.
    package let recordedStatistics: [HKStatistics]

    package init(
        uuid: UUID,
        configuration: HKWorkoutConfiguration.Frozen,
        start: Date,
        end: Date?,
        duration: TimeInterval,
        events: [HKWorkoutEvent],
        statistics: [HKStatistics],
        metadata: HKMetadata
    ) {
        self.uuid = uuid
        self.configuration = configuration
        self.startDate = start
        self.endDate = end
        self.duration = duration
        self.workoutEvents = events
        self.recordedStatistics = statistics.sorted { $0.quantityType.identifier < $1.quantityType.identifier }
        self.typedMetadata = metadata
    }

    /// An activity without events or statistics; stops the program on
    /// invalid arguments (an end before the start, invalid metadata).
    public convenience init(
        workoutConfiguration: HKWorkoutConfiguration,
        start startDate: Date,
        end endDate: Date?,
        metadata: [String: Any]?
    ) {
        do {
            let activity = try Self.validated(
                workoutConfiguration: workoutConfiguration,
                start: startDate,
                end: endDate,
                metadata: metadata
            )
            self.init(copying: activity)
        } catch {
            programmerError(error)
        }
    }

    private convenience init(copying other: HKWorkoutActivity) {
        self.init(
            uuid: other.uuid,
            configuration: other.configuration,
            start: other.startDate,
            end: other.endDate,
            duration: other.duration,
            events: other.workoutEvents,
            statistics: other.recordedStatistics,
            metadata: other.typedMetadata
        )
    }

    /// A copy of the configuration the activity was made with.
    public var workoutConfiguration: HKWorkoutConfiguration { configuration.configuration }

    /// The activity's metadata; `nil` when it has none.
    public var metadata: [String: Any]? { typedMetadata.anyDictionary }

    /// The statistics recorded with the activity, by quantity type.
    ///
    /// ```swift
    /// let distance = leg.allStatistics[HKQuantityType(.distanceCycling)]?.sumQuantity()
    /// ```
    public var allStatistics: [HKQuantityType: HKStatistics] {
        Dictionary(recordedStatistics.map { ($0.quantityType, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The statistics recorded with the activity for `quantityType`, or
    /// `nil` when there are none.
    public func statistics(for quantityType: HKQuantityType) -> HKStatistics? {
        recordedStatistics.first { $0.quantityType == quantityType }
    }

    public static func == (lhs: HKWorkoutActivity, rhs: HKWorkoutActivity) -> Bool {
        lhs.uuid == rhs.uuid
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uuid)
    }

    // MARK: Checked construction

    /// Creates an activity, throwing when an argument is invalid: an
    /// Anchorage extension for what HealthKit's workout builders record.
    ///
    /// ```swift
    /// let leg = try HKWorkoutActivity.validated(
    ///     workoutConfiguration: bike, start: t0, end: t1,
    ///     statistics: [try .recorded(quantityType: HKQuantityType(.distanceCycling),
    ///                                startDate: t0, endDate: t1,
    ///                                sum: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 40))])
    /// ```
    ///
    /// - Parameters:
    ///   - duration: the active time; `nil` or 0 computes it from the
    ///     pauses among `workoutEvents` (OBJ-22).
    ///   - uuid: the activity's identity; `nil` makes a new one.
    /// - Throws: ``HKError``: `OBJ-7` (dates), `OBJ-21` (a lap length that
    ///   is not a positive length, two statistics of one type), `OBJ-22`
    ///   (a duration out of range), `OBJ-23` (events outside the activity or
    ///   out of order), or a metadata rule.
    public static func validated(
        workoutConfiguration: HKWorkoutConfiguration,
        start: Date,
        end: Date?,
        workoutEvents: [HKWorkoutEvent] = [],
        statistics: [HKStatistics] = [],
        duration: TimeInterval? = nil,
        uuid: UUID? = nil,
        metadata: [String: Any]? = nil
    ) throws(HKError) -> HKWorkoutActivity {
        try rebuilt(
            uuid: uuid ?? .random(),
            configuration: workoutConfiguration.frozen,
            start: start,
            end: end,
            duration: duration,
            events: workoutEvents,
            statistics: statistics,
            metadata: try HKMetadata(validating: metadata)
        )
    }

    /// An activity with typed metadata, as an importer or decoder has it.
    public static func stored(
        workoutConfiguration: HKWorkoutConfiguration,
        start: Date,
        end: Date?,
        workoutEvents: [HKWorkoutEvent] = [],
        statistics: [HKStatistics] = [],
        duration: TimeInterval?,
        uuid: UUID,
        metadata: [String: HKMetadataValue] = [:]
    ) throws(HKError) -> HKWorkoutActivity {
        try rebuilt(
            uuid: uuid,
            configuration: workoutConfiguration.frozen,
            start: start,
            end: end,
            duration: duration,
            events: workoutEvents,
            statistics: statistics,
            metadata: try HKMetadata(validatingTyped: metadata)
        )
    }

    /// Checks every argument and builds the activity.
    package static func rebuilt(
        uuid: UUID,
        configuration: HKWorkoutConfiguration.Frozen,
        start: Date,
        end: Date?,
        duration: TimeInterval?,
        events: [HKWorkoutEvent],
        statistics: [HKStatistics],
        metadata: HKMetadata
    ) throws(HKError) -> HKWorkoutActivity {
        try HKSample.checkInterval(start: start, end: end ?? start)
        if let lap = configuration.lapLength {
            guard lap.is(compatibleWith: .meter()), lap.value.isFinite, lap.value > 0 else {
                throw .invalid("OBJ-21", "a lap length must be a positive length")
            }
        }
        try HKWorkout.checkStatistics(statistics)
        guard events.count <= HKWorkout.maximumEvents else {
            throw .invalid("OBJ-23", "an activity may have at most \(HKWorkout.maximumEvents) events")
        }
        try HKWorkout.checkEvents(events, start: start, end: end ?? .distantFuture, overlapping: true)
        let active: TimeInterval
        if let end {
            active = try HKWorkout.activeDuration(start: start, end: end, events: events, explicit: duration)
        } else {
            guard duration ?? 0 == 0 else {
                throw .invalid("OBJ-22", "an activity that has not ended has no duration yet")
            }
            active = 0
        }
        return HKWorkoutActivity(
            uuid: uuid,
            configuration: configuration,
            start: start,
            end: end,
            duration: active,
            events: events,
            statistics: statistics,
            metadata: metadata
        )
    }
}
