import AnchorageLog
import Foundation
import LMDB

/// The options an ``HKStatisticsQuery`` answered from the views may ask
/// for: those whose values over disjoint stretches of time combine exactly
/// (sums and durations add, minimums and maximums compare). Averages and
/// the most recent value need what the statistics objects do not carry.
private let combinableOptions: HKStatisticsOptions = [
    .cumulativeSum, .discreteMin, .discreteMax, .duration, .separateBySource,
]

extension StoreEngine {
    /// How many quarter hours an end of the views' stretch may move inward
    /// past samples that cross it.
    static let edgeMoves = 16

    /// The outcome of trying the views for an ``HKStatisticsQuery``.
    struct ViewedSingle {
        /// The statistics, or `nil` when no sample matches.
        var statistics: HKStatistics?
    }

    /// An ``HKStatisticsQuery`` answered from the statistics views, or
    /// `nil` when they cannot answer it exactly.
    ///
    /// HealthKit counts a matching cumulative sample in full, whatever part
    /// of it lies in the predicate's range (ST-21), while a view bucket
    /// holds each sample's share of it. So the views answer the stretch
    /// `[a, b)` of whole 15-minute buckets inside the range only where no
    /// visible sample crosses `a` or `b` (each end moves inward up to
    /// ``edgeMoves`` quarter hours to find such a place): every sample there
    /// is then wholly inside and its share is all of it. The samples in the slivers left at
    /// the edges (before `a`, from `b`) are read and evaluated as the
    /// reference evaluator does, and the two parts combined; their samples
    /// lie in disjoint stretches of time, so merged sums add (ST-24).
    /// The statistics' interval is the matching samples' earliest start to
    /// latest end (ST-6), found in the type/time index.
    ///
    /// Eligible as collection queries are (``ViewEligibility``), for the
    /// ``combinableOptions``. The cost is that of the slivers' samples, the
    /// view rows covering the range, and the index rows near its ends.
    func viewStatistics(
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        options: HKStatisticsOptions,
        caller: Caller
    ) throws(HKError) -> ViewedSingle? {
        guard !options.isEmpty, combinableOptions.isSuperset(of: options) else { return nil }
        let found = try read {
            txn -> (inner: HKStatistics?, extent: ClosedRange<Double>?, edges: [StatisticsSample])? in
            var session = ReadSession(caller: caller)
            let scope = try scope(for: type, in: txn, session: &session)
            let eligibility = ViewEligibility(predicate: predicate, configuration: configuration, scope: scope)
            let kind = EntryKind(rawValue: type.kindCode)
            guard eligibility.viewable, let extent = try views.extent(of: kind, in: txn) else { return nil }
            let fine = 900.0
            let lower = eligibility.start.map { $0.timeIntervalSinceReferenceDate }
            let upper = eligibility.end.map { $0.timeIntervalSinceReferenceDate }
            var a = ((lower ?? extent.lowerBound.timeIntervalSinceReferenceDate) / fine).rounded(.up) * fine
            var b =
                upper.map { ($0 / fine).rounded(.down) * fine }
                ?? ((extent.upperBound.timeIntervalSinceReferenceDate / fine).rounded(.down) + 1) * fine
            guard a.isFinite, b.isFinite, b - a < Double(Int32.max) else { return nil }
            // A visible sample across either end would be split by the
            // views: move the end a quarter hour inward, a few times, until
            // none crosses it (the sliver grows by what it passes).
            var moves = 0
            while a < b, try isCrossed(a, type: type, in: txn, session: &session) {
                guard moves < Self.edgeMoves else { return nil }
                a += fine
                moves += 1
            }
            moves = 0
            while a < b, try isCrossed(b, type: type, in: txn, session: &session) {
                guard moves < Self.edgeMoves else { return nil }
                b -= fine
                moves += 1
            }
            guard a < b else { return nil }
            let (start, end) = (Date(timeIntervalSinceReferenceDate: a), Date(timeIntervalSinceReferenceDate: b))
            let grid = try BucketGrid(
                anchor: start,
                intervalComponents: DateComponents(second: Int(b - a)),
                timeZone: TimeZone(identifier: "UTC")!
            )
            guard let answer = try views.buckets([0], of: type, grid: grid, options: options, in: txn),
                answer.unanswered.isEmpty
            else { return nil }
            // The slivers: samples ending by `a` (counted in full), and from `b`.
            let ranking = try views.ranking(of: kind, in: txn)
            var edges: [StatisticsSample] = []
            let slivers: [(ObjectPredicate, (HKSample) -> Bool)] = [
                (.dateRange(start: eligibility.start, end: start, options: []), { $0.startDate < start }),
                (.dateRange(start: end, end: eligibility.end, options: []), { $0.startDate >= end }),
            ]
            for (part, keep) in slivers where part != .dateRange(start: end, end: end, options: []) {
                for (seq, sample) in try matchingSamplesWithSeqs(of: type, predicate: part, in: txn, session: &session)
                where keep(sample) {
                    guard let quantitySample = sample as? HKQuantitySample else { continue }
                    edges.append(StatisticsSample(quantitySample, seq: seq, unit: type.canonicalUnit, ranking: ranking))
                }
            }
            let inner = answer.buckets[0]
            let innerExtent = inner == nil ? nil : try sampleExtent(of: kind, from: a, before: b, in: txn)
            return (inner, innerExtent, edges)
        }
        guard let (inner, innerExtent, edges) = found else { return nil }
        let outer = ReferenceStatistics.single(edges, type: type, options: options)
        guard let inner, let innerExtent else { return ViewedSingle(statistics: outer) }
        var startDate = innerExtent.lowerBound
        var endDate = innerExtent.upperBound
        var merged = inner.merged
        var bySource: [HKSource: StatisticsValues] = [:]
        for source in inner.sources ?? [] { bySource[source] = inner.bySource[source.bundleIdentifier] }
        if let outer {
            startDate = min(startDate, outer.startDate.timeIntervalSinceReferenceDate)
            endDate = max(endDate, outer.endDate.timeIntervalSinceReferenceDate)
            merged = Self.combined(merged, outer.merged)
            for source in outer.sources ?? [] {
                guard let values = outer.bySource[source.bundleIdentifier] else { continue }
                bySource[source] = bySource[source].map { Self.combined($0, values) } ?? values
            }
        }
        return ViewedSingle(
            statistics: HKStatistics(
                quantityType: type,
                startDate: Date(timeIntervalSinceReferenceDate: startDate),
                endDate: Date(timeIntervalSinceReferenceDate: endDate),
                options: options,
                merged: merged,
                bySource: bySource
            )
        )
    }

