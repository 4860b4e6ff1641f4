/// Appends the primitive fields of the payload format (docs/payload-format.md).
struct PayloadWriter {
    var bytes: [UInt8]

    init(capacity: Int = 128) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// An unsigned LEB128 varint.
    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A signed integer, zigzag-encoded then as a varint.
    @inline(__always)
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A double's bit pattern, little-endian: exact, NaN payloads included.
    @inline(__always)
    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A date as its seconds since 2001-01-01, exactly as `Date` holds them.
    @inline(__always)
    mutating func date(_ value: Date) {
        double(value.timeIntervalSinceReferenceDate)
    }

    @inline(__always)
    mutating func uuid(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes.append(contentsOf: $0) }
    }

    /// A varint length, then UTF-8.
    @inline(__always)
    mutating func string(_ value: String) {
        var text = value
        text.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A varint length, then the bytes written by `body`.
    mutating func lengthPrefixed(_ body: (inout PayloadWriter) -> Void) {
        var inner = PayloadWriter(capacity: 64)
        body(&inner)
        varint(UInt64(inner.bytes.count))
        bytes.append(contentsOf: inner.bytes)
    }
}
