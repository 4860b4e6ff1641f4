public import Foundation

/// One day's Move, Exercise and Stand rings: the values and their goals.
///
/// ```swift
/// let query = HKActivitySummaryQuery(predicate: HKQuery.predicateForActivitySummary(with: today)) {
///     _, summaries, error in
///     for summary in summaries ?? [] {
///         print(summary.activeEnergyBurned.doubleValue(for: .kilocalorie()), "of",
///               summary.activeEnergyBurnedGoal.doubleValue(for: .kilocalorie()), "kcal")
///     }
/// }
/// store.execute(query)
/// ```
///
/// As in HealthKit the properties are settable, and changing them changes
/// nothing in the store. Anchorage stores summaries (HealthKit's own store
/// makes them itself): the owner saves them with
/// ``HKHealthStore/saveActivitySummaries(_:)``, and the importer saves an
/// export's `ActivitySummary` elements, one per day; a later save of a day
/// replaces the earlier one. Energy keeps the unit it came in (kcal or kJ).
public final class HKActivitySummary: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: mutable like HealthKit's; share a summary across tasks only
    // once nobody changes it.

    /// The day, as a Gregorian calendar day; `nil` for a summary made with
    /// `init()` and never given one.
    package var day: ActivityDay?

    /// How the move goal is measured.
    public var activityMoveMode: HKActivityMoveMode = .activeEnergy
    /// Whether the person paused their rings that day.
    public var isPaused = false
    /// The active energy burned (an energy quantity).
    public var activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: 0)
    /// The move goal in active energy.
    public var activeEnergyBurnedGoal = HKQuantity(unit: .kilocalorie(), doubleValue: 0)
    /// The move time, for people whose move goal is in time.
    public var appleMoveTime = HKQuantity(unit: .minute(), doubleValue: 0)
    /// The move goal in time.
    public var appleMoveTimeGoal = HKQuantity(unit: .minute(), doubleValue: 0)
    /// The exercise time.
    public var appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: 0)
    /// The exercise goal.
    public var appleExerciseTimeGoal = HKQuantity(unit: .minute(), doubleValue: 0)
    /// The exercise goal, when set (the newer form, optional).
    public var exerciseTimeGoal: HKQuantity?
    /// The hours with a stand, as a count.
    public var appleStandHours = HKQuantity(unit: .count(), doubleValue: 0)
    /// The stand goal, as a count of hours.
    public var appleStandHoursGoal = HKQuantity(unit: .count(), doubleValue: 0)
    /// The stand goal, when set (the newer form, optional).
    public var standHoursGoal: HKQuantity?

    /// An empty summary, with no day.
    public init() {}

    /// An empty summary of the day `dateComponents` names (era or not,
    /// year, month and day, in their calendar or the Gregorian one): an
    /// Anchorage extension, for saving summaries.
    ///
    /// - Throws: ``HKError`` (`ACT-1`) when the components name no day.
    public convenience init(dateComponents: DateComponents) throws(HKError) {
        self.init()
        day = try ActivityDay(dateComponents)
    }

    /// The summary's day as era, year, month and day in `calendar`.
    ///
    /// ```swift
    /// let day = summary.dateComponents(for: Calendar(identifier: .gregorian))   // 2026-01-09
    /// ```
    public func dateComponents(for calendar: Calendar) -> DateComponents {
        guard let day else { return DateComponents() }
        return day.components(in: calendar)
    }

    public var description: String {
        "HKActivitySummary(\(day.map(\.text) ?? "no day"))"
    }
}

/// A calendar day, counted from 1970-01-01 in the proleptic Gregorian
/// calendar: what an activity summary is filed under.
package struct ActivityDay: Hashable, Comparable, Sendable {
    package var number: Int32

    package static let gregorian: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    package init(number: Int32) {
        self.number = number
    }

    /// The day `components` name, converted from their calendar.
    package init(_ components: DateComponents) throws(HKError) {
        var components = components
        let calendar = components.calendar ?? Self.gregorian
        components.calendar = calendar
        var utc = calendar
        utc.timeZone = TimeZone(identifier: "UTC")!
        guard components.year != nil, components.month != nil, components.day != nil,
            let date = utc.date(
                from: DateComponents(
                    era: components.era,
                    year: components.year,
                    month: components.month,
                    day: components.day,
                    hour: 12
                )
            ),
            utc.dateComponents([.year, .month, .day], from: date).day == components.day
        else {
            throw .invalid("ACT-1", "an activity summary's day needs a valid year, month and day")
        }
        let days = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        guard let number = Int32(exactly: days) else {
            throw .invalid("ACT-1", "an activity summary's day is out of range")
        }
        self.number = number
    }

    /// The day `yyyy-MM-dd`, as exports and JSON write it.
    package init?(text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            let parsed = try? ActivityDay(DateComponents(year: year, month: month, day: day))
        else { return nil }
        self = parsed
    }

    /// Noon UTC of the day, a moment inside it whatever the calendar.
    package var noon: Date { Date(timeIntervalSince1970: Double(number) * 86_400 + 43_200) }

    /// `yyyy-MM-dd`.
    package var text: String {
        let parts = Self.gregorian.dateComponents([.year, .month, .day], from: noon)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(parts.year ?? 0, 4) + "-" + pad(parts.month ?? 0, 2) + "-" + pad(parts.day ?? 0, 2)
    }

    /// Era, year, month and day in `calendar`, with the calendar set.
    package func components(in calendar: Calendar) -> DateComponents {
        var local = calendar
        local.timeZone = TimeZone(identifier: "UTC")!
        var components = local.dateComponents([.era, .year, .month, .day], from: noon)
        components.calendar = calendar
        return components
    }

    /// The 4 bytes of the index key: the number with its sign bit flipped,
    /// big-endian, so byte order is day order.
    package var keyBytes: [UInt8] {
        let value = UInt32(bitPattern: number) ^ 0x8000_0000
        return [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }

    package static func < (lhs: ActivityDay, rhs: ActivityDay) -> Bool { lhs.number < rhs.number }
}

/// Summaries compare by day and every value, as HealthKit's `isEqual` does.
extension HKActivitySummary: Hashable {
    public static func == (lhs: HKActivitySummary, rhs: HKActivitySummary) -> Bool {
        lhs.day == rhs.day && lhs.activityMoveMode == rhs.activityMoveMode && lhs.isPaused == rhs.isPaused
            && lhs.activeEnergyBurned == rhs.activeEnergyBurned
            && lhs.activeEnergyBurnedGoal == rhs.activeEnergyBurnedGoal && lhs.appleMoveTime == rhs.appleMoveTime
            && lhs.appleMoveTimeGoal == rhs.appleMoveTimeGoal && lhs.appleExerciseTime == rhs.appleExerciseTime
            && lhs.appleExerciseTimeGoal == rhs.appleExerciseTimeGoal && lhs.exerciseTimeGoal == rhs.exerciseTimeGoal
            && lhs.appleStandHours == rhs.appleStandHours && lhs.appleStandHoursGoal == rhs.appleStandHoursGoal
            && lhs.standHoursGoal == rhs.standHoursGoal
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(day)
    }
}
