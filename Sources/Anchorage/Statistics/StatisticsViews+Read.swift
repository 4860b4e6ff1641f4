import AnchorageLog
import Foundation
import LMDB

extension StatisticsViews {
    /// The buckets `indices` of a collection query read from the views,
    /// with each query bucket the union of the fewest view buckets; `nil`
    /// when a bucket does not start and end on 15-minute boundaries, so the
    /// views cannot answer it exactly.
    func buckets(
        _ indices: some Collection<Int>,
        of type: HKQuantityType,
        grid: BucketGrid,
        options: HKStatisticsOptions,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [Int: HKStatistics]? {
        let kind = EntryKind(rawValue: type.kindCode)
        var plans: [(index: Int, start: Date, end: Date, pieces: [(level: Int, bucket: Int64)])] = []
        var needed = [Set<Int64>](repeating: [], count: ViewLevel.lengths.count)
        var previous: (index: Int, end: Date)?
        for index in indices {
            // Consecutive buckets share a boundary: one calendar step each.
            let start = previous?.index == index - 1 ? previous!.end : grid.start(of: index)
            let end = grid.start(of: index + 1)
            previous = (index, end)
            guard let from = Self.fineBoundary(start), let to = Self.fineBoundary(end) else { return nil }
            let pieces = ViewLevel.tile(from: from, to: to)
            for piece in pieces { needed[piece.level].insert(piece.bucket) }
            plans.append((index, start, end, pieces))
        }
        let table = options.contains(.separateBySource) ? try sourceTable(of: kind, in: txn) : [:]
        var rows: [UInt32: [[Int64: ViewRecord]]] = [:]
        for source in [Self.merged] + table.keys.sorted() {
            rows[source] = try (0..<ViewLevel.lengths.count).map { level in
                try self.rows(kind: kind, source: source, level: level, among: needed[level], in: txn)
            }
        }
        var result: [Int: HKStatistics] = [:]
        let style = type.aggregationStyle
        for plan in plans {
            guard let merged = ViewRecord.combine(plan.pieces.map { rows[Self.merged]![$0.level][$0.bucket] }) else {
                continue
            }
            var bySource: [HKSource: StatisticsValues] = [:]
            for (number, source) in table {
                let pieces = plan.pieces.map { rows[number]![$0.level][$0.bucket] }
                if let record = ViewRecord.combine(pieces) {
                    bySource[source] = record.values(style: style, options: options)
                }
            }
            result[plan.index] = HKStatistics(
                quantityType: type,
                startDate: plan.start,
                endDate: plan.end,
                options: options,
                merged: merged.values(style: style, options: options),
                bySource: bySource
            )
        }
        return result
    }

    /// The first and last fine buckets where `kind` has data.
    func extent(of kind: EntryKind, in txn: borrowing some ReadableTransaction & ~Copyable) throws -> ClosedRange<Date>?
    {
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

    /// The rows of one source and level whose bucket is in `wanted`, read
    /// with one pass from the smallest to the largest.
    func rows(
        kind: EntryKind,
        source: UInt32,
        level: Int,
        among wanted: Set<Int64>,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [Int64: ViewRecord] {
        guard let first = wanted.min(), let last = wanted.max() else { return [:] }
        var rows: [Int64: ViewRecord] = [:]
        let prefix = kind.rawValue.bigEndianBytes + source.bigEndianBytes + [UInt8(level)]
        try txn.withCursor(on: buckets) { cursor in
            try cursor.scan(from: ViewLevel.key(kind: kind, source: source, level: level, bucket: first)) {
                key,
                value in
                guard key.count == 17, key.starts(with: prefix) else { return false }
                let bucket = ViewLevel.bucket(ofKey: key)
                guard bucket <= last else { return false }
                if wanted.contains(bucket) { rows[bucket] = ViewRecord(value) }
                return true
            }
        }
        return rows
    }
}
