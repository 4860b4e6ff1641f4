/// Appends the primitive fields of the payload format
/// (docs/payload-format.md) into a growable buffer of its own.
package struct PayloadWriter: ~Copyable {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count = 0
    /// Whether `base` is this writer's to free and to grow.
    private let owned: Bool

    package init(capacity: Int = 128) {
        self.capacity = max(capacity, 16)
        base = .allocate(byteCount: self.capacity, alignment: 8)
        owned = true
    }

    /// Writes into `buffer`, which must be large enough for everything written.
    package init(into buffer: UnsafeMutableRawBufferPointer) {
        base = buffer.baseAddress!
        capacity = buffer.count
        owned = false
    }

    deinit {
        if owned { base.deallocate() }
    }

    /// The bytes written.
    consuming func finish() -> [UInt8] {
        Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The bytes written so far, borrowed.
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        precondition(owned, "a payload outgrew the size computed for it")
        let grown = max(capacity * 2, count + extra)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        larger.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = larger
        capacity = grown
    }

    @inline(__always)
    package mutating func byte(_ value: UInt8) {
        reserve(1)
        base.storeBytes(of: value, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// An unsigned LEB128 varint.
    /// The number of bytes `varint(value)` writes.
    @inline(__always)
    package static func varintSize(_ value: UInt64) -> Int {
        value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }

    @inline(__always)
    package mutating func varint(_ value: UInt64) {
        reserve(Self.varintSize(value))
        var rest = value
        while rest >= 0x80 {
            base.storeBytes(of: UInt8(truncatingIfNeeded: rest) | 0x80, toByteOffset: count, as: UInt8.self)
            count += 1
            rest >>= 7
        }
        base.storeBytes(of: UInt8(rest), toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// A signed integer, zigzag-encoded then as a varint.
    @inline(__always)
    package mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A double's bit pattern, little-endian: exact, NaN payloads included.
    @inline(__always)
    package mutating func double(_ value: Double) {
        reserve(8)
        base.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: count, as: UInt64.self)
        count += 8
    }

    /// A date as its seconds since 2001-01-01, exactly as `Date` holds them.
    @inline(__always)
    package mutating func date(_ value: Date) {
        double(value.timeIntervalSinceReferenceDate)
    }

    @inline(__always)
    package mutating func uuid(_ value: UUID) {
        reserve(16)
        base.storeBytes(of: value.uuid, toByteOffset: count, as: uuid_t.self)
        count += 16
    }

    @inline(__always)
    package mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let source = bytes.baseAddress {
            (base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    /// A varint length, then UTF-8.
    @inline(__always)
    package mutating func string(_ value: String) {
        var text = value
        text.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            raw(UnsafeRawBufferPointer(utf8))
        }
    }

    /// A varint length, then `block`.
    @inline(__always)
    package mutating func block(_ block: [UInt8]) {
        varint(UInt64(block.count))
        block.withUnsafeBytes { raw($0) }
    }

    /// A varint length, then the bytes written by `body`.
    package mutating func lengthPrefixed(_ body: (inout PayloadWriter) -> Void) {
        var inner = PayloadWriter(capacity: 64)
        body(&inner)
        varint(UInt64(inner.count))
        inner.withBytes { raw($0) }
    }
}
