import AnchorageModel
import Foundation
import LMDB

/// The aggregates of one view bucket for one source (or for all sources,
/// merged): enough to combine adjacent buckets into any longer interval
/// and then compute every statistic of section 4.
///
/// Every field adds up (or takes a minimum or maximum) over adjacent
/// buckets, except the arithmetic mean's, which counts a sample once per
/// query bucket: `started` holds the samples that start in the bucket and
/// `carried` those that start earlier and reach into it, so a query bucket
/// made of pieces `p₁ … pₙ` averages `carried(p₁) + Σ started(pᵢ)`.
struct ViewRecord: Equatable, Sendable {
    /// A count and sums of values and of sound energies, for plain means.
    struct Tally: Equatable, Sendable {
        var count: UInt32 = 0
        var sum = 0.0
        var levelSum = 0.0

        mutating func add(_ value: Double, levels: Bool = true) {
            count += 1
            sum += value
            if levels { levelSum += pow(10, value / 10) }
        }

        static func + (a: Tally, b: Tally) -> Tally {
            Tally(count: a.count &+ b.count, sum: a.sum + b.sum, levelSum: a.levelSum + b.levelSum)
        }
    }

    /// Contributing samples counted per piece; only "any" matters (ST-20).
    var presence: UInt32 = 0
    /// Prorated sum; for all sources, merged by priority (ST-16, ST-24).
    var sum = 0.0
    var minimum = Double.infinity
    var maximum = -Double.infinity
    /// Σ overlap × value and Σ overlap: the time-weighted mean (ST-14).
    var weightedSum = 0.0
    var weight = 0.0
    /// Σ overlap × 10^(value/10): the equivalent continuous level (ST-14).
    var weightedLevelSum = 0.0
    var started = Tally()
    var carried = Tally()
    var recentStart = -Double.infinity
    var recentEnd = -Double.infinity
    var recentSeq: UInt64 = 0
    var recentValue = 0.0
    /// Seconds covered, overlaps counted once (ST-10).
    var duration = 0.0
    /// The number of the only source of the contributing samples; 0 when
    /// there are several.
    var sole: UInt32 = 0
    /// The plain prorated sum, which `sum` is for one source's record; an
    /// all-sources record keeps it so that, with one source, it is that
    /// source's record too (``asSource``).
    var plainSum = 0.0

    /// The record of `samples` (those of one source, or all) in `window`,
    /// or `nil` when none contributes. `mergedSum` replaces the plain sum
    /// for the all-sources record. Without `levels`, the sound levels'
    /// sums (``Tally/levelSum``, ``weightedLevelSum``) are left 0: a type
    /// of another aggregation style never stores or reads them.
    init?(
        _ samples: [StatisticsSample],
        in window: StatisticsWindow,
        mergedSum: Double? = nil,
        levels: Bool = true
    ) {
        // The views hand samples over in this order, all contributing: no copy then.
        var contributing = samples
        if !samples.allSatisfy(window.contains) { contributing = samples.filter(window.contains) }
        if !contributing.indices.dropFirst().allSatisfy({
            (contributing[$0 - 1].start, contributing[$0 - 1].seq) < (contributing[$0].start, contributing[$0].seq)
        }) {
            contributing.sort { ($0.start, $0.seq) < ($1.start, $1.seq) }
        }
        guard !contributing.isEmpty else { return nil }
        var plainSum = 0.0
        sole = contributing[0].source
        for sample in contributing {
            if sample.source != sole { sole = 0 }
            presence += 1
            plainSum += ReferenceStatistics.prorated(sample, in: window)
            minimum = min(minimum, sample.value)
            maximum = max(maximum, sample.value)
            let overlap = window.overlap(sample)
            weightedSum += overlap * sample.value
            weight += overlap
            if levels { weightedLevelSum += overlap * pow(10, sample.value / 10) }
            if sample.start >= window.start {
                started.add(sample.value, levels: levels)
            } else {
                carried.add(sample.value, levels: levels)
            }
            if (recentStart, recentEnd, recentSeq) < (sample.start, sample.end, sample.seq) {
                (recentStart, recentEnd, recentSeq, recentValue) = (sample.start, sample.end, sample.seq, sample.value)
            }
        }
        sum = mergedSum ?? plainSum
        self.plainSum = plainSum
        duration = ReferenceStatistics.coveredDuration(contributing, in: window)
    }

