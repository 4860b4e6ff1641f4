import AnchorageLog
import AnchorageModel
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
    /// The outcome of trying the views for an ``HKStatisticsQuery``.
    struct ViewedSingle {
        /// The statistics, or `nil` when no sample matches.
        var statistics: HKStatistics?
    }

    /// An ``HKStatisticsQuery`` answered from the statistics views, or
    /// `nil` when they cannot answer it exactly.
    ///
    /// HealthKit counts a matching cumulative sample in full, whatever part
    /// of it lies in the predicate's range `[s, e)` (ST-21), while the views
    /// hold each sample's share of each quarter hour. Time is additive for
    /// every combinable value (merged sums too, ST-24: they are cut at every
    /// sample boundary), so the matching samples' statistics over their
    /// whole span are those of five disjoint stretches, added up:
    ///
    /// - before `s`: the matching samples that start before it (they reach
    ///   it), over `[their earliest start, s)`;
    /// - `[s, a)` and `[b, e)`: the slivers at the edges, from the samples
    ///   reaching them, each sample prorated;
    /// - `[a, b)`, the whole quarter hours inside the range: from the views;
    /// - from `e`: the matching samples that end after it, over
    ///   `[e, their latest end]`.
    ///
    /// Each sample's shares add up to all of it. The statistics' interval is
    /// the matching samples' earliest start to latest end (ST-6), found in
    /// the type/time index.
    ///
    /// Eligible as collection queries are (``ViewEligibility``), for the
    /// ``combinableOptions``, unless the type has a sample of several
    /// quantities (SERIES-6: the reference evaluator answers, from the
    /// matching samples' quantities). The cost is that of the view rows
    /// covering the range (and of the samples of the pieces where long
    /// samples meet rows, ``LongFold``), the samples in the slivers and
    /// across the ends, and a few index rows per duration tier.
    func viewStatistics(
        of type: HKQuantityType,
        predicate: ObjectPredicate?,
        options: HKStatisticsOptions,
        caller: Caller
    ) throws(HKError) -> ViewedSingle? {
        guard !options.isEmpty, combinableOptions.isSuperset(of: options) else { return nil }
        let found = try read(as: caller) { txn, session -> (parts: [HKStatistics], span: ClosedRange<Double>?)? in
            let scope = try scope(for: type, in: txn, session: &session)
            let eligibility = ViewEligibility(predicate: predicate, configuration: configuration, scope: scope)
            let kind = EntryKind(rawValue: type.kindCode)
            // A sample of several quantities counts in full as its quantities,
            // which the stretches below, cut by sample, do not see whole.
            guard eligibility.viewable, try !views.hasSeries(of: kind, in: txn),
                let extent = try views.extent(of: kind, in: txn)
            else { return nil }
            let fine = 900.0
            let lower = eligibility.start?.timeIntervalSinceReferenceDate
            let upper = eligibility.end?.timeIntervalSinceReferenceDate
            let a = ((lower ?? extent.lowerBound.timeIntervalSinceReferenceDate) / fine).rounded(.up) * fine
            let b =
                upper.map { ($0 / fine).rounded(.down) * fine }
                ?? ((extent.upperBound.timeIntervalSinceReferenceDate / fine).rounded(.down) + 1) * fine
            guard a.isFinite, b.isFinite, a < b, b - a < Double(Int32.max) else { return nil }
            // Without a bound, the data's own extent bounds the range.
            let s = lower ?? a
            let e = upper ?? b
            let grid = try BucketGrid(
                anchor: Date(timeIntervalSinceReferenceDate: a),
                intervalComponents: DateComponents(second: Int(b - a)),
                timeZone: TimeZone(identifier: "UTC")!
            )
            guard let answer = try views.buckets([0], of: type, grid: grid, options: options, in: txn) else {
                return nil
            }
            let ranking = try views.ranking(of: kind, in: txn)
            func read(_ from: Double, _ to: Double) -> ObjectPredicate {
                .dateRange(
                    start: Date(timeIntervalSinceReferenceDate: from),
                    end: Date(timeIntervalSinceReferenceDate: to),
                    options: []
                )
            }
            let before = try statisticsInputs(of: type, read(s, s), ranking: ranking, in: txn, session: &session)
                .filter { $0.start < s }
            let after = try statisticsInputs(of: type, read(e, e), ranking: ranking, in: txn, session: &session)
                .filter { $0.end > e && $0.start < e }
            var stretches: [(StatisticsWindow, StatisticsSamples)] = []
            if let first = before.samples.map(\.start).min() {
                stretches.append((StatisticsWindow(start: first, end: s, closed: false), before))
            }
            if s < a {
                let group = try statisticsInputs(of: type, read(s, a), ranking: ranking, in: txn, session: &session)
                stretches.append((StatisticsWindow(start: s, end: a, closed: false), group))
            }
            if b < e {
                let group = try statisticsInputs(of: type, read(b, e), ranking: ranking, in: txn, session: &session)
                stretches.append((StatisticsWindow(start: b, end: e, closed: false), group))
            }
            if let last = after.samples.map(\.end).max() {
                stretches.append((StatisticsWindow(start: e, end: last, closed: true), after))
            }
            var parts = answer[0].map { [$0] } ?? []
            for (window, group) in stretches {
                if let part = ReferenceStatistics.statistics(
                    group.samples,
                    sources: group.sources,
                    in: window,
                    type: type,
                    options: options
                ) {
                    parts.append(part)
                }
            }
            var span = try sampleExtent(of: kind, from: s, before: e, in: txn)
            for sample in before.samples + after.samples {
                span =
                    min(
                        span?.lowerBound ?? sample.start,
                        sample.start
                    )...max(span?.upperBound ?? sample.end, sample.end)
            }
            return (parts, span)
        }
        guard let (parts, span) = found else { return nil }
        guard let first = parts.first, let span else { return ViewedSingle(statistics: nil) }
        var merged = first.merged
        var bySource: [HKSource: StatisticsValues] = [:]
        for (position, part) in parts.enumerated() {
            if position > 0 { merged = Self.combined(merged, part.merged) }
            for source in part.sources ?? [] {
                guard let values = part.bySource[source.bundleIdentifier] else { continue }
                bySource[source] = bySource[source].map { Self.combined($0, values) } ?? values
            }
        }
        return ViewedSingle(
            statistics: HKStatistics(
                quantityType: type,
                startDate: Date(timeIntervalSinceReferenceDate: span.lowerBound),
                endDate: Date(timeIntervalSinceReferenceDate: span.upperBound),
                options: options,
                merged: merged,
                bySource: bySource
            )
        )
    }

    /// The visible samples of `type` matching `predicate`, as statistics inputs.
    private func statisticsInputs(
        of type: HKQuantityType,
        _ predicate: ObjectPredicate,
        ranking: SourceRanking,
        in txn: borrowing ReadTransaction,
        session: inout ReadSession
    ) throws -> StatisticsSamples {
        var samples = StatisticsSamplesBuilder(ranking: ranking)
        // Statistics split a quantity series into its quantities (SERIES-6).
        session.decoder.readsSeriesPoints = true
        for (seq, sample) in try matchingSamplesWithSeqs(of: type, predicate: predicate, in: txn, session: &session) {
            if let sample = sample as? HKQuantitySample { samples.append(sample, seq: seq, unit: type.canonicalUnit) }
        }
        return samples.build()
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
                        latest = max(latest, try end(of: key.uint64(at: 13), row: value, in: txn))
                        return true
                    }
                }
            }
        }
        return earliest <= latest ? earliest...latest : nil
    }
}

extension StoreEngine {
    /// The end (reference-date seconds) of the sample saved at `seq`, from
    /// its type/time row, or, in a sealed store (whose rows hold none), from
    /// the sample itself.
    func end(
        of seq: UInt64,
        row: UnsafeRawBufferPointer,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> Double {
        if row.count >= 8 { return IndexKey.seconds(fromDateKey: row.uint64(at: 0)) }
        let end = try log.withEntry(at: seq, in: txn) { _, payload -> Double? in
            guard let payload else { return nil }
            var decoder = IndexWriterContext.countingDecoder()
            return try? decoder.summary(payload).end.timeIntervalSinceReferenceDate
        }
        return (end ?? nil) ?? -.infinity
    }
}
