import Foundation

/// An activity summary as the log stores it: JSON with sorted keys (like
/// the characteristics), `{"day": "2026-01-09", "activeEnergyBurned":
/// {"unit": "kcal", "value": 702.2}, …}`.
package struct ActivitySummaryRecord: Codable, Hashable, Sendable {
    package var day: String
    package var activityMoveMode: Int
    package var isPaused: Bool
    package var activeEnergyBurned: HKQuantity
    package var activeEnergyBurnedGoal: HKQuantity
    package var appleMoveTime: HKQuantity
    package var appleMoveTimeGoal: HKQuantity
    package var appleExerciseTime: HKQuantity
    package var appleExerciseTimeGoal: HKQuantity
    package var exerciseTimeGoal: HKQuantity?
    package var appleStandHours: HKQuantity
    package var appleStandHoursGoal: HKQuantity
    package var standHoursGoal: HKQuantity?

    /// The record of `summary`, checked (ACT-1, ACT-2).
    package init(_ summary: HKActivitySummary) throws(HKError) {
        guard let day = summary.day else {
            throw .invalid("ACT-1", "an activity summary needs a day: make it with init(dateComponents:)")
        }
        self.day = day.text
        activityMoveMode = summary.activityMoveMode.rawValue
        isPaused = summary.isPaused
        activeEnergyBurned = summary.activeEnergyBurned
        activeEnergyBurnedGoal = summary.activeEnergyBurnedGoal
        appleMoveTime = summary.appleMoveTime
        appleMoveTimeGoal = summary.appleMoveTimeGoal
        appleExerciseTime = summary.appleExerciseTime
        appleExerciseTimeGoal = summary.appleExerciseTimeGoal
        exerciseTimeGoal = summary.exerciseTimeGoal
        appleStandHours = summary.appleStandHours
        appleStandHoursGoal = summary.appleStandHoursGoal
        standHoursGoal = summary.standHoursGoal
        try check()
    }

    /// Energy in an energy unit, times in a time unit, stand hours as a
    /// count; every value finite and not negative (ACT-2).
    package func check() throws(HKError) {
        let fields: [(String, HKQuantity?, HKUnit)] = [
            ("activeEnergyBurned", activeEnergyBurned, .kilocalorie()),
            ("activeEnergyBurnedGoal", activeEnergyBurnedGoal, .kilocalorie()),
            ("appleMoveTime", appleMoveTime, .second()), ("appleMoveTimeGoal", appleMoveTimeGoal, .second()),
            ("appleExerciseTime", appleExerciseTime, .second()),
            ("appleExerciseTimeGoal", appleExerciseTimeGoal, .second()),
            ("exerciseTimeGoal", exerciseTimeGoal, .second()), ("appleStandHours", appleStandHours, .count()),
            ("appleStandHoursGoal", appleStandHoursGoal, .count()), ("standHoursGoal", standHoursGoal, .count()),
        ]
        for (name, quantity, kind) in fields {
            guard let quantity else { continue }
            guard quantity.unit.isCompatible(with: kind) else {
                throw .invalid(
                    "ACT-2",
                    "an activity summary's \(name) is in \(quantity.unit.unitString), not a unit of \(kind.unitString)'s kind"
                )
            }
            guard quantity.value.isFinite, quantity.value >= 0 else {
                throw .invalid("ACT-2", "an activity summary's \(name) must be a finite amount, not negative")
            }
        }
        guard HKActivityMoveMode(rawValue: activityMoveMode) != nil else {
            throw .invalid("ACT-2", "\(activityMoveMode) is not an activity move mode")
        }
        guard ActivityDay(text: day) != nil else {
            throw .invalid("ACT-1", "an activity summary's day must be a valid yyyy-MM-dd date")
        }
    }

    /// The summary this record describes.
    package var summary: HKActivitySummary {
        let summary = HKActivitySummary()
        summary.day = ActivityDay(text: day)
        summary.activityMoveMode = HKActivityMoveMode(rawValue: activityMoveMode) ?? .activeEnergy
        summary.isPaused = isPaused
        summary.activeEnergyBurned = activeEnergyBurned
        summary.activeEnergyBurnedGoal = activeEnergyBurnedGoal
        summary.appleMoveTime = appleMoveTime
        summary.appleMoveTimeGoal = appleMoveTimeGoal
        summary.appleExerciseTime = appleExerciseTime
        summary.appleExerciseTimeGoal = appleExerciseTimeGoal
        summary.exerciseTimeGoal = exerciseTimeGoal
        summary.appleStandHours = appleStandHours
        summary.appleStandHoursGoal = appleStandHoursGoal
        summary.standHoursGoal = standHoursGoal
        return summary
    }

    /// The JSON bytes stored in the log.
    package func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(self))
    }

    /// The record in `bytes`, or `nil` when they are not a valid one.
    package static func decoded(_ bytes: UnsafeRawBufferPointer) -> ActivitySummaryRecord? {
        guard let record = try? JSONDecoder().decode(ActivitySummaryRecord.self, from: Data(bytes)),
            (try? record.check()) != nil
        else { return nil }
        return record
    }
}