    init() {}

    /// The record of the only source of an all-sources record's samples.
    var asSource: ViewRecord {
        var record = self
        record.sum = plainSum
        return record
    }

    /// Adjacent records, oldest first, as one; `nil` when all are absent.
    static func combine(_ pieces: [ViewRecord?]) -> ViewRecord? {
        var combination = Combination()
        for piece in pieces { combination.append(piece) }
        return combination.record
    }

    /// Adjacent records combined one at a time, oldest first.
    struct Combination {
        private(set) var record: ViewRecord?
        private var isFirst = true

        mutating func append(_ piece: ViewRecord?) {
            defer { isFirst = false }
            guard let piece else { return }
            guard record != nil else {
                record = piece
                // Samples reaching into a later piece started in an earlier one.
                if !isFirst { record!.carried = Tally() }
                return
            }
            record!.add(piece)
        }
    }

    /// The record of the samples of `self` and of `other`, two disjoint sets
    /// of samples in the same window (a bucket's rows and the long samples
    /// reaching it). Every field adds up (the sum as a plain sum), except
    /// two that need the samples themselves: a merged sum (priority, ST-24)
    /// and the covered duration (overlaps counted once, ST-10, left not a
    /// number). Only for queries that read neither, or for one source.
    func union(_ other: ViewRecord) -> ViewRecord {
        var record = self
        record.presence &+= other.presence
        record.sum += other.sum
        record.plainSum += other.plainSum
        if other.sole != sole { record.sole = 0 }
        record.minimum = min(minimum, other.minimum)
        record.maximum = max(maximum, other.maximum)
        record.weightedSum += other.weightedSum
        record.weight += other.weight
        record.weightedLevelSum += other.weightedLevelSum
        record.started = started + other.started
        record.carried = carried + other.carried
        if (recentStart, recentEnd, recentSeq) < (other.recentStart, other.recentEnd, other.recentSeq) {
            (record.recentStart, record.recentEnd, record.recentSeq, record.recentValue) =
                (other.recentStart, other.recentEnd, other.recentSeq, other.recentValue)
        }
        record.duration = .nan
        return record
    }

    /// Adds the next adjacent piece.
    private mutating func add(_ piece: ViewRecord) {
        presence &+= piece.presence
        sum += piece.sum
        plainSum += piece.plainSum
        if piece.sole != sole { sole = 0 }
        minimum = min(minimum, piece.minimum)
        maximum = max(maximum, piece.maximum)
        weightedSum += piece.weightedSum
        weight += piece.weight
        weightedLevelSum += piece.weightedLevelSum
        started = started + piece.started
        if (recentStart, recentEnd, recentSeq) < (piece.recentStart, piece.recentEnd, piece.recentSeq) {
            recentStart = piece.recentStart
            recentEnd = piece.recentEnd
            recentSeq = piece.recentSeq
            recentValue = piece.recentValue
        }
        duration += piece.duration
    }

    /// The statistics the options ask for.
    func values(style: HKQuantityAggregationStyle, options: HKStatisticsOptions) -> StatisticsValues {
        var values = StatisticsValues()
        if options.contains(.cumulativeSum) { values.sum = sum }
        if options.contains(.discreteMin) { values.minimum = minimum }
        if options.contains(.discreteMax) { values.maximum = maximum }
        if options.contains(.mostRecent) {
            values.mostRecent = .init(value: recentValue, start: recentStart, end: recentEnd)
        }
        if options.contains(.duration) { values.duration = duration }
        if options.contains(.discreteAverage) {
            let plain = started + carried
            switch style {
            case .discreteArithmetic, .cumulative:
                values.average = plain.sum / Double(plain.count)
            case .discreteTemporallyWeighted:
                values.average = weight > 0 ? weightedSum / weight : plain.sum / Double(plain.count)
            case .discreteEquivalentContinuousLevel:
                let mean = weight > 0 ? weightedLevelSum / weight : plain.levelSum / Double(plain.count)
                values.average = 10 * log10(mean)
            }
        }
        return values
    }
}
