import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// One query bucket of a collection query as the views read it: its index
/// and dates, and the view buckets (pieces) it is the union of.
struct BucketPlan {
    struct Piece {
        var level: Int
        var bucket: Int64
        /// Its position in the list of wanted buckets of its level.
        var position: Int

        var window: StatisticsWindow { ViewLevel.window(level: level, bucket: bucket) }
    }

    var index: Int
    var start: Date
    var end: Date
    var pieces: [Piece]
}

/// The records of query buckets, oldest first: the rows of their pieces,
/// with the long samples (`st.long`) reaching each added.
///
/// A long sample adds to a piece's record as its own record of the piece
/// (``ViewRecord/union(_:)``) unless the query asks for a sum or a
/// duration: a merged sum ranks every sample reaching a moment (ST-24) and
/// a duration counts overlaps once (ST-10), so a piece where long samples
/// meet rows is then computed from its samples (`st.samples` and the long
/// ones), by the same function that computes the rows. A query bucket no
/// row reaches is computed from its long samples alone, at once. Either
/// way each answer is what the rows would hold if the long samples were in
/// them, and what a long sample costs to read grows with the query buckets
/// it reaches, not with its span.
struct LongFold {
    private let views: StatisticsViews
    private let kind: EntryKind
    private let separate: Bool
    private let mergesSums: Bool
    private let needsSamples: Bool
    /// The long samples reaching the query's range, by start then seq.
    private let longs: [StatisticsSample]
    private let known: StatisticsViews.NumberedSources?
    /// The next long sample not yet reached, and those reaching the last
    /// query bucket read.
    private var next = 0
    private var active: [StatisticsSample] = []
    private var shortest: Double?

    init(
        views: StatisticsViews,
        kind: EntryKind,
        longs: [LongSample],
        table: [UInt32: HKSource],
        separate: Bool,
        options: HKStatisticsOptions,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws {
        self.views = views
        self.kind = kind
        self.separate = separate
        mergesSums = options.contains(.cumulativeSum)
        needsSamples = options.contains(.cumulativeSum) || options.contains(.duration)
        guard !longs.isEmpty else {
            (self.longs, known) = ([], nil)
            return
        }
        let known = StatisticsViews.NumberedSources(table, ranking: try views.ranking(of: kind, in: txn))
        self.known = known
        self.longs = longs.map { long in
            StatisticsSample(
                start: long.start,
                end: long.row.end,
                value: long.row.value,
                seq: long.seq,
                source: long.row.source,
                rank: known.rank(long.row.source, userEntered: long.row.userEntered)
            )
        }
    }

    /// Whether no long sample reaches the query's range: its buckets are
    /// their rows alone.
    var isEmpty: Bool { longs.isEmpty }

    /// The merged record of `plan` and its records by source number (for
    /// `sources`); `nil` when no sample reaches it. Plans come oldest first.
    mutating func records(
        for plan: BucketPlan,
        rows: [UInt32: [[ViewRecord?]]],
        sources: [UInt32],
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> (ViewRecord, [UInt32: ViewRecord])? {
        let start = plan.start.timeIntervalSinceReferenceDate
        let end = plan.end.timeIntervalSinceReferenceDate
        while next < longs.count && longs[next].start < end {
            active.append(longs[next])
            next += 1
        }
        if !active.isEmpty { active.removeAll { $0.end <= start } }
        let merged = rows[StatisticsViews.merged]!
        if !active.isEmpty && plan.pieces.allSatisfy({ merged[$0.level][$0.position] == nil }) {
            return records(of: active, in: StatisticsWindow(start: start, end: end, closed: false))
        }
        var total = ViewRecord.Combination()
        var parts: [UInt32: ViewRecord.Combination] = [:]
        for piece in plan.pieces {
            var record = merged[piece.level][piece.position]
            var pieceParts: [UInt32: ViewRecord] = [:]
            for number in sources {
                if let row = rows[number]![piece.level][piece.position] { pieceParts[number] = row }
            }
            let window = piece.window
            let reaching = active.isEmpty ? [] : active.filter(window.contains)
            if !reaching.isEmpty {
                if record == nil {
                    (record, pieceParts) = records(of: reaching, in: window) ?? (nil, [:])
                } else if !needsSamples, let added = records(of: reaching, in: window) {
                    record = record?.union(added.0)
                    for (number, part) in added.1 { pieceParts[number] = pieceParts[number]?.union(part) ?? part }
                } else {
                    let longest = try shortest ?? views.longest(of: kind, in: txn)
                    shortest = longest
                    let rowSamples = try views.samples(
                        of: kind,
                        overlapping: window,
                        sources: known!,
                        longest: longest,
                        in: txn
                    )
                    (record, pieceParts) = records(of: rowSamples + reaching, in: window) ?? (nil, [:])
                }
            }
            total.append(record)
            for number in sources { parts[number, default: ViewRecord.Combination()].append(pieceParts[number]) }
        }
        guard let record = total.record else { return nil }
        return (record, parts.compactMapValues(\.record))
    }

    /// The records of `samples` in `window`: merged, and by source when the
    /// query separates them.
    private func records(
        of samples: [StatisticsSample],
        in window: StatisticsWindow
    ) -> (ViewRecord, [UInt32: ViewRecord])? {
        let mergedSum = mergesSums ? ReferenceStatistics.mergedSum(samples, in: window) : nil
        guard let record = ViewRecord(samples, in: window, mergedSum: mergedSum) else { return nil }
        var parts: [UInt32: ViewRecord] = [:]
        if separate {
            for (number, own) in Dictionary(grouping: samples, by: \.source) {
                parts[number] = ViewRecord(own, in: window)
            }
        }
        return (record, parts)
    }
}
