import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// How the views group long samples (those longer than
/// ``StatisticsViews/longSample``) in `st.long`: by how long they last, in
/// tiers four times longer each, so that the samples reaching a range are
/// found by starting each tier's scan at most its longest duration before
/// the range, and one ten-year sample never makes every query of its type
/// read from the start of time.
enum LongTier {
    /// Tiers 0…14 hold samples up to 1 hour × 4^(tier + 1) (4 hours, 16
    /// hours, 2.7 days, … 30,000 years); the last, anything longer.
    static let count = 16

    /// The tier of a long sample lasting `seconds`.
    static func of(seconds: Double) -> UInt8 {
        var tier = 0
        var bound = StatisticsViews.longSample * 4
        while !(seconds <= bound) && tier < count - 1 {
            tier += 1
            bound *= 4
        }
        return UInt8(tier)
    }

    /// The longest duration of `tier`, in seconds (infinite for the last).
    static func reach(_ tier: Int) -> Double {
        tier < count - 1 ? StatisticsViews.longSample * pow(4, Double(tier + 1)) : .infinity
    }
}

/// A long sample as the views read it: its interval, value, source number,
/// whether entered by hand, and seq.
struct LongSample {
    var start: Double
    var row: ViewSampleRow
    var seq: UInt64
}

extension StatisticsViews {
    /// Calls `body` with the `st.long` key of a sample (kind ‖ tier ‖ start
    /// ‖ seq), or with the 13-byte prefix of a scan when `seq` is `nil`.
    static func withLongKey<R>(
        kind: EntryKind,
        tier: UInt8,
        start: Double,
        seq: UInt64?,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        try IndexKey.withTimeKey(kind, tier, IndexKey.date(Date(timeIntervalSinceReferenceDate: start)), seq, body)
    }

    /// Whether `key` is an `st.long` row of `kind` in `tier`.
    @inline(__always)
    static func isLongRow(_ key: UnsafeRawBufferPointer, kind: EntryKind, tier: Int) -> Bool {
        key.count == 21 && key.uint32(at: 0) == kind.rawValue && key[4] == UInt8(tier)
    }

    /// The long samples of `kind` that start before `before` and end after
    /// `from` (seconds since the reference date), ordered by start then
    /// seq: per tier, a scan from its longest duration before `from`.
    func longSamples(
        of kind: EntryKind,
        from: Double,
        before: Double,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [LongSample] {
        var found: [LongSample] = []
        let limit = IndexKey.date(Date(timeIntervalSinceReferenceDate: before))
        try txn.withCursor(on: long) { cursor in
            var tier = 0
            while tier < LongTier.count {
                let reach = LongTier.reach(tier)
                // The first row of this tier or a later one: absent tiers cost one seek.
                var next: Int?
                try Self.withLongKey(kind: kind, tier: UInt8(tier), start: from - reach, seq: nil) { prefix in
                    try cursor.scan(from: prefix) { key, value in
                        guard key.count == 21, key.uint32(at: 0) == kind.rawValue else { return false }
                        guard key[4] == UInt8(tier) else {
                            next = Int(key[4])
                            return false
                        }
                        guard key.uint64(at: 5) < limit else {
                            next = tier + 1
                            return false
                        }
                        if let row = ViewSampleRow(value), row.end > from {
                            found.append(
                                LongSample(
                                    start: IndexKey.seconds(fromDateKey: key.uint64(at: 5)),
                                    row: row,
                                    seq: key.uint64(at: 13)
                                )
                            )
                        }
                        return true
                    }
                }
                guard let next, next > tier else { break }
                tier = next
            }
        }
        found.sort { ($0.start, $0.seq) < ($1.start, $1.seq) }
        return found
    }

    /// The earliest start and latest end of `kind`'s long samples, in
    /// seconds: per tier holding any, its first row, and its last rows back
    /// to where no sample of the tier could end later.
    func longExtent(
        of kind: EntryKind,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> (start: Double, end: Double)? {
        var earliest = Double.infinity
        var latest = -Double.infinity
        try txn.withCursor(on: long) { cursor in
            var tier = 0
            while tier < LongTier.count {
                let prefix = kind.rawValue.bigEndianBytes + [UInt8(tier)]
                // The first row of this tier or a later one: absent tiers cost one seek.
                var first: (tier: Int, start: Double)?
                try cursor.scan(from: prefix) { key, _ in
                    if key.count == 21, key.uint32(at: 0) == kind.rawValue {
                        first = (Int(key[4]), IndexKey.seconds(fromDateKey: key.uint64(at: 5)))
                    }
                    return false
                }
                guard let first else { break }
                tier = first.tier
                earliest = min(earliest, first.start)
                let reach = LongTier.reach(tier)
                let end = kind.rawValue.bigEndianBytes + [UInt8(tier)] + [UInt8](repeating: 0xFF, count: 16)
                try cursor.scanReversed(from: end) { key, value in
                    guard Self.isLongRow(key, kind: kind, tier: tier), let row = ViewSampleRow(value) else {
                        return false
                    }
                    let start = IndexKey.seconds(fromDateKey: key.uint64(at: 5))
                    if start + reach < latest { return false }
                    latest = max(latest, row.end)
                    return true
                }
                tier += 1
            }
        }
        return earliest <= latest ? (earliest, latest) : nil
    }

    /// Removes the `st.long` row of a sample, whichever tier holds it.
    func removeLong(kind: EntryKind, start: Double, seq: UInt64, in txn: borrowing WriteTransaction) throws {
        for tier in 0..<LongTier.count {
            let removed = try Self.withLongKey(kind: kind, tier: UInt8(tier), start: start, seq: seq) { key in
                try txn.removeValue(forKey: key, in: long)
            }
            if removed { return }
        }
    }
}
