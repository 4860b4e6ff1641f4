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

    /// The date `text` stands for in `zone`, or a usage error saying that
    /// `option` is not a date.
    static func require(_ text: String, for option: String, in zone: TimeZone) throws -> Date {
        guard let date = parse(text, in: zone) else { throw ValidationError("\(option) is not a date") }
        return date
    }
}

/// Time zones as people type them (`--tz Europe/Paris`).
enum TimeZoneArgument {
    /// The zone `identifier` names, this machine's when there is none, or a
    /// usage error.
    static func require(_ identifier: String?) throws -> TimeZone {
        guard let identifier else { return .current }
        guard let zone = TimeZone(identifier: identifier) else {
            throw ValidationError("unknown time zone '\(identifier)'")
        }
        return zone
    }
}

/// Anchors as `changes`, `export` and `history` print them, or the integer
/// anchors of iOS 8 (``HKQueryAnchor/init(string:)``).
enum AnchorArgument {
    /// The anchor `text` stands for, or a usage error that begins with
    /// `option`.
    static func require(_ text: String, for option: String) throws -> HKQueryAnchor {
        do {
            return try HKQueryAnchor(string: text)
        } catch {
            throw ValidationError("\(option): \(ErrorWords.describe(error))")
        }
    }
}
