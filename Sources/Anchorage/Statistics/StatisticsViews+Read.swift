import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension StatisticsViews {
    /// The buckets `indices` of a collection query read from the views,
    /// with each query bucket the union of the fewest view buckets and the
    /// long samples reaching it (``StatisticsViews+Fold``); empty buckets
    /// are left out. `nil` when a bucket does not start and end on
    /// 15-minute boundaries, so the views cannot answer it exactly.
    func buckets(
        _ indices: some Collection<Int>,
        of type: HKQuantityType,
        grid: BucketGrid,
        options: HKStatisticsOptions,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [Int: HKStatistics]? {
        let kind = EntryKind(rawValue: type.kindCode)
        // Query buckets come in time order, and so do their pieces at each
        // level: each level's list is sorted as it is built, and a piece
        // finds its row by its position in that list.
        var plans: [BucketPlan] = []
        var wanted = [[Int64]](repeating: [], count: ViewLevel.lengths.count)
        // Bounds are computed for each run of consecutive buckets at once.
        let sorted = indices.sorted()
        var runStart = 0
        while runStart < sorted.count {
            var runEnd = runStart
            while runEnd + 1 < sorted.count && sorted[runEnd + 1] == sorted[runEnd] + 1 { runEnd += 1 }
            let dates = grid.boundaries(from: sorted[runStart], through: sorted[runEnd])
            for (offset, index) in sorted[runStart...runEnd].enumerated() {
                let (start, end) = (dates[offset], dates[offset + 1])
                guard let from = Self.fineBoundary(start), let to = Self.fineBoundary(end) else { return nil }
                let pieces = ViewLevel.tile(from: from, to: to).map { piece in
                    wanted[piece.level].append(piece.bucket)
                    return BucketPlan.Piece(
                        level: piece.level,
                        bucket: piece.bucket,
                        position: wanted[piece.level].count - 1
                    )
                }
                plans.append(BucketPlan(index: index, start: start, end: end, pieces: pieces))
            }
            runStart = runEnd + 1
        }
        guard let first = plans.first, let last = plans.last else { return [:] }
        let longs = try longSamples(
            of: kind,
            from: first.start.timeIntervalSinceReferenceDate,
            before: last.end.timeIntervalSinceReferenceDate,
            in: txn
        )
        let separate = options.contains(.separateBySource)
        let table = separate || !longs.isEmpty ? try sourceTable(of: kind, in: txn) : [:]
        let mergedRecords = try (0..<ViewLevel.lengths.count).map { level in
            try records(kind: kind, source: Self.merged, level: level, wanted: wanted[level], in: txn)
        }
        var rows: [UInt32: [[ViewRecord?]]] = [Self.merged: mergedRecords]
        let numbers = separate ? table.keys.sorted() : []
        for source in numbers {
            rows[source] = try (0..<ViewLevel.lengths.count).map { level in
                try sourceRecords(
                    kind: kind,
                    source: source,
                    level: level,
                    wanted: wanted[level],
                    merged: mergedRecords[level],
                    in: txn
                )
            }
        }
        var fold = try LongFold(
            views: self,
            kind: kind,
            longs: longs,
            table: table,
            separate: separate,
            options: options,
            in: txn
        )
        var answer: [Int: HKStatistics] = [:]
        answer.reserveCapacity(plans.count)
        let style = type.aggregationStyle
        let merged = rows[Self.merged]!
        let sourceRows = numbers.map { rows[$0]! }
        for plan in plans {
            let record: ViewRecord
            var bySource: [HKSource: StatisticsValues] = [:]
            if fold.isEmpty {
                // No long sample near: the rows alone, as they are read.
                var total = ViewRecord.Combination()
                for piece in plan.pieces { total.append(merged[piece.level][piece.position]) }
                guard let found = total.record else { continue }
                record = found
                for (number, levels) in zip(numbers, sourceRows) {
                    var part = ViewRecord.Combination()
                    for piece in plan.pieces { part.append(levels[piece.level][piece.position]) }
                    if let found = part.record {
                        bySource[table[number]!] = found.values(style: style, options: options)
                    }
                }
            } else {
                guard let (found, parts) = try fold.records(for: plan, rows: rows, sources: numbers, in: txn) else {
                    continue
                }
                record = found
                for (number, part) in parts { bySource[table[number]!] = part.values(style: style, options: options) }
            }
            answer[plan.index] = HKStatistics(
                quantityType: type,
                startDate: plan.start,
                endDate: plan.end,
                options: options,
                merged: record.values(style: style, options: options),
                bySource: bySource
            )
        }
        return answer
    }

    /// Whether `kind` has a visible sample of several quantities
    /// (SERIES-6): one `st.series` row is enough.
    func hasSeries(of kind: EntryKind, in txn: borrowing some ReadableTransaction & ~Copyable) throws -> Bool {
        guard let series else { return false }
        var found = false
        try txn.withCursor(on: series) { cursor in
            try cursor.scan(from: kind.rawValue.bigEndianBytes) { key, _ in
                found = key.count == 20 && key.uint32(at: 0) == kind.rawValue
                return false
            }
        }
        return found
    }

    /// From the start of the first fine bucket where `kind` has data (or of
    /// its first long sample) to the start of the last one (or the end of
    /// its latest-ending long sample).
    func extent(of kind: EntryKind, in txn: borrowing some ReadableTransaction & ~Copyable) throws -> ClosedRange<Date>?
    {
        let fine = try fineExtent(of: kind, in: txn)
        guard let (first, last) = try longExtent(of: kind, in: txn) else { return fine }
        let lower = min(fine?.lowerBound.timeIntervalSinceReferenceDate ?? first, first)
        let upper = max(fine?.upperBound.timeIntervalSinceReferenceDate ?? last, last)
        return Date(timeIntervalSinceReferenceDate: lower)...Date(timeIntervalSinceReferenceDate: upper)
    }

    /// The first and last fine buckets where `kind` has data.
    private func fineExtent(
        of kind: EntryKind,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> ClosedRange<Date>? {
        let prefix = kind.rawValue.bigEndianBytes + Self.merged.bigEndianBytes + [0]
        var first: Int64?
        var last: Int64?
        try txn.withCursor(on: buckets) { cursor in
            try cursor.scan(from: prefix) { key, _ in
                if key.count == 17, key.starts(with: prefix) { first = ViewLevel.bucket(ofKey: key) }
                return false
            }
            try cursor.scanReversed(from: prefix + [0xFF]) { key, _ in
                if key.count == 17, key.starts(with: prefix) { last = ViewLevel.bucket(ofKey: key) }
                return false
            }
        }
        guard let first, let last else { return nil }
        return Date(
            timeIntervalSinceReferenceDate: Double(first * ViewLevel.fine)
        )...Date(timeIntervalSinceReferenceDate: Double(last * ViewLevel.fine))
    }

    /// `date` in whole seconds from the reference date, when it falls on a
    /// 15-minute boundary.
    static func fineBoundary(_ date: Date) -> Int64? {
        let seconds = date.timeIntervalSinceReferenceDate
        guard seconds.isFinite, abs(seconds) < 1e15, seconds == seconds.rounded() else { return nil }
        let whole = Int64(seconds)
        return whole % ViewLevel.fine == 0 ? whole : nil
    }

    /// The all-sources records (`source` 0), or the rows of one source, of
    /// one level for the buckets `wanted` (sorted), by position: one
    /// cursor seek per run of consecutive buckets, then one step per row.
    /// An all-sources roll-up without a row holds at most one fine bucket
    /// with data, whose record is the bucket's (docs/store-format.md,
    /// "Sparse roll-ups").
    func records(
        kind: EntryKind,
        source: UInt32,
        level: Int,
        wanted: [Int64],
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [ViewRecord?] {
        try recordsCountingRows(kind: kind, source: source, level: level, wanted: wanted, in: txn).records
    }

    /// ``records(kind:source:level:wanted:in:)``, and how many of them are
    /// rows of the level itself (the others are their only fine bucket's).
    func recordsCountingRows(
        kind: EntryKind,
        source: UInt32,
        level: Int,
        wanted: [Int64],
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> (records: [ViewRecord?], rows: Int) {
        var records = [ViewRecord?](repeating: nil, count: wanted.count)
        var rows = 0
        guard !wanted.isEmpty else { return (records, rows) }
        try txn.withCursor(on: buckets) { cursor in
            try Self.scanRuns(of: wanted, kind: kind, source: source, level: level, cursor: cursor) {
                position,
                record in
                records[position] = record
                rows += 1
            }
            guard level > 0, source == Self.merged else { return }
            // The buckets without a row, by their fine buckets.
            let ratio = ViewLevel.lengths[level] / ViewLevel.fine
            let gaps = wanted.indices.filter { records[$0] == nil }
            guard !gaps.isEmpty else { return }
            try Self.scanRuns(
                of: gaps.map { wanted[$0] * ratio },
                kind: kind,
                source: source,
                level: 0,
                span: ratio,
                cursor: cursor
            ) { position, record in
                records[gaps[position]] = record
            }
        }
        return (records, rows)
    }

    /// The records of source `source` at one level for the buckets
    /// `wanted`, given the all-sources records of the same buckets
    /// (``records(kind:source:level:wanted:in:)``): its row, or,
    /// where the source is the bucket's only one, the all-sources record as
    /// its own (docs/store-format.md, "One source").
    func sourceRecords(
        kind: EntryKind,
        source: UInt32,
        level: Int,
        wanted: [Int64],
        merged: [ViewRecord?],
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [ViewRecord?] {
        var records = merged.map { $0.flatMap { $0.sole == source ? $0.asSource : nil } }
        // Rows only where the bucket has several sources.
        let several = wanted.indices.filter { merged[$0].map { $0.sole == 0 } ?? false }
        guard !several.isEmpty else { return records }
        try txn.withCursor(on: buckets) { cursor in
            try Self.scanRuns(
                of: several.map { wanted[$0] },
                kind: kind,
                source: source,
                level: level,
                cursor: cursor
            ) { position, record in
                records[several[position]] = record
            }
        }
        return records
    }

    /// Scans the rows of one source and level for the buckets `wanted`
    /// (sorted, each `span` buckets of `level` long from its number), one
    /// seek per run of adjacent ones, and calls `found` with the position
    /// of the bucket holding each row.
    private static func scanRuns(
        of wanted: [Int64],
        kind: EntryKind,
        source: UInt32,
        level: Int,
        span: Int64 = 1,
        cursor: borrowing Cursor,
        found: (Int, ViewRecord) -> Void
    ) throws {
        let head = ViewLevel.key(kind: kind, source: source, level: level, bucket: 0).withUnsafeBytes {
            $0.loadUnaligned(as: UInt64.self)
        }
        var position = 0
        while position < wanted.count {
            // A run of adjacent buckets: wanted[position ... end].
            var end = position
            while end + 1 < wanted.count && wanted[end + 1] == wanted[end] + span { end += 1 }
            let limit = wanted[end] + span
            try ViewLevel.withKey(kind: kind, source: source, level: level, bucket: wanted[position]) { from in
                try cursor.scan(from: from) { key, value in
                    guard key.count == 17, key.loadUnaligned(as: UInt64.self) == head, key[8] == UInt8(level) else {
                        return false
                    }
                    let bucket = ViewLevel.bucket(ofKey: key)
                    guard bucket < limit else { return false }
                    while wanted[position] + span <= bucket { position += 1 }
                    if let record = ViewRecord(value, source: source) { found(position, record) }
                    return true
                }
            }
            position = end + 1
        }
    }
}
