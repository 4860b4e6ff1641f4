import Anchorage
import ArgumentParser
import Foundation

/// Sample types as people type them: `stepCount`, `sleepAnalysis`,
/// `bloodPressure`, `workout`, or a full HealthKit identifier.
enum SampleTypeArgument {
    static func parse(_ text: String) -> HKSampleType? {
        if text == "workout" || text == "HKWorkoutTypeIdentifier" { return HKWorkoutType.workoutType() }
        let capitalized = text.prefix(1).uppercased() + text.dropFirst()
        let quantity = text.hasPrefix("HK") ? text : "HKQuantityTypeIdentifier" + capitalized
        if let type = HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: quantity)) {
            return type
        }
        let category = text.hasPrefix("HK") ? text : "HKCategoryTypeIdentifier" + capitalized
        if let type = HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: category)) {
            return type
        }
        let correlation = text.hasPrefix("HK") ? text : "HKCorrelationTypeIdentifier" + capitalized
        return HKObjectType.correlationType(forIdentifier: HKCorrelationTypeIdentifier(rawValue: correlation))
    }

    /// The sample type `text` names, or a usage error saying what to type.
    static func require(_ text: String) throws -> HKSampleType {
        guard let type = parse(text) else {
            throw ValidationError("'\(text)' is not a sample type; try stepCount, sleepAnalysis or workout")
        }
        return type
    }
}

/// Dates as people type them: an ISO 8601 instant, or a day (`YYYY-MM-DD`),
/// which means its midnight in the zone given.
enum DateArgument {
    static func parse(_ text: String, in zone: TimeZone) -> Date? {
        if let instant = try? Date(text, strategy: .iso8601) { return instant }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }
}
