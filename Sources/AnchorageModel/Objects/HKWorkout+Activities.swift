import Foundation

extension HKWorkout {
    /// At most this many events per workout or activity (OBJ-23).
    package static let maximumEvents = 10_000

    /// At most this many activities per workout: an Anchorage limit that
    /// bounds the cost of decoding one workout.
    public static let maximumActivities = 1_000

    /// Activities in the order a workout keeps them: by start date, then
    /// by uuid (so two equal workouts store the same bytes).
    package static func ordered(_ activities: [HKWorkoutActivity]) -> [HKWorkoutActivity] {
        activities.sorted {
            $0.startDate != $1.startDate ? $0.startDate < $1.startDate : $0.uuid.uuidString < $1.uuid.uuidString
        }
    }

    /// The activities of a workout to be stored: at most
    /// ``maximumActivities``, each ended, inside the workout, once (OBJ-21).
    /// They may touch or overlap: real exports hold both.
    package static func checkActivities(_ activities: [HKWorkoutActivity], start: Date, end: Date) throws(HKError) {
        guard activities.count <= maximumActivities else {
            throw .invalid("OBJ-21", "a workout may have at most \(maximumActivities) activities")
        }
        var seen = Set<UUID>(minimumCapacity: activities.count)
        for (index, activity) in activities.enumerated() {
            guard seen.insert(activity.uuid).inserted else {
                throw .invalid("OBJ-21", "the activity \(activity.uuid) appears twice in the workout")
            }
            guard let activityEnd = activity.endDate else {
                throw .invalid("OBJ-21", "activity \(index) has not ended; a saved workout's activities have an end")
            }
            guard activity.startDate >= start, activityEnd <= end else {
                throw .invalid("OBJ-21", "activity \(index) lies outside the workout")
            }
            for event in activity.workoutEvents
            where event.dateInterval.start < start || event.dateInterval.end > end {
                throw .invalid("OBJ-23", "an event of activity \(index) lies outside the workout")
            }
        }
    }
}
