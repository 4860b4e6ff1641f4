import Anchorage
import Foundation

extension ExportObjects {
    /// A workout's `WorkoutActivity` children (iOS 16+: a triathlon's legs,
    /// a structured run's intervals), for `HKWorkout.workoutActivities`.
    ///
    /// Exports give an activity its uuid, interval, duration, events,
    /// statistics and metadata, not its activity type: each takes the
    /// workout's, and its location from `HKIndoorWorkout` /
    /// `HKSwimmingLocationType` / `HKLapLength` metadata (its own, else the
    /// workout's). An activity the store cannot hold (no dates, outside the
    /// workout, a uuid seen before in the workout, events it rejects) is
    /// left out and counted in ``leftOut``: the workout itself is kept. A
    /// uuid that is not a uuid (hand-made exports) is replaced by one
    /// derived from the activity's content.
    mutating func workoutActivities(
        _ element: ExportElement,
        workoutType: HKWorkoutActivityType,
        start: Date,
        end: Date,
        workoutMetadata: [String: HKMetadataValue]
    ) -> [HKWorkoutActivity] {
        var result: [HKWorkoutActivity] = []
        var seen = Set<UUID>()
        for child in element.children(.workoutActivity) where result.count < HKWorkout.maximumActivities {
            do throws(Rejection) {
                let activity = try workoutActivity(
                    child,
                    workoutType: workoutType,
                    inherited: workoutMetadata,
                    workoutEnd: end
                )
                guard activity.startDate >= start, let activityEnd = activity.endDate, activityEnd <= end else {
                    throw Rejection(reason: "an activity outside its workout")
                }
                guard seen.insert(activity.uuid).inserted else {
                    throw Rejection(reason: "an activity listed twice")
                }
                result.append(activity)
            } catch {
                leftOut["WorkoutActivity (\(error.reason))", default: 0] += 1
            }
        }
        return result
    }

    private mutating func workoutActivity(
        _ element: ExportElement,
        workoutType: HKWorkoutActivityType,
        inherited: [String: HKMetadataValue],
        workoutEnd: Date
    ) throws(Rejection) -> HKWorkoutActivity {
        var (start, end) = try interval(element)
        // Whole-second dates: an activity ending up to a second past its
        // workout ends with it.
        if end > workoutEnd, end.timeIntervalSince(workoutEnd) <= Self.workoutTolerance {
            end = workoutEnd
            start = min(start, end)
            clamped += 1
        }
        let given = try quantity(element, .duration, unitKey: .durationUnit, defaultUnit: "min")?
            .doubleValue(for: .second())
        // An activity's events may run before and past it (the workout's
        // segments, written into each interval they overlap), within the
        // workout; those ending past the workout are clamped to its end.
        let events = try events(
            of: element,
            within: DateInterval(start: start, end: max(start, workoutEnd)),
            tolerance: Self.activityEventTolerance
        )
        let statistics = workoutStatistics(element)
        let metadata = Self.metadata(element)
        func setting(_ key: String) -> HKMetadataValue? {
            metadata[key] ?? inherited[key]
        }
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = workoutType
        if case .integer(let indoor)? = setting(HKMetadataKeyIndoorWorkout) {
            configuration.locationType = indoor == 1 ? .indoor : .outdoor
        }
        if case .integer(let raw)? = setting(HKMetadataKeySwimmingLocationType),
            let location = HKWorkoutSwimmingLocationType(rawValue: Int(raw))
        {
            configuration.swimmingLocationType = location
        }
        configuration.lapLength = Self.lapLength(setting(HKMetadataKeyLapLength))
        // The export's own uuid (in a second identical workout, one derived from it), else one from its content.
        let uuid =
            element[.uuid].flatMap(UUID.init(uuidString:)).map { given in
                occurrence > 1 ? Self.derived(from: given, label: "occurrence \(occurrence)") : given
            } ?? identifier(of: element)
        return try Self.checked { () throws(HKError) in
            try HKWorkoutActivity.stored(
                workoutConfiguration: configuration,
                start: start,
                end: end,
                workoutEvents: events,
                statistics: statistics,
                duration: given.map { min(max($0, 0), end.timeIntervalSince(start)) },
                uuid: uuid,
                metadata: metadata
            )
        }
    }

    /// A lap length as exports write it (`"25 m"`), or `nil`.
    private static func lapLength(_ value: HKMetadataValue?) -> HKQuantity? {
        switch value {
        case .quantity(let quantity)?:
            return quantity.is(compatibleWith: .meter()) && quantity.doubleValue(for: .meter()) > 0 ? quantity : nil
        case .string(let text)?:
            let parts = text.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let number = Double(parts[0]), number.isFinite, number > 0,
                let unit = try? HKUnit.parse(String(parts[1])), unit.isCompatible(with: .meter())
            else { return nil }
            return HKQuantity(unit: unit, doubleValue: number)
        default:
            return nil
        }
    }
}
