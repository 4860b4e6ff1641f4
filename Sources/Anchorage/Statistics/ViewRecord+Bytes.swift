import AnchorageModel
import Foundation

/// How a ``ViewRecord`` is stored: a mask of the fields written, then those
/// fields, big-endian. Each field has a default computed from the fields
/// before it — what it is for a bucket holding a single sample (a maximum
/// equal to the minimum, a duration equal to the most recent sample's span,
/// a sum equal to its value…) — and is written only when it differs, bit for
/// bit. Fields the type's aggregation style never reads (a minimum of steps,
/// a sum of heart rates, sound levels of anything but sound) are never
/// written: they read back as their defaults. A bucket of one sample then
/// takes about 36 bytes where every field took 132.
///
/// | bit | field | default |
/// | --- | --- | --- |
/// | 0 | presence (4) | 1 |
/// | 1, 2 | most recent start, end (8 each) | 0, the start |
/// | 3, 4 | most recent seq (8), value (8) | 0, 0 |
/// | 5 | duration | most recent end − start |
/// | 6 | sum (cumulative) | most recent value |
/// | 7, 8 | plain sum (cumulative), sole source (4) — all-sources rows only | sum, 1 |
/// | 9, 10 | minimum, maximum (discrete) | most recent value, minimum |
/// | 11, 12, 13 | Σ overlap (weighted, level), Σ overlap × value (weighted), Σ overlap × level (level) | duration, Σ overlap × most recent value, 0 |
/// | 14, 15, 16 | carried count, Σ value (discrete), Σ level (level) | 0, 0, 0 |
/// | 17, 18, 19 | started count, Σ value (discrete), Σ level (level) | presence − carried count, most recent value, 0 |
extension ViewRecord {
    /// The most bytes a record takes.
    static let maximumSize = 4 + 4 + 8 * 16 + 4 + 4 + 4

    /// Calls `body` with the bytes of the record of one source (or, with
    /// `merged`, of all sources) of a type of `style` (every field kept
    /// when `nil`), in a temporary buffer.
    func withBytes<R>(
        merged: Bool,
        style: HKQuantityAggregationStyle?,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        let discrete = style != .cumulative
        let cumulative = style == nil || style == .cumulative
        let weighted = style == nil || style == .discreteTemporallyWeighted
        let level = style == nil || style == .discreteEquivalentContinuousLevel
        return try withUnsafeTemporaryAllocation(byteCount: Self.maximumSize, alignment: 8) { buffer in
            var writer = FieldWriter(buffer: buffer)
            var image = ViewRecord()
            image.presence = writer.word(presence, default: 1)
            image.recentStart = writer.number(recentStart, default: 0)
            image.recentEnd = writer.number(recentEnd, default: image.recentStart)
            image.recentSeq = writer.long(recentSeq, default: 0)
            image.recentValue = writer.number(recentValue, default: 0)
            image.duration = writer.number(duration, default: image.recentEnd - image.recentStart)
            image.sum = writer.number(sum, default: image.recentValue, if: cumulative)
            image.plainSum = writer.number(plainSum, default: image.sum, if: merged && cumulative)
            image.sole = writer.word(sole, default: 1, if: merged)
            image.minimum = writer.number(minimum, default: image.recentValue, if: discrete)
            image.maximum = writer.number(maximum, default: image.minimum, if: discrete)
            image.weight = writer.number(weight, default: image.duration, if: weighted || level)
            image.weightedSum = writer.number(weightedSum, default: image.weight * image.recentValue, if: weighted)
            image.weightedLevelSum = writer.number(weightedLevelSum, default: 0, if: level)
            image.carried.count = writer.word(carried.count, default: 0, if: discrete)
            image.carried.sum = writer.number(carried.sum, default: 0, if: discrete)
            image.carried.levelSum = writer.number(carried.levelSum, default: 0, if: level)
            image.started.count = writer.word(
                started.count,
                default: image.presence &- image.carried.count,
                if: discrete
            )
            image.started.sum = writer.number(started.sum, default: image.recentValue, if: discrete)
            image.started.levelSum = writer.number(started.levelSum, default: 0, if: level)
            writer.finish()
            return try body(UnsafeRawBufferPointer(rebasing: buffer[..<writer.offset]))
        }
    }

