import Foundation

/// A matching sample as statistics see it: its interval in seconds since
/// the reference date, its value in the type's canonical unit, and what
/// ranks it among sources.
package struct StatisticsSample: Sendable {
    package var start: Double
    package var end: Double
    package var value: Double
    package var source: HKSource
    /// Its position in the log, the last tie-break of "most recent" (ST-11).
    package var seq: UInt64
    package var rank: SourceRanking.Rank

    package init(
        start: Double,
        end: Double,
        value: Double,
        source: HKSource,
        seq: UInt64,
        rank: SourceRanking.Rank
    ) {
        self.start = start
        self.end = end
        self.value = value
        self.source = source
        self.seq = seq
        self.rank = rank
    }

    package init(_ sample: HKQuantitySample, seq: UInt64, unit: HKUnit, ranking: SourceRanking) {
        start = sample.startDate.timeIntervalSinceReferenceDate
        end = sample.endDate.timeIntervalSinceReferenceDate
        value = sample.quantity.doubleValue(for: unit)
        source = sample.sourceRevision.source
        self.seq = seq
        rank = ranking.rank(bundle: source.bundleIdentifier, userEntered: sample.wasUserEntered)
    }

    package var isInstant: Bool { end <= start }
}

/// The interval statistics are computed over: a bucket `[start, end)`, or
/// for a whole query the closed `[earliest start, latest end]` (ST-6).
package struct StatisticsWindow: Sendable {
    package var start: Double
    package var end: Double
    package var closed: Bool

    package init(start: Double, end: Double, closed: Bool) {
        self.start = start
        self.end = end
        self.closed = closed
    }

    /// The length of `sample`'s interval inside the window.
    package func overlap(_ sample: StatisticsSample) -> Double {
        max(0, min(sample.end, end) - max(sample.start, start))
    }

    /// Whether `sample` contributes: an interval that overlaps with positive
    /// length, or an instant inside (ST-18, ST-20).
    package func contains(_ sample: StatisticsSample) -> Bool {
        if sample.isInstant {
            return sample.start >= start && (sample.start < end || (closed && sample.start == end))
        }
        return overlap(sample) > 0
    }
}
