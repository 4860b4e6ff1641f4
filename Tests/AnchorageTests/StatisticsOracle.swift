import Anchorage
import Foundation
import Testing

/// The statistics of section 4 of the behavioural spec (ST-6..34), worked
/// out bucket by bucket in the plainest way, from the samples a sample
/// query returns and the sources' order. It shares no code with
/// `ReferenceStatistics` or the statistics views (which use its helpers):
/// it is the oracle both are checked against.
///
/// ```swift
/// let oracle = StatisticsOracle(samples: visible, ranking: order)
/// let buckets = oracle.collection(anchor: anchor, interval: components, options: [.cumulativeSum])
/// ```
struct StatisticsOracle {
    /// A sample as the oracle sees it: seconds since the reference date,
    /// the value in the type's canonical unit, its source, whether the user
    /// entered it, and its place in the log (the last "most recent" tie-break).
    struct Sample {
        var start: Double
        var end: Double
        var value: Double
        var bundle: String
        var userEntered: Bool
        var order: Int

        var isInstant: Bool { end == start }
    }

    /// What one statistics object holds, merged or for one source; `nil`
    /// for what was not asked.
    struct Values: Equatable, CustomStringConvertible {
        var sum: Double?
        var average: Double?
        var minimum: Double?
        var maximum: Double?
        var mostRecent: (value: Double, start: Double, end: Double)?
        var duration: Double?

        static func == (a: Values, b: Values) -> Bool {
            close(a.sum, b.sum) && close(a.average, b.average) && a.minimum == b.minimum && a.maximum == b.maximum
                && a.mostRecent?.value == b.mostRecent?.value && a.mostRecent?.start == b.mostRecent?.start
                && a.mostRecent?.end == b.mostRecent?.end && close(a.duration, b.duration)
        }

