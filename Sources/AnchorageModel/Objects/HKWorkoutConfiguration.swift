/// How a workout or one of its activities was done: the activity, indoors
/// or outdoors, in a pool or open water, and a pool's lap length.
///
/// ```swift
/// let swim = HKWorkoutConfiguration()
/// swim.activityType = .swimming
/// swim.swimmingLocationType = .pool
/// swim.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
/// let part = HKWorkoutActivity(workoutConfiguration: swim, start: start, end: end, metadata: nil)
/// ```
///
/// A mutable value holder, as in HealthKit: an ``HKWorkoutActivity`` keeps
/// a copy of the configuration it was made with, so changing this object
/// later changes nothing stored.
public final class HKWorkoutConfiguration: Hashable {
    /// The activity; `.other` until set.
    public var activityType: HKWorkoutActivityType = .other
    /// Indoors, outdoors or unknown.
    public var locationType: HKWorkoutSessionLocationType = .unknown
    /// A pool or open water, for swimming.
    public var swimmingLocationType: HKWorkoutSwimmingLocationType = .unknown
    /// The length of one pool lap, for pool swimming (a length unit).
    public var lapLength: HKQuantity?

    /// A configuration of an `.other` activity at an unknown location.
    public init() {}

    package init(
        activityType: HKWorkoutActivityType,
        locationType: HKWorkoutSessionLocationType,
        swimmingLocationType: HKWorkoutSwimmingLocationType,
        lapLength: HKQuantity?
    ) {
        self.activityType = activityType
        self.locationType = locationType
        self.swimmingLocationType = swimmingLocationType
        self.lapLength = lapLength
    }

    /// A copy (HealthKit's `copy()` from `NSCopying`).
    public func copy() -> HKWorkoutConfiguration {
        HKWorkoutConfiguration(
            activityType: activityType,
            locationType: locationType,
            swimmingLocationType: swimmingLocationType,
            lapLength: lapLength
        )
    }

    /// Two configurations are equal when every property is.
    public static func == (lhs: HKWorkoutConfiguration, rhs: HKWorkoutConfiguration) -> Bool {
        lhs.activityType == rhs.activityType && lhs.locationType == rhs.locationType
            && lhs.swimmingLocationType == rhs.swimmingLocationType && lhs.lapLength == rhs.lapLength
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(activityType)
        hasher.combine(locationType)
        hasher.combine(swimmingLocationType)
    }

    /// The configuration's values, frozen (what an activity stores).
    package var frozen: Frozen {
        Frozen(
            activityType: activityType,
            locationType: locationType,
            swimmingLocationType: swimmingLocationType,
            lapLength: lapLength
        )
    }

    /// A configuration's values as a value type, safe to share.
    package struct Frozen: Hashable, Sendable {
        package var activityType: HKWorkoutActivityType
        package var locationType: HKWorkoutSessionLocationType = .unknown
        package var swimmingLocationType: HKWorkoutSwimmingLocationType = .unknown
        package var lapLength: HKQuantity?

        package var configuration: HKWorkoutConfiguration {
            HKWorkoutConfiguration(
                activityType: activityType,
                locationType: locationType,
                swimmingLocationType: swimmingLocationType,
                lapLength: lapLength
            )
        }
    }
}
