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

        mutating func add(_ value: Double) {
            count += 1
            sum += value
            levelSum += pow(10, value / 10)
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

    static let size = 132

    /// The record of `samples` (those of one source, or all) in `window`,
    /// or `nil` when none contributes. `mergedSum` replaces the plain sum
    /// for the all-sources record.
    init?(_ samples: [StatisticsSample], in window: StatisticsWindow, mergedSum: Double? = nil) {
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
        for sample in contributing {
            presence += 1
            plainSum += ReferenceStatistics.prorated(sample, in: window)
            minimum = min(minimum, sample.value)
            maximum = max(maximum, sample.value)
            let overlap = window.overlap(sample)
            weightedSum += overlap * sample.value
            weight += overlap
            weightedLevelSum += overlap * pow(10, sample.value / 10)
            if sample.start >= window.start { started.add(sample.value) } else { carried.add(sample.value) }
            if (recentStart, recentEnd, recentSeq) < (sample.start, sample.end, sample.seq) {
                (recentStart, recentEnd, recentSeq, recentValue) = (sample.start, sample.end, sample.seq, sample.value)
            }
        }
        sum = mergedSum ?? plainSum
        duration = ReferenceStatistics.coveredDuration(contributing, in: window)
    }

    private init() {}

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

extension ViewRecord {
    /// Calls `body` with the record's bytes (big-endian integers and IEEE
    /// bits) in a temporary buffer.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: Self.size, alignment: 8) { buffer in
            var offset = 0
            func put(_ value: UInt32) {
                buffer.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
                offset += 4
            }
            func put(_ value: UInt64) {
                buffer.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            func put(_ value: Double) { put(value.bitPattern) }
            put(presence)
            put(sum)
            put(minimum)
            put(maximum)
            put(weightedSum)
            put(weight)
            put(weightedLevelSum)
            put(started.count)
            put(started.sum)
            put(started.levelSum)
            put(carried.count)
            put(carried.sum)
            put(carried.levelSum)
            put(recentStart)
            put(recentEnd)
            put(recentSeq)
            put(recentValue)
            put(duration)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Reads a record; `nil` for bytes of the wrong size.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count == Self.size else { return nil }
        var offset = 0
        func word32() -> UInt32 {
            defer { offset += 4 }
            return UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        func word() -> UInt64 {
            defer { offset += 8 }
            return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func double() -> Double { Double(bitPattern: word()) }
        self.init()
        presence = word32()
        sum = double()
        minimum = double()
        maximum = double()
        weightedSum = double()
        weight = double()
        weightedLevelSum = double()
        started = Tally(count: word32(), sum: double(), levelSum: double())
        carried = Tally(count: word32(), sum: double(), levelSum: double())
        recentStart = double()
        recentEnd = double()
        recentSeq = word()
        recentValue = double()
        duration = double()
    }
}
