/// Reads the primitive fields of the payload format from untrusted bytes:
/// every read checks the bounds and throws `PAYLOAD-2` past the end, every
/// length is checked against the bytes that remain before anything is
/// allocated.
package struct PayloadReader {
    package let buffer: UnsafeRawBufferPointer
    package var offset: Int

    package init(_ buffer: UnsafeRawBufferPointer, offset: Int = 0) {
        self.buffer = buffer
        self.offset = offset
    }

    package var remaining: Int { buffer.count - offset }
    package var isAtEnd: Bool { offset == buffer.count }

    package static func truncated(_ what: String) -> HKError {
        .invalid("PAYLOAD-2", "the payload ends inside \(what)")
    }

    @inline(__always)
    package mutating func byte(_ what: @autoclosure () -> String) throws(HKError) -> UInt8 {
        guard offset < buffer.count else { throw Self.truncated(what()) }
        defer { offset += 1 }
        return buffer[offset]
    }

    @inline(__always)
    package mutating func varint(_ what: @autoclosure () -> String) throws(HKError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < buffer.count else { throw Self.truncated(what()) }
            let byte = buffer[offset]
            offset += 1
            if shift == 63 && byte > 1 {
                throw .invalid("PAYLOAD-2", "a number in \(what()) does not fit 64 bits")
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw .invalid("PAYLOAD-2", "a number in \(what()) does not fit 64 bits") }
        }
    }

    /// A varint that must be at most `limit`.
    @inline(__always)
    package mutating func count(_ what: @autoclosure () -> String, limit: Int) throws(HKError) -> Int {
        let value = try varint(what())
        guard value <= UInt64(limit) else {
            throw .invalid("PAYLOAD-3", "\(what()) is \(value), more than the limit of \(limit)")
        }
        return Int(value)
    }

    @inline(__always)
    package mutating func signed(_ what: @autoclosure () -> String) throws(HKError) -> Int64 {
        let raw = try varint(what())
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    @inline(__always)
    package mutating func double(_ what: @autoclosure () -> String) throws(HKError) -> Double {
        guard remaining >= 8 else { throw Self.truncated(what()) }
        defer { offset += 8 }
        return Double(bitPattern: UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }

    @inline(__always)
    package mutating func date(_ what: @autoclosure () -> String) throws(HKError) -> Date {
        let seconds = try double(what())
        guard seconds.isFinite else { throw .invalid("PAYLOAD-2", "\(what()) is not a valid date") }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    @inline(__always)
    package mutating func uuid(_ what: @autoclosure () -> String) throws(HKError) -> UUID {
        guard remaining >= 16 else { throw Self.truncated(what()) }
        defer { offset += 16 }
        return UUID(uuid: buffer.loadUnaligned(fromByteOffset: offset, as: uuid_t.self))
    }

    /// The raw bytes of a length-prefixed block (not copied).
    @inline(__always)
    package mutating func block(_ what: @autoclosure () -> String, limit: Int) throws(HKError) -> UnsafeRawBufferPointer
    {
        let length = try count(what(), limit: limit)
        guard length <= remaining else { throw Self.truncated(what()) }
        defer { offset += length }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + length])
    }

    /// A length-prefixed UTF-8 string, validated.
    package mutating func string(_ what: @autoclosure () -> String, limit: Int = 65_536) throws(HKError) -> String {
        let bytes = try block(what(), limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalid("PAYLOAD-2", "\(what()) is not valid UTF-8")
        }
        return text
    }
}