        static func close(_ a: Double?, _ b: Double?) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case (let a?, let b?): abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
            default: false
            }
        }

        var description: String {
            "sum \(String(describing: sum)) avg \(String(describing: average)) min \(String(describing: minimum)) "
                + "max \(String(describing: maximum)) recent \(String(describing: mostRecent)) "
                + "duration \(String(describing: duration))"
        }
    }

    /// One statistics object: its interval, merged values and, with
    /// `separateBySource`, each source's (by bundle identifier).
    struct Bucket: Equatable, CustomStringConvertible {
        var start: Double
        var end: Double
        var merged: Values
        var bySource: [String: Values]

        var description: String { "[\(start), \(end)) \(merged) by source \(bySource)" }
    }

    var samples: [Sample]
    /// The sources in merge order, best first (ST-23, ST-24, ST-27): the
    /// owner's priority list, then every other source newest first.
    var ranking: [String]
    var style: HKQuantityAggregationStyle

    /// Smaller is better: hand-entered samples first whatever their
    /// source (ST-24.6), then `ranking`'s order.
    func rank(_ sample: Sample) -> Int {
        if sample.userEntered { return -1 }
        return ranking.firstIndex(of: sample.bundle) ?? ranking.count
    }

    /// Whether `sample` contributes to `[start, end)` (or `[start, end]`
    /// when `closed`): an overlap of positive length, or an instant
    /// inside (ST-18, ST-19, ST-20).
    static func contributes(_ sample: Sample, start: Double, end: Double, closed: Bool) -> Bool {
        if sample.isInstant { return sample.start >= start && (sample.start < end || (closed && sample.start == end)) }
        return min(sample.end, end) - max(sample.start, start) > 0
    }

    /// The statistics over `[start, end)`, or `nil` when nothing contributes.
    func bucket(start: Double, end: Double, closed: Bool = false, options: HKStatisticsOptions) -> Bucket? {
        let inside = samples.filter { Self.contributes($0, start: start, end: end, closed: closed) }
        guard !inside.isEmpty else { return nil }
        var bySource: [String: Values] = [:]
        if options.contains(.separateBySource) {
            for bundle in Set(inside.map(\.bundle)) {
                let own = inside.filter { $0.bundle == bundle }
                bySource[bundle] = values(own, start: start, end: end, options: options, merging: false)
            }
        }
        return Bucket(
            start: start,
            end: end,
            merged: values(inside, start: start, end: end, options: options, merging: true),
            bySource: bySource
        )
    }

    func values(_ inside: [Sample], start: Double, end: Double, options: HKStatisticsOptions, merging: Bool) -> Values {
        var values = Values()
        if options.contains(.cumulativeSum) {
            values.sum =
                merging
                ? mergedSum(inside, start: start, end: end)
                : inside.reduce(0) { total, sample in
                    total + Self.share(sample, from: start, to: end)
                }
        }
        if options.contains(.discreteMin) { values.minimum = inside.map(\.value).min() }
        if options.contains(.discreteMax) { values.maximum = inside.map(\.value).max() }
        if options.contains(.discreteAverage) { values.average = average(inside, start: start, end: end) }
        if options.contains(.mostRecent) {
            // Greatest start, then end, then place in the log (ST-11).
            let recent = inside.max { ($0.start, $0.end, $0.order) < ($1.start, $1.end, $1.order) }!
            values.mostRecent = (recent.value, recent.start, recent.end)
        }
        if options.contains(.duration) { values.duration = Self.covered(inside, from: start, to: end) }
        return values
    }

    /// A cumulative sample's share of `[from, to)`: prorated by time, an
    /// instant in full (ST-16, ST-18).
    static func share(_ sample: Sample, from: Double, to: Double) -> Double {
        guard !sample.isInstant else { return sample.value }
        let overlap = max(0, min(sample.end, to) - max(sample.start, from))
        return sample.value * overlap / (sample.end - sample.start)
    }

    /// ST-24: cut `[from, to)` at every sample boundary; in each piece only
    /// the best-ranked source with a sample covering the piece counts; an
    /// instant counts unless a better-ranked source covers its moment.
    func mergedSum(_ inside: [Sample], from start: Double, to end: Double) -> Double {
        let intervals = inside.filter { !$0.isInstant }
        var cuts = Set([start, end])
        for sample in intervals {
            if sample.start > start && sample.start < end { cuts.insert(sample.start) }
            if sample.end > start && sample.end < end { cuts.insert(sample.end) }
        }
        let points = cuts.sorted()
        var total = 0.0
        for (low, high) in zip(points, points.dropFirst()) {
            let covering = intervals.filter { $0.start <= low && $0.end >= high }
            guard let best = covering.map(rank).min() else { continue }
            for sample in covering where rank(sample) == best {
                total += sample.value * (high - low) / (sample.end - sample.start)
            }
        }
        for instant in inside where instant.isInstant {
            let shadowed = intervals.contains {
                rank($0) < rank(instant) && $0.start <= instant.start && instant.start < $0.end
            }
            if !shadowed { total += instant.value }
        }
        return total
    }

    func mergedSum(_ inside: [Sample], start: Double, end: Double) -> Double {
        mergedSum(inside, from: start, to: end)
    }

    /// ST-14: arithmetic, or weighted by the time inside (the plain mean
    /// when no sample has any).
    func average(_ inside: [Sample], start: Double, end: Double) -> Double {
        let weights = inside.map { max(0, min($0.end, end) - max($0.start, start)) }
        if style == .discreteArithmetic || weights.allSatisfy({ $0 == 0 }) {
            return inside.map(\.value).reduce(0, +) / Double(inside.count)
        }
        return zip(inside, weights).map { $0.value * $1 }.reduce(0, +) / weights.reduce(0, +)
    }

    /// ST-10: the length of the union of the intervals inside `[from, to)`.
    static func covered(_ inside: [Sample], from: Double, to: Double) -> Double {
        var points = Set([from, to])
        for sample in inside where !sample.isInstant {
            points.insert(min(max(sample.start, from), to))
            points.insert(min(max(sample.end, from), to))
        }
        let sorted = points.sorted()
        var total = 0.0
        for (low, high) in zip(sorted, sorted.dropFirst())
        where inside.contains(where: { !$0.isInstant && $0.start <= low && $0.end >= high }) {
            total += high - low
        }
        return total
    }

    /// A collection query's populated buckets by index (ST-28..34, ST-36):
    /// bucket k is `[anchor + k × interval, anchor + (k + 1) × interval)` in
    /// the Gregorian calendar of the interval's time zone.
    func collection(anchor: Date, interval: DateComponents, options: HKStatisticsOptions) -> [Int: Bucket] {
        let calendar = Self.calendar(interval)
        func boundary(_ k: Int) -> Double {
            calendar.date(byAdding: Self.times(interval, k), to: anchor)!.timeIntervalSinceReferenceDate
        }
        // The bucket of a moment: from an estimate by the first bucket's
        // length, stepped until it holds the moment.
        let length = boundary(1) - boundary(0)
        func index(of moment: Double) -> Int {
            var k = Int(((moment - boundary(0)) / length).rounded(.down))
            while boundary(k) > moment { k -= 1 }
            while boundary(k + 1) <= moment { k += 1 }
            return k
        }
        var indices = Set<Int>()
        for sample in samples {
            let first = index(of: sample.start)
            let last = sample.isInstant ? first : index(of: sample.end.nextDown)
            for k in first...last { indices.insert(k) }
        }
        var buckets: [Int: Bucket] = [:]
        for k in indices {
            buckets[k] = bucket(start: boundary(k), end: boundary(k + 1), options: options)
        }
        return buckets
    }

    /// A statistics query's one object (ST-6, ST-21): over the samples'
    /// earliest start to latest end, each counted in full.
    func single(options: HKStatisticsOptions) -> Bucket? {
        guard let start = samples.map(\.start).min(), let end = samples.map(\.end).max() else { return nil }
        return bucket(start: start, end: end, closed: true, options: options)
    }

    static func calendar(_ interval: DateComponents) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = interval.timeZone ?? interval.calendar?.timeZone ?? TimeZone(identifier: "UTC")!
        return calendar
    }

    /// `components × k`, field by field (ST-30: never repeated addition).
    static func times(_ components: DateComponents, _ k: Int) -> DateComponents {
        var product = DateComponents()
        product.year = components.year.map { $0 * k }
        product.month = components.month.map { $0 * k }
        product.weekOfYear = components.weekOfYear.map { $0 * k }
        product.day = components.day.map { $0 * k }
        product.hour = components.hour.map { $0 * k }
        product.minute = components.minute.map { $0 * k }
        product.second = components.second.map { $0 * k }
        return product
    }
}

