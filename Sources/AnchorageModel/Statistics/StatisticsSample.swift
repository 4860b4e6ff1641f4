import Foundation

/// A matching sample as statistics see it: its interval in seconds since
/// the reference date, its value in the type's canonical unit, and what
/// ranks it among sources. Plain numbers only, so that the thousands of
/// copies a bucket's evaluation makes cost no reference counting: the
/// source is a number in the table the samples come with
/// (``StatisticsSamples``), the rank a position among their ranks.
package struct StatisticsSample: Sendable, Equatable {
    package var start: Double
    package var end: Double
    package var value: Double
    /// Its position in the log, the last tie-break of "most recent" (ST-11).
    package var seq: UInt64
    /// Its source, by number in ``StatisticsSamples/sources``.
    package var source: UInt32
    /// Its rank among the sources of the samples it is evaluated with
    /// (ST-24): a smaller rank outranks a larger one, equal ranks add up.
    package var rank: UInt32

    package init(start: Double, end: Double, value: Double, seq: UInt64, source: UInt32, rank: UInt32) {
        self.start = start
        self.end = end
        self.value = value
        self.seq = seq
        self.source = source
        self.rank = rank
    }

    package var isInstant: Bool { end <= start }
}

/// Samples ready for the reference evaluator, with the table of the
/// sources they name by number.
package struct StatisticsSamples: Sendable {
    package var samples: [StatisticsSample]
    /// The sources by number.
    package let sources: [HKSource]

    package init(samples: [StatisticsSample] = [], sources: [HKSource] = []) {
        self.samples = samples
        self.sources = sources
    }

    /// The samples for which `isIncluded` holds, with the same sources.
    package func filter(_ isIncluded: (StatisticsSample) -> Bool) -> StatisticsSamples {
        StatisticsSamples(samples: samples.filter(isIncluded), sources: sources)
    }
}

/// Collects samples, numbering their sources and ranking them by a
/// ``SourceRanking``: every sample's rank is its source's position among
/// the distinct ranks collected, so comparing two ranks compares their
/// ``SourceRanking/Rank``s.
///
/// ```swift
/// var builder = StatisticsSamplesBuilder(ranking: ranking)
/// builder.append(quantitySample, seq: 7, unit: .count())
/// let samples = builder.build()
/// ```
package struct StatisticsSamplesBuilder {
    private let ranking: SourceRanking
    private var samples: [StatisticsSample] = []
    private var sources = Numbering<HKSource>()
    /// The distinct ranks so far, numbered provisionally.
    private var ranks = Numbering<SourceRanking.Rank>()
    /// A source's provisional rank number, by source number and whether
    /// entered by hand.
    private var rankOf: [UInt64: UInt32] = [:]

    /// Numbers values densely from 0 in the order they first come.
    private struct Numbering<Value: Hashable> {
        private(set) var values: [Value] = []
        private var numbers: [Value: UInt32] = [:]

        mutating func number(of value: Value) -> UInt32 {
            if let known = numbers[value] { return known }
            let number = UInt32(values.count)
            numbers[value] = number
            values.append(value)
            return number
        }
    }

    package init(ranking: SourceRanking) {
        self.ranking = ranking
    }

    /// Adds a quantity sample at log position `seq`, its value in `unit`.
    package mutating func append(_ sample: HKQuantitySample, seq: UInt64, unit: HKUnit) {
        if let series = sample.series, series.points != nil {
            // HealthKit's statistics split a series into its quantities.
            let canonical = sample.quantityType.canonicalUnit
            for part in series.quantities {
                append(
                    start: part.start,
                    end: part.end,
                    value: unit == canonical
                        ? part.value : HKQuantity(unit: canonical, doubleValue: part.value).doubleValue(for: unit),
                    seq: seq,
                    source: sample.sourceRevision.source,
                    userEntered: sample.wasUserEntered
                )
            }
            return
        }
        append(
            start: sample.startDate.timeIntervalSinceReferenceDate,
            end: sample.endDate.timeIntervalSinceReferenceDate,
            value: sample.quantity.doubleValue(for: unit),
            seq: seq,
            source: sample.sourceRevision.source,
            userEntered: sample.wasUserEntered
        )
    }

    /// Adds a sample given by its parts.
    package mutating func append(
        start: Double,
        end: Double,
        value: Double,
        seq: UInt64,
        source: HKSource,
        userEntered: Bool
    ) {
        let number = sources.number(of: source)
        let classKey = UInt64(number) << 1 | (userEntered ? 1 : 0)
        let rank: UInt32
        if let known = rankOf[classKey] {
            rank = known
        } else {
            rank = ranks.number(of: ranking.rank(bundle: source.bundleIdentifier, userEntered: userEntered))
            rankOf[classKey] = rank
        }
        samples.append(StatisticsSample(start: start, end: end, value: value, seq: seq, source: number, rank: rank))
    }

    /// The samples collected, in the order they were added, their ranks
    /// renumbered in rank order.
    package func build() -> StatisticsSamples {
        let final = SourceRanking.positions(of: ranks.values)
        var ranked = samples
        for index in ranked.indices { ranked[index].rank = final[Int(ranked[index].rank)] }
        return StatisticsSamples(samples: ranked, sources: sources.values)
    }
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
