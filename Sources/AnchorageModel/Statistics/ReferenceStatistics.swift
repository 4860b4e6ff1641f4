import Foundation

/// The reference evaluator: statistics computed straight from the matching
/// samples, by the rules of section 4 and nothing else (ST-6..27).
///
/// Deliberately plain: every bucket looks at each sample that contributes
/// to it. It is the oracle the statistics views are tested against, and
/// the path for queries the views cannot answer.
package enum ReferenceStatistics {
    /// The statistics of a whole query: `nil` when no sample matches; else
    /// over `[earliest start, latest end]`, with cumulative samples counted
    /// in full (ST-6, ST-21).
    package static func single(
        _ samples: StatisticsSamples,
        type: HKQuantityType,
        options: HKStatisticsOptions
    ) -> HKStatistics? {
        guard let first = samples.samples.first else { return nil }
        var window = StatisticsWindow(start: first.start, end: first.end, closed: true)
        for sample in samples.samples {
            window.start = min(window.start, sample.start)
            window.end = max(window.end, sample.end)
        }
        return statistics(samples.samples, sources: samples.sources, in: window, type: type, options: options)
    }

    /// The statistics of the samples contributing to `window`, or `nil`
    /// when none does (ST-20); `sources` are the samples' sources by number.
    package static func statistics(
        _ samples: [StatisticsSample],
        sources: [HKSource],
        in window: StatisticsWindow,
        type: HKQuantityType,
        options: HKStatisticsOptions
    ) -> HKStatistics? {
        let contributing = samples.filter(window.contains)
        guard !contributing.isEmpty else { return nil }
        let style = type.aggregationStyle
        let merged = values(contributing, in: window, style: style, options: options, merging: true)
        var bySource: [HKSource: StatisticsValues] = [:]
        if options.contains(.separateBySource) {
            for (number, group) in Dictionary(grouping: contributing, by: \.source) {
                bySource[sources[Int(number)]] = values(
                    group,
                    in: window,
                    style: style,
                    options: options,
                    merging: false
                )
            }
        }
        return HKStatistics(
            quantityType: type,
            startDate: Date(timeIntervalSinceReferenceDate: window.start),
            endDate: Date(timeIntervalSinceReferenceDate: window.end),
            options: options,
            merged: merged,
            bySource: bySource
        )
    }

    /// The values of `samples` (all contributing to `window`). Only sums
    /// are merged across sources (ST-24, ST-25); per-source values never
    /// are (ST-9).
    package static func values(
        _ samples: [StatisticsSample],
        in window: StatisticsWindow,
        style: HKQuantityAggregationStyle,
        options: HKStatisticsOptions,
        merging: Bool
    ) -> StatisticsValues {
        var values = StatisticsValues()
        if options.contains(.cumulativeSum) {
            values.sum = merging ? mergedSum(samples, in: window) : samples.reduce(0) { $0 + prorated($1, in: window) }
        }
        if options.contains(.discreteAverage) {
            values.average = average(samples, in: window, style: style)
        }
        if options.contains(.discreteMin) { values.minimum = samples.map(\.value).min() }
        if options.contains(.discreteMax) { values.maximum = samples.map(\.value).max() }
        if options.contains(.mostRecent), let recent = samples.max(by: isLessRecent) {
            values.mostRecent = .init(value: recent.value, start: recent.start, end: recent.end)
        }
        if options.contains(.duration) { values.duration = coveredDuration(samples, in: window) }
        return values
    }

    /// A sample's share of `window`: its value times the part of its
    /// interval inside; an instant's whole value (ST-16, ST-18).
    package static func prorated(_ sample: StatisticsSample, in window: StatisticsWindow) -> Double {
        sample.isInstant ? sample.value : sample.value * window.overlap(sample) / (sample.end - sample.start)
    }

    /// "Most recent" order: start, then end, then log position (ST-11).
    package static func isLessRecent(_ a: StatisticsSample, _ b: StatisticsSample) -> Bool {
        (a.start, a.end, a.seq) < (b.start, b.end, b.seq)
    }

    /// The average by the type's style (ST-14): arithmetic; weighted by the
    /// time inside the window; or the equivalent continuous sound level.
    /// Without any weight (only instants) the plain mean stands in.
    package static func average(
        _ samples: [StatisticsSample],
        in window: StatisticsWindow,
        style: HKQuantityAggregationStyle
    ) -> Double? {
        guard !samples.isEmpty else { return nil }
        let weights = style == .discreteArithmetic ? [] : samples.map { window.overlap($0) }
        let weighted = weights.reduce(0, +) > 0
        var total = 0.0
        var weight = 0.0
        for (position, sample) in samples.enumerated() {
            let w = weighted ? weights[position] : 1
            let level = style == .discreteEquivalentContinuousLevel ? pow(10, sample.value / 10) : sample.value
            total += w * level
            weight += w
        }
        let mean = total / weight
        return style == .discreteEquivalentContinuousLevel ? 10 * log10(mean) : mean
    }

    /// The length of the union of the samples' intervals inside `window`
    /// (ST-10, ST-26).
    package static func coveredDuration(_ samples: [StatisticsSample], in window: StatisticsWindow) -> Double {
        // In start order; the views' samples already are, and are not copied.
        let inOrder = samples.indices.dropFirst().allSatisfy { samples[$0 - 1].start <= samples[$0].start }
        var union = IntervalUnion()
        for sample in inOrder ? samples : samples.sorted(by: { $0.start < $1.start }) {
            union.add(max(sample.start, window.start), min(sample.end, window.end))
        }
        return union.covered
    }

    /// The length of a union of intervals added in order of their starts;
    /// empty ones count nothing.
    private struct IntervalUnion {
        private var closed = 0.0
        private var current: (start: Double, end: Double)?

        mutating func add(_ start: Double, _ end: Double) {
            guard end > start else { return }
            if let open = current, start <= open.end {
                current = (open.start, max(open.end, end))
            } else {
                if let open = current { closed += open.end - open.start }
                current = (start, end)
            }
        }

        var covered: Double { closed + (current.map { $0.end - $0.start } ?? 0) }
    }

    /// The merged sum (ST-24): the window is cut at every sample boundary;
    /// each piece counts only the samples of the highest-ranked source
    /// covering it, prorated; an instant counts unless a higher-ranked
    /// source covers its moment. Samples of one source always add up.
    package static func mergedSum(_ samples: [StatisticsSample], in window: StatisticsWindow) -> Double {
        enum Kind: Int {
            case end = 0
            case start = 1
            case instant = 2
        }
        var events: [(time: Double, kind: Kind, sample: Int)] = []
        for (position, sample) in samples.enumerated() {
            if sample.isInstant {
                if window.contains(sample) { events.append((sample.start, .instant, position)) }
                continue
            }
            let start = max(sample.start, window.start)
            let end = min(sample.end, window.end)
            guard end > start else { continue }
            events.append((start, .start, position))
            events.append((end, .end, position))
        }
        events.sort { ($0.time, $0.kind.rawValue, $0.sample) < ($1.time, $1.kind.rawValue, $1.sample) }
        // Ranks as dense small numbers, 0 the highest; the active samples of each.
        let (rankOf, ranks) = denseRanks(samples)
        // Each rank's active samples in the order they started (the order
        // the sum adds them in); an ended sample is only marked, and the
        // lists are compacted now and then, so that thousands of samples
        // ending together cost thousands of steps, not millions.
        var active = [[Int]](repeating: [], count: ranks)
        var live = [Int](repeating: 0, count: ranks)
        var ended = [Bool](repeating: false, count: samples.count)
        var total = 0.0
        var previous: Double?
        for event in events {
            if let previous, event.time > previous, let top = live.firstIndex(where: { $0 > 0 }) {
                for position in active[top] where !ended[position] {
                    let sample = samples[position]
                    total += sample.value * (event.time - previous) / (sample.end - sample.start)
                }
            }
            previous = event.time
            let rank = rankOf[event.sample]
            switch event.kind {
            case .start:
                active[rank].append(event.sample)
                live[rank] += 1
            case .end:
                ended[event.sample] = true
                live[rank] -= 1
                if active[rank].count > 2 * live[rank] + 16 { active[rank].removeAll { ended[$0] } }
            case .instant:
                let shadowed = live[..<rank].contains { $0 > 0 }
                if !shadowed { total += samples[event.sample].value }
            }
        }
        return total
    }

    /// Each sample's rank renumbered densely from 0 in the same order, and
    /// how many distinct ranks there are.
    private static func denseRanks(_ samples: [StatisticsSample]) -> (ranks: [Int], count: Int) {
        let highest = Int(samples.map(\.rank).max() ?? 0)
        guard highest < 4 * samples.count + 64 else {
            let order = Dictionary(
                uniqueKeysWithValues: Set(samples.map(\.rank)).sorted().enumerated().map { ($1, $0) }
            )
            return (samples.map { order[$0.rank]! }, order.count)
        }
        var dense = [Int](repeating: -1, count: highest + 1)
        for sample in samples { dense[Int(sample.rank)] = 0 }
        var count = 0
        for rank in dense.indices where dense[rank] == 0 {
            dense[rank] = count
            count += 1
        }
        return (samples.map { dense[Int($0.rank)] }, count)
    }
}
