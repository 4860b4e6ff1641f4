import Foundation

/// The buckets of a collection query: intervals that tile the time line in
/// both directions from an anchor, each `intervalComponents` long on the
/// Gregorian calendar of the query's time zone (ST-28..35).
///
/// Bucket `k` is `[anchor + k × components, anchor + (k + 1) × components)`,
/// computed with a multiplied component rather than by repeated addition,
/// so months do not drift (ST-30); day and longer buckets follow the wall
/// clock across daylight saving time, hour and shorter ones elapsed time
/// (ST-32, ST-33).
///
/// ```swift
/// let grid = try BucketGrid(anchor: monday3am, intervalComponents: DateComponents(day: 7), timeZone: .current)
/// let week = grid.index(containing: Date())
/// let bounds = grid.interval(week)
/// ```
package struct BucketGrid: Sendable {
    package let anchor: Date
    /// The components of one bucket: only year, month, day, hour, minute and second.
    package let step: DateComponents
    package let calendar: Calendar
    /// An estimate of one bucket's length in seconds, for finding buckets.
    private let approximateLength: Double
    private let stepping: Stepping
    /// The zone's offset at the anchor, in seconds.
    private let anchorOffset: Int

    /// How bucket starts are computed: hours, minutes and seconds are
    /// elapsed time; whole days keep the wall-clock time, found from the
    /// zone's offsets away from its transitions; anything else asks the
    /// calendar. All three give what `Calendar.date(byAdding:to:)` gives
    /// (tested against it).
    private enum Stepping {
        case elapsed(seconds: Double)
        case days(Int)
        case calendar
    }

    /// Checks `intervalComponents` and resolves the time zone (ST-31):
    /// the components' own, else their calendar's, else `timeZone`.
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` (`ST-35`) for components
    ///   that are empty, zero or negative, or that are not a length of time.
    package init(anchor: Date, intervalComponents: DateComponents, timeZone: TimeZone) throws(HKError) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = intervalComponents.timeZone ?? intervalComponents.calendar?.timeZone ?? timeZone
        self.calendar = calendar
        self.anchor = anchor
        self.step = try Self.step(of: intervalComponents)
        guard anchor.timeIntervalSinceReferenceDate.isFinite,
            let later = calendar.date(byAdding: Self.multiply(step, by: 16), to: anchor),
            later > anchor
        else {
            throw .invalid("ST-35", "the interval components do not make buckets from the anchor date")
        }
        approximateLength = later.timeIntervalSince(anchor) / 16
        anchorOffset = calendar.timeZone.secondsFromGMT(for: anchor)
        let step = self.step
        if step.year == nil && step.month == nil && step.day == nil {
            stepping = .elapsed(
                seconds: Double((step.hour ?? 0) * 3_600 + (step.minute ?? 0) * 60 + (step.second ?? 0))
            )
        } else if let days = step.day, step.year == nil, step.month == nil, step.hour == nil, step.minute == nil,
            step.second == nil
        {
            stepping = .days(days)
        } else {
            stepping = .calendar
        }
    }

    /// The components of one bucket in the units `date(byAdding:)` adds
    /// exactly: quarters become months and weeks seven days.
    private static func step(of components: DateComponents) throws(HKError) -> DateComponents {
        let unsupported: [(String, Int?)] = [
            ("era", components.era), ("weekday", components.weekday),
            ("weekdayOrdinal", components.weekdayOrdinal), ("yearForWeekOfYear", components.yearForWeekOfYear),
            ("nanosecond", components.nanosecond), ("dayOfYear", components.dayOfYear),
        ]
        for (name, value) in unsupported where value != nil {
            throw .invalid(
                "ST-35",
                "interval components may not use \(name); use year, month, week, day, hour, minute or second"
            )
        }
        let parts = [
            components.year, components.quarter, components.month, components.weekOfYear, components.weekOfMonth,
            components.day, components.hour, components.minute, components.second,
        ]
        guard parts.contains(where: { $0 != nil }) else {
            throw .invalid("ST-35", "the interval components are empty; give a length such as DateComponents(day: 1)")
        }
        guard parts.allSatisfy({ ($0 ?? 0) >= 0 }) else {
            throw .invalid("ST-35", "the interval components may not be negative")
        }
        guard parts.contains(where: { ($0 ?? 0) > 0 }) else {
            throw .invalid("ST-35", "the interval components are all zero")
        }
        guard parts.allSatisfy({ ($0 ?? 0) <= 1_000_000_000 }) else {
            throw .invalid("ST-35", "the interval components are too large")
        }
        var step = DateComponents()
        step.year = components.year
        step.month = nonZero((components.month ?? 0) + 3 * (components.quarter ?? 0))
        step.day = nonZero((components.day ?? 0) + 7 * ((components.weekOfYear ?? 0) + (components.weekOfMonth ?? 0)))
        step.hour = components.hour
        step.minute = components.minute
        step.second = components.second
        return step
    }

    private static func nonZero(_ value: Int) -> Int? { value == 0 ? nil : value }

    /// `components` times `factor`, field by field.
    package static func multiply(_ components: DateComponents, by factor: Int) -> DateComponents {
        var result = DateComponents()
        result.year = components.year.map { $0 * factor }
        result.month = components.month.map { $0 * factor }
        result.day = components.day.map { $0 * factor }
        result.hour = components.hour.map { $0 * factor }
        result.minute = components.minute.map { $0 * factor }
        result.second = components.second.map { $0 * factor }
        return result
    }

    /// The start of bucket `index` (ST-30).
    package func start(of index: Int) -> Date {
        if index == 0 { return anchor }
        switch stepping {
        case .elapsed(let seconds):
            return anchor.addingTimeInterval(Double(index) * seconds)
        case .days(let days):
            var stretch: Stretch?
            return dayStart(index, days: days, stretch: &stretch)
        case .calendar:
            return calendarStart(of: index)
        }
    }

    /// The starts of buckets `first` through `last + 1`: each bucket's
    /// bounds for a run of buckets. For whole days the zone is asked once
    /// per stretch between its transitions rather than for every bucket.
    package func boundaries(from first: Int, through last: Int) -> [Date] {
        guard case .days(let days) = stepping, last >= first else {
            return (first...max(first, last + 1)).map(start(of:))
        }
        var stretch: Stretch?
        return (first...(last + 1)).map { dayStart($0, days: days, stretch: &stretch) }
    }

    /// A stretch of time, between the zone's transitions, where its offset
    /// is `offset`.
    private typealias Stretch = (offset: Int, from: Date, until: Date)

    /// The anchor's wall-clock time `index × days` days later: from the
    /// zone's offset when `stretch` (found again when it does not) covers
    /// the day a day either side, so that the time exists once; otherwise
    /// from the calendar.
    private func dayStart(_ index: Int, days: Int, stretch: inout Stretch?) -> Date {
        let shifted = anchor.addingTimeInterval(Double(index) * Double(days) * 86_400)
        if let known = stretch, let start = wallClock(shifted, in: known) { return start }
        let zone = calendar.timeZone
        let from = shifted.addingTimeInterval(-2 * 86_400)
        let found = (
            zone.secondsFromGMT(for: from), from, zone.nextDaylightSavingTimeTransition(after: from) ?? .distantFuture
        )
        stretch = found
        return wallClock(shifted, in: found) ?? calendarStart(of: index)
    }

    private func wallClock(_ shifted: Date, in stretch: Stretch) -> Date? {
        let candidate = shifted.addingTimeInterval(Double(anchorOffset - stretch.offset))
        let earliest = min(shifted, candidate).addingTimeInterval(-86_400)
        let latest = max(shifted, candidate).addingTimeInterval(86_400)
        guard earliest >= stretch.from, latest < stretch.until else { return nil }
        return candidate
    }

    /// The start of bucket `index` as the calendar computes it.
    package func calendarStart(of index: Int) -> Date {
        calendar.date(byAdding: Self.multiply(step, by: index), to: anchor)
            ?? (index > 0 ? .distantFuture : .distantPast)
    }

    /// The bucket `[start, end)` of `index`.
    package func interval(_ index: Int) -> DateInterval {
        DateInterval(start: start(of: index), end: start(of: index + 1))
    }

    /// The index of the bucket containing `date`.
    package func index(containing date: Date) -> Int {
        let limit = Double(Int.max / 4)
        var index = Int(max(-limit, min(limit, (date.timeIntervalSince(anchor) / approximateLength).rounded(.down))))
        // Newton-like steps, then exact ones: the estimate is off only by the
        // variation of calendar lengths (month lengths, DST days).
        for _ in 0..<8 {
            let step = (date.timeIntervalSince(start(of: index)) / approximateLength).rounded(.down)
            guard step != 0, abs(step) < limit else { break }
            index += Int(step)
        }
        while start(of: index) > date { index -= 1 }
        while start(of: index + 1) <= date { index += 1 }
        return index
    }

    /// The indices of the buckets a sample `[start, end]` contributes to:
    /// the one containing an instant, or every bucket the interval overlaps
    /// with positive length (ST-18..20).
    package func indices(start sampleStart: Date, end sampleEnd: Date) -> ClosedRange<Int> {
        let first = index(containing: sampleStart)
        guard sampleEnd > sampleStart else { return first...first }
        var last = index(containing: sampleEnd)
        if start(of: last) >= sampleEnd { last -= 1 }
        return first...max(first, last)
    }
}
