import Anchorage
import ArgumentParser
import Foundation

/// Sample types as people type them: `stepCount`, `sleepAnalysis`,
/// `bloodPressure`, `workout`, or a full HealthKit identifier
/// (``TextForms/sampleType(_:)``).
enum SampleTypeArgument {
    /// The sample type `text` names, or a usage error saying what to type.
    static func require(_ text: String) throws -> HKSampleType {
        do {
            return try TextForms.sampleType(text)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// Dates as people type them: an ISO 8601 instant, or a day (`YYYY-MM-DD`),
/// which means its midnight in the zone given.
enum DateArgument {
    static func parse(_ text: String, in zone: TimeZone) -> Date? {
        TextForms.date(text, in: zone)
    }
}
