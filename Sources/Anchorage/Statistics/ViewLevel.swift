import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// The lengths of the view's buckets and how their keys are laid out.
///
/// Buckets are counted from the reference date (2001-01-01 00:00 UTC, a
/// Monday) in whole seconds: 15 minutes (the finest, so every time zone's
/// hours and days fall on bucket boundaries), 1 hour, 4 hours, 1 day and
/// 7 days (Monday to Monday, UTC). A query interval whose ends fall on
/// 15-minute boundaries is the union of at most a few dozen of them.
enum ViewLevel {
    static let lengths: [Int64] = [900, 3_600, 14_400, 86_400, 604_800]
    static var fine: Int64 { lengths[0] }

    /// The fine buckets a sample `[start, end]` (reference-date seconds)
    /// contributes to: the one holding an instant, else every one its
    /// interval overlaps (ST-18, ST-20).
    static func fineBuckets(start: Double, end: Double) -> ClosedRange<Int64> {
        let first = Int64((start / Double(fine)).rounded(.down))
        guard end > start else { return first...first }
        let last = Int64((end / Double(fine)).rounded(.up)) - 1
        return first...max(first, last)
    }

    /// The window of bucket `bucket` at `level`.
    static func window(level: Int, bucket: Int64) -> StatisticsWindow {
        let length = lengths[level]
        return StatisticsWindow(start: Double(bucket * length), end: Double((bucket + 1) * length), closed: false)
    }

    /// `[from, to)` (seconds, multiples of 15 minutes) as the fewest
    /// aligned buckets, oldest first.
    static func tile(from: Int64, to: Int64) -> [(level: Int, bucket: Int64)] {
        var pieces: [(level: Int, bucket: Int64)] = []
        var position = from
        while position < to {
            var level = lengths.count - 1
            while level > 0 && (position % lengths[level] != 0 || position + lengths[level] > to) { level -= 1 }
            pieces.append((level, position / lengths[level]))
            position += lengths[level]
        }
        return pieces
    }

    /// The key of a bucket row: kind ‖ source ‖ level ‖ bucket, so that one
    /// source's buckets of one level are contiguous and in time order.
    static func key(kind: EntryKind, source: UInt32, level: Int, bucket: Int64) -> [UInt8] {
        withKey(kind: kind, source: source, level: level, bucket: bucket) { Array($0) }
    }

    /// Calls `body` with the key of a bucket row in a temporary buffer
    /// (``key(kind:source:level:bucket:)`` without allocating).
    @inline(__always)
    static func withKey<R>(
        kind: EntryKind,
        source: UInt32,
        level: Int,
        bucket: Int64,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 17, alignment: 8) { buffer in
            buffer.storeBytes(of: kind.rawValue.bigEndian, toByteOffset: 0, as: UInt32.self)
            buffer.storeBytes(of: source.bigEndian, toByteOffset: 4, as: UInt32.self)
            buffer[8] = UInt8(level)
            buffer.storeBytes(of: (UInt64(bitPattern: bucket) ^ (1 << 63)).bigEndian, toByteOffset: 9, as: UInt64.self)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// The bucket number of a bucket row's key.
    static func bucket(ofKey key: UnsafeRawBufferPointer) -> Int64 {
        Int64(bitPattern: key.uint64(at: 9) ^ (1 << 63))
    }
}