extension StatisticsOracle.Bucket {
    /// The same object as the store returned, compared value by value.
    func matches(_ statistics: HKStatistics, unit: HKUnit) -> Bool {
        guard start == statistics.startDate.timeIntervalSinceReferenceDate,
            end == statistics.endDate.timeIntervalSinceReferenceDate,
            merged == Self.values(statistics, source: nil, unit: unit)
        else { return false }
        let sources = Set((statistics.sources ?? []).map(\.bundleIdentifier))
        guard sources == Set(bySource.keys) else { return false }
        return (statistics.sources ?? []).allSatisfy { source in
            bySource[source.bundleIdentifier] == Self.values(statistics, source: source, unit: unit)
        }
    }

    /// What `statistics` holds, through HealthKit's public getters.
    static func values(_ statistics: HKStatistics, source: HKSource?, unit: HKUnit) -> StatisticsOracle.Values {
        func number(_ quantity: HKQuantity?) -> Double? { quantity?.doubleValue(for: unit) }
        var values = StatisticsOracle.Values()
        if let source {
            values.sum = number(statistics.sumQuantity(for: source))
            values.average = number(statistics.averageQuantity(for: source))
            values.minimum = number(statistics.minimumQuantity(for: source))
            values.maximum = number(statistics.maximumQuantity(for: source))
            if let recent = statistics.mostRecentQuantity(for: source),
                let interval = statistics.mostRecentQuantityDateInterval(for: source)
            {
                values.mostRecent = (
                    recent.doubleValue(for: unit), interval.start.timeIntervalSinceReferenceDate,
                    interval.end.timeIntervalSinceReferenceDate
                )
            }
            values.duration = statistics.duration(for: source)?.doubleValue(for: .second())
        } else {
            values.sum = number(statistics.sumQuantity())
            values.average = number(statistics.averageQuantity())
            values.minimum = number(statistics.minimumQuantity())
            values.maximum = number(statistics.maximumQuantity())
            if let recent = statistics.mostRecentQuantity(), let interval = statistics.mostRecentQuantityDateInterval()
            {
                values.mostRecent = (
                    recent.doubleValue(for: unit), interval.start.timeIntervalSinceReferenceDate,
                    interval.end.timeIntervalSinceReferenceDate
                )
            }
            values.duration = statistics.duration()?.doubleValue(for: .second())
        }
        return values
    }
}
