import Foundation

/// An activity summary in JSON: its day as `date` (`2026-01-09`), then
/// HealthKit's property names, quantities as `{"unit": …, "value": …}` in
/// the unit they were saved in; the optional goals only when set.
///
/// ```json
/// {"activeEnergyBurned": {"unit": "kcal", "value": 702.2}, "activityMoveMode": 1, "date": "2026-01-09", …}
/// ```
extension HKActivitySummary: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ActivitySummaryRecord.CodingKeys.self)
        try container.encodeIfPresent(day?.text, forKey: .day)
        try container.encode(activityMoveMode.rawValue, forKey: .activityMoveMode)
        try container.encode(isPaused, forKey: .isPaused)
        try container.encode(activeEnergyBurned, forKey: .activeEnergyBurned)
        try container.encode(activeEnergyBurnedGoal, forKey: .activeEnergyBurnedGoal)
        try container.encode(appleMoveTime, forKey: .appleMoveTime)
        try container.encode(appleMoveTimeGoal, forKey: .appleMoveTimeGoal)
        try container.encode(appleExerciseTime, forKey: .appleExerciseTime)
        try container.encode(appleExerciseTimeGoal, forKey: .appleExerciseTimeGoal)
        try container.encodeIfPresent(exerciseTimeGoal, forKey: .exerciseTimeGoal)
        try container.encode(appleStandHours, forKey: .appleStandHours)
        try container.encode(appleStandHoursGoal, forKey: .appleStandHoursGoal)
        try container.encodeIfPresent(standHoursGoal, forKey: .standHoursGoal)
    }
}

extension ActivitySummaryRecord {
    package enum CodingKeys: String, CodingKey {
        case day = "date"
        case activityMoveMode, isPaused, activeEnergyBurned, activeEnergyBurnedGoal, appleMoveTime,
            appleMoveTimeGoal, appleExerciseTime, appleExerciseTimeGoal, exerciseTimeGoal, appleStandHours,
            appleStandHoursGoal, standHoursGoal
    }
}
