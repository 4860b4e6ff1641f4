import Foundation

/// The points of a series sample in their stored form: `count` records of
/// `stride` bytes, each a run of little-endian IEEE doubles (and, for
/// heartbeats, a flag byte) — the same bytes in memory, in the payload and
/// on every peer (docs/payload-format.md, kinds 5 and 6).
///
/// Fixed-size records let a query read any range of points without
/// decoding those before it, and find a time by binary search.
///
/// ```swift
/// let points = SeriesPoints(stride: 16, count: 2) { writer, index in
///     writer.double(Double(index)); writer.double(1)
/// }
/// points.double(1, field: 0)     // 1.0
/// ```
package struct SeriesPoints: Sendable, Hashable {
    /// The records, back to back.
    package let bytes: [UInt8]
    /// The size of one record.
    package let stride: Int

    package init(bytes: [UInt8], stride: Int) {
        precondition(stride > 0 && bytes.count % stride == 0, "series bytes are whole records")
        self.bytes = bytes
        self.stride = stride
    }

    /// Points written record by record.
    package init(stride: Int, count: Int, _ write: (inout SeriesRecordWriter, Int) -> Void) {
        let total = stride * count
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var writer = SeriesRecordWriter(buffer: UnsafeMutableRawBufferPointer(buffer))
            for index in 0..<count { write(&writer, index) }
            precondition(writer.offset == total, "each record has exactly stride bytes")
            initialized = total
        }
        self.init(bytes: bytes, stride: stride)
    }

    /// The number of points.
    package var count: Int { bytes.count / stride }

    /// The double at `field` (counted in doubles) of record `index`.
    @inline(__always)
    package func double(_ index: Int, field: Int) -> Double {
        bytes.withUnsafeBytes { buffer in
            Double(
                bitPattern: UInt64(
                    littleEndian: buffer.loadUnaligned(fromByteOffset: index * stride + field * 8, as: UInt64.self)
                )
            )
        }
    }

    /// The byte at `offset` of record `index`.
    @inline(__always)
    package func byte(_ index: Int, offset: Int) -> UInt8 {
        bytes[index * stride + offset]
    }

    /// The first index in `range` whose double at `field` is at least `value`,
    /// for records sorted by that field.
    package func firstIndex(field: Int, atLeast value: Double, in range: Range<Int>) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if double(middle, field: field) < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// Writes the records of ``SeriesPoints``.
package struct SeriesRecordWriter {
    let buffer: UnsafeMutableRawBufferPointer
    package var offset = 0

    package mutating func double(_ value: Double) {
        buffer.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
        offset += 8
    }

    package mutating func byte(_ value: UInt8) {
        buffer.storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
        offset += 1
    }
}
