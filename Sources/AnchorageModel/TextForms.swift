import Foundation

/// A value written as text that does not say what it should: a sample type,
/// a statistics option, an interval, a date, a unit. The message says what
/// was expected, in words, and never repeats a health value.
public struct TextFormError: Error, CustomStringConvertible, Sendable {
    /// What was wrong and what to write instead.
    public let description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// The text forms the command line and the HTTP API share: the names people
/// type for sample types, statistics options, intervals and dates.
///
/// ```swift
/// let steps = try TextForms.sampleType("stepCount")       // or "HKQuantityTypeIdentifierStepCount"
/// let options = try TextForms.statisticsOptions("sum,max")
/// let day = try TextForms.interval("1d")                  // DateComponents(day: 1)
/// ```
public enum TextForms {
    /// The sample type `text` names: `stepCount`, `sleepAnalysis`,
    /// `bloodPressure`, `workout`, `workoutRoute`, `heartbeatSeries`,
    /// `electrocardiogram`, `audiogram`, `stateOfMind`, `gad7`, `phq9`,
    /// `visionPrescription`, `medicationDoseEvent`, `immunizationRecord`
    /// (and the other clinical types), or a full HealthKit identifier.
    public static func sampleType(_ text: String) throws(TextFormError) -> HKSampleType {
        if text == "workout" || text == "HKWorkoutTypeIdentifier" { return HKWorkoutType.workoutType() }
        if let type = storedOtherTypes[text] { return type }
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
        if let type = HKObjectType.correlationType(forIdentifier: HKCorrelationTypeIdentifier(rawValue: correlation)) {
            return type
        }
        throw TextFormError("'\(text.prefix(80))' is not a sample type; try stepCount, sleepAnalysis or workout")
    }

    /// The series and recording types stored, by short name and identifier.
    static let storedOtherTypes: [String: HKSampleType] = {
        var types: [String: HKSampleType] = [:]
        for (name, type) in [
            ("workoutRoute", HKSeriesType.workoutRoute() as HKSampleType),
            ("heartbeatSeries", HKSeriesType.heartbeat()),
            ("electrocardiogram", HKObjectType.electrocardiogramType()),
            ("audiogram", HKObjectType.audiogramSampleType()),
            ("stateOfMind", HKObjectType.stateOfMindType()),
            ("visionPrescription", HKObjectType.visionPrescriptionType()),
            ("medicationDoseEvent", HKObjectType.medicationDoseEventType()),
            ("gad7", TypeCatalog.scoredAssessmentTypes[.GAD7]!), ("phq9", TypeCatalog.scoredAssessmentTypes[.PHQ9]!),
        ] {
            types[name] = type
            types[type.identifier] = type
        }
        // Clinical types by identifier and by name (`immunizationRecord`).
        for type in TypeCatalog.clinicalTypes.values {
            types[type.identifier] = type
            let name = type.identifier.dropFirst("HKClinicalTypeIdentifier".count)
            types[name.prefix(1).lowercased() + name.dropFirst()] = type
        }
        return types
    }()

    /// The short name of a sample type's identifier, the one the CLI and
    /// token files accept: `HKQuantityTypeIdentifierStepCount` →
    /// `stepCount`, `HKWorkoutRouteTypeIdentifier` → `workoutRoute`,
    /// `HKClinicalTypeIdentifierImmunizationRecord` → `immunizationRecord`.
    public static func shortName(of identifier: String) -> String {
        if identifier == HKWorkoutTypeIdentifier { return "workout" }
        for prefix in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKCorrelationTypeIdentifier"]
        where identifier.hasPrefix(prefix) {
            let rest = identifier.dropFirst(prefix.count)
            return rest.prefix(1).lowercased() + rest.dropFirst()
        }
        return shortNames[identifier] ?? identifier
    }

    /// The other stored types' short names, by identifier.
    private static let shortNames: [String: String] = {
        var names: [String: String] = [:]
        for (name, type) in storedOtherTypes where !name.hasPrefix("HK") {
            // Clinical types have two keys; the short one is not an identifier.
            names[type.identifier] = name
        }
        return names
    }()

    /// Whether `text` names the activity summary type: `activitySummary`
    /// or `HKActivitySummaryTypeIdentifier`, as change feeds and token
    /// files accept it beside sample types.
    public static func isActivitySummary(_ text: String) -> Bool {
        text == "activitySummary" || text == HKObjectType.activitySummaryType().identifier
    }

    /// The quantity type `text` names, for statistics.
    public static func quantityType(_ text: String) throws(TextFormError) -> HKQuantityType {
        guard let type = try sampleType(text) as? HKQuantityType else {
            throw TextFormError("'\(text.prefix(80))' is not a quantity type; statistics need one such as stepCount")
        }
        return type
    }