    /// Whether a visible sample of `type` starts before `seconds` and ends
    /// after it.
    private func isCrossed(
        _ seconds: Double,
        type: HKQuantityType,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> Bool {
        let edge = Date(timeIntervalSinceReferenceDate: seconds)
        return try matchingSamplesWithSeqs(
            of: type,
            predicate: .dateRange(start: edge, end: edge, options: []),
            in: txn,
            session: &session
        ).contains { $0.sample.startDate < edge && $0.sample.endDate > edge }
    }

    /// The values of two sets of samples in disjoint stretches of time.
    private static func combined(_ a: StatisticsValues, _ b: StatisticsValues) -> StatisticsValues {
        func pick(_ x: Double?, _ y: Double?, _ join: (Double, Double) -> Double) -> Double? {
            guard let x else { return y }
            guard let y else { return x }
            return join(x, y)
        }
        var values = StatisticsValues()
        values.sum = pick(a.sum, b.sum, +)
        values.minimum = pick(a.minimum, b.minimum, min)
        values.maximum = pick(a.maximum, b.maximum, max)
        values.duration = pick(a.duration, b.duration, +)
        return values
    }

    /// The earliest start and latest end, in seconds since the reference
    /// date, of the visible samples of `kind` that start in `[from, before)`,
    /// read from the type/time index: per duration tier, the first row
    /// from `from`, and the rows before `before` back to where no longer
    /// sample of the tier could end later.
    private func sampleExtent(
        of kind: EntryKind,
        from: Double,
        before: Double,
        in txn: borrowing ReadTransaction
    ) throws -> ClosedRange<Double>? {
        let lowerKey = IndexKey.date(Date(timeIntervalSinceReferenceDate: from))
        let upperKey = IndexKey.date(Date(timeIntervalSinceReferenceDate: before))
        let longest =
            try txn.withValue(forKey: kind.rawValue.bigEndianBytes, in: index.kindStats) {
                Double(bitPattern: $0.uint64(at: 0))
            } ?? 0
        var earliest = Double.infinity
        var latest = -Double.infinity
        try txn.withCursor(on: index.typeTime) { cursor in
            for tier in 0..<DurationTier.count {
                let reach = tier < DurationTier.bounds.count ? min(DurationTier.bounds[tier], longest) : longest
                func inTier(_ key: UnsafeRawBufferPointer) -> Bool {
                    key.count == 21 && key.uint32(at: 0) == kind.rawValue && key[4] == UInt8(tier)
                }
                try IndexKey.withTimeKey(kind, UInt8(tier), lowerKey) { start in
                    try cursor.scan(from: start) { key, _ in
                        if inTier(key), key.uint64(at: 5) < upperKey {
                            earliest = min(earliest, IndexKey.seconds(fromDateKey: key.uint64(at: 5)))
                        }
                        return false
                    }
                }
                try IndexKey.withTimeKey(kind, UInt8(tier), upperKey) { start in
                    try cursor.scanReversed(from: Array(start)) { key, value in
                        guard inTier(key), key.uint64(at: 5) >= lowerKey else { return false }
                        let startSeconds = IndexKey.seconds(fromDateKey: key.uint64(at: 5))
                        guard key.uint64(at: 5) < upperKey else { return true }
                        if startSeconds + reach < latest { return false }
                        latest = max(latest, IndexKey.seconds(fromDateKey: value.uint64(at: 0)))
                        return true
                    }
                }
            }
        }
        return earliest <= latest ? earliest...latest : nil
    }
}
