import Anchorage

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
}