    /// Comma-separated statistics options: `sum`, `average`, `min`, `max`,
    /// `mostRecent`, `duration`.
    public static func statisticsOptions(_ text: String) throws(TextFormError) -> HKStatisticsOptions {
        var result: HKStatisticsOptions = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let option = statisticsOptionSpellings.first(where: { $0.names.contains(name) })?.option else {
                throw TextFormError(
                    "unknown statistics option '\(name.prefix(40))'; use "
                        + statisticsOptionSpellings.map(\.names[0]).joined(separator: ", ")
                )
            }
            result.insert(option)
        }
        return result
    }

    /// The names of `options` as ``statisticsOptions(_:)`` reads them
    /// (`sum`, `min`…), in the order it lists them; `separateBySource`,
    /// which is no option there, has none.
    ///
    /// ```swift
    /// TextForms.statisticsOptionNames([.discreteMax, .discreteMin])   // ["min", "max"]
    /// ```
    public static func statisticsOptionNames(_ options: HKStatisticsOptions) -> [String] {
        statisticsOptionSpellings.filter { options.contains($0.option) }.map(\.names[0])
    }

    /// Each statistics option's names, the one written first.
    private static let statisticsOptionSpellings: [(option: HKStatisticsOptions, names: [String])] = [
        (.cumulativeSum, ["sum", "cumulativeSum"]),
        (.discreteAverage, ["average", "avg", "discreteAverage"]),
        (.discreteMin, ["min", "discreteMin"]),
        (.discreteMax, ["max", "discreteMax"]),
        (.mostRecent, ["mostRecent", "recent", "discreteMostRecent"]),
        (.duration, ["duration"]),
    ]

    /// An interval as a positive count and a unit: `15m`, `1h`, `1d`, `1w`,
    /// `1mo`, `1y` (also `s` for seconds).
    public static func interval(_ text: String) throws(TextFormError) -> DateComponents {
        let digits = text.prefix { $0.isNumber }
        guard digits.count <= 9, let count = Int(digits), count > 0 else {
            throw TextFormError("an interval is a positive count and a unit, such as 1d or 15m")
        }
        switch text.dropFirst(digits.count) {
        case "s": return DateComponents(second: count)
        case "m", "min": return DateComponents(minute: count)
        case "h": return DateComponents(hour: count)
        case "d": return DateComponents(day: count)
        case "w": return DateComponents(day: 7 * count)
        case "mo": return DateComponents(month: count)
        case "y": return DateComponents(year: count)
        default: throw TextFormError("an interval's unit is s, m, h, d, w, mo or y, as in 1d or 15m")
        }
    }

    /// A time zone by its identifier (`Europe/Paris`, `UTC`).
    public static func timeZone(_ text: String) throws(TextFormError) -> TimeZone {
        guard let zone = TimeZone(identifier: text) else {
            throw TextFormError("unknown time zone '\(text.prefix(60))'; use an identifier such as Europe/Paris or UTC")
        }
        return zone
    }

    /// A date as people type it: an ISO 8601 instant, or a day
    /// (`YYYY-MM-DD`), which means its midnight in `zone`.
    public static func date(_ text: String, in zone: TimeZone) -> Date? {
        if let instant = try? Date(text, strategy: .iso8601) { return instant }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: year, month: month, day: day))
    }

    /// A day `YYYY-MM-DD` as date components in `calendar`, for activity
    /// summaries; `nil` for anything else.
    public static func day(_ text: String, calendar: Calendar) -> DateComponents? {
        guard !text.contains("T"), let date = date(text, in: TimeZone(identifier: "UTC")!) else { return nil }
        var utc = calendar
        utc.timeZone = TimeZone(identifier: "UTC")!
        var components = utc.dateComponents([.era, .year, .month, .day], from: date)
        components.calendar = calendar
        return components
    }

    /// A unit in HealthKit's text form (`count/min`, `kcal`, `mmHg`) that
    /// `type` can be expressed in (UNIT-18).
    public static func unit(_ text: String, for type: HKQuantityType) throws(TextFormError) -> HKUnit {
        let unit: HKUnit
        do {
            unit = try HKUnit.parse(text)
        } catch {
            throw TextFormError(error.messageWithRule)
        }
        guard type.is(compatibleWith: unit) else {
            throw TextFormError("\(type.identifier) cannot be expressed in \(unit.unitString) (UNIT-18)")
        }
        return unit
    }

    /// The unit values are shown in when none is asked for: what people
    /// read (beats per minute, kilograms, kilometres, kilocalories), else
    /// the type's canonical unit.
    public static func displayUnit(of type: HKQuantityType) -> HKUnit {
        let preferred = ["count/min", "kg", "km", "kcal", "mmHg", "degC", "ms", "m/s", "L"]
        for text in preferred {
            if let unit = try? HKUnit.parse(text), type.is(compatibleWith: unit) { return unit }
        }
        return type.canonicalUnit
    }
}