    /// Reads the record of source `source` (0: all sources); `nil` for
    /// bytes that are not one.
    init?(_ bytes: UnsafeRawBufferPointer, source: UInt32) {
        guard bytes.count >= 4 else { return nil }
        var reader = FieldReader(bytes: bytes)
        let merged = source == StatisticsViews.merged
        // Bits past the last field, or an all-sources field in a source's row: not a record.
        guard reader.mask >> 20 == 0, merged || reader.mask & 0b1_1000_0000 == 0, reader.isWhole else { return nil }
        self.init()
        presence = reader.word(default: 1)
        recentStart = reader.number(default: 0)
        recentEnd = reader.number(default: recentStart)
        recentSeq = reader.long(default: 0)
        recentValue = reader.number(default: 0)
        duration = reader.number(default: recentEnd - recentStart)
        sum = reader.number(default: recentValue)
        plainSum = reader.number(default: sum)
        sole = reader.word(default: merged ? 1 : source)
        minimum = reader.number(default: recentValue)
        maximum = reader.number(default: minimum)
        weight = reader.number(default: duration)
        weightedSum = reader.number(default: weight * recentValue)
        weightedLevelSum = reader.number(default: 0)
        carried.count = reader.word(default: 0)
        carried.sum = reader.number(default: 0)
        carried.levelSum = reader.number(default: 0)
        started.count = reader.word(default: presence &- carried.count)
        started.sum = reader.number(default: recentValue)
        started.levelSum = reader.number(default: 0)
    }
}

/// Writes the fields of a record that differ from their defaults, and the
/// mask saying which.
private struct FieldWriter {
    let buffer: UnsafeMutableRawBufferPointer
    var offset = 4
    var mask: UInt32 = 0
    var bit: UInt32 = 1

    /// Writes `value` unless it is `fallback` or not `wanted`; returns what a reader gets.
    mutating func number(_ value: Double, default fallback: Double, if wanted: Bool = true) -> Double {
        defer { bit <<= 1 }
        guard wanted, value.bitPattern != fallback.bitPattern else { return fallback }
        put(value.bitPattern)
        return value
    }

    mutating func long(_ value: UInt64, default fallback: UInt64) -> UInt64 {
        defer { bit <<= 1 }
        guard value != fallback else { return fallback }
        put(value)
        return value
    }

    mutating func word(_ value: UInt32, default fallback: UInt32, if wanted: Bool = true) -> UInt32 {
        defer { bit <<= 1 }
        guard wanted, value != fallback else { return fallback }
        mask |= bit
        buffer.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
        offset += 4
        return value
    }

    private mutating func put(_ value: UInt64) {
        mask |= bit
        buffer.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt64.self)
        offset += 8
    }

    func finish() {
        buffer.storeBytes(of: mask.bigEndian, toByteOffset: 0, as: UInt32.self)
    }
}

/// Reads what ``FieldWriter`` wrote.
private struct FieldReader {
    /// The mask bits of the 4-byte fields; the others take 8.
    static let words: UInt32 = 1 << 0 | 1 << 8 | 1 << 14 | 1 << 17

    let bytes: UnsafeRawBufferPointer
    let mask: UInt32
    var offset = 4
    var bit: UInt32 = 1

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        mask = UInt32(bigEndian: bytes.loadUnaligned(as: UInt32.self))
    }

    /// Whether the bytes are as long as the mask says (checked once, so
    /// that no field reads past them).
    var isWhole: Bool {
        4 + 4 * (mask & Self.words).nonzeroBitCount + 8 * (mask & ~Self.words).nonzeroBitCount == bytes.count
    }

    @inline(__always)
    mutating func number(default fallback: Double) -> Double {
        defer { bit <<= 1 }
        guard mask & bit != 0 else { return fallback }
        defer { offset += 8 }
        return Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    @inline(__always)
    mutating func long(default fallback: UInt64) -> UInt64 {
        defer { bit <<= 1 }
        guard mask & bit != 0 else { return fallback }
        defer { offset += 8 }
        return UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    mutating func word(default fallback: UInt32) -> UInt32 {
        defer { bit <<= 1 }
        guard mask & bit != 0 else { return fallback }
        defer { offset += 4 }
        return UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
