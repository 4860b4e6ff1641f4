import Crypto
import Foundation

/// The byte layout of an entry, version 1. docs/log-format.md is the
/// specification; this is its implementation.
///
/// ```
/// offset size field
///   0     1   format version (1)
///   1     1   operation: 1 save, 2 delete
///   2     1   flags: bit 0 = payload purged; other bits zero
///   3     1   reserved, zero
///   4     4   kind (big-endian)
///   8    16   origin id
///  24     8   origin counter (big-endian)
///  32     8   time, ns since 1970 (big-endian, signed)
///  40    16   object id (UUID bytes)
///  56     4   stored payload length (big-endian)
///  60    32   payload digest (SHA-256, zero for a delete)
///  92    32   link
/// 124     …   payload
/// ```
enum EntryFormat {
    static let version: UInt8 = 1
    static let headerSize = 124
    /// The largest payload an entry may carry.
    static let maximumPayloadSize = 64 << 20

    static let operationOffset = 1
    static let flagsOffset = 2
    static let reservedOffset = 3
    static let kindOffset = 4
    static let originOffset = 8
    static let counterOffset = 24
    static let timeOffset = 32
    static let idOffset = 40
    static let lengthOffset = 56
    static let digestOffset = 60
    static let linkOffset = 92

    static let purgedFlag: UInt8 = 1

    /// SHA-256 of no bytes; a purged payload can never have had it, so a
    /// purged flag on such an entry is damage, not a purge.
    static let emptyPayloadDigest = EntryDigest.of([UInt8]())

    /// The header fields of one entry, minus its sequence number and link.
    struct Header {
        var operation: EntryOperation
        var kind: EntryKind
        var dot: Dot
        var timestamp: Int64
        var id: UUID
        var payloadDigest: EntryDigest
        var storedPayloadLength: Int
        var isPurged: Bool
    }

    /// Writes the header (without the link) into the first bytes of `buffer`.
    static func writeHeader(_ header: Header, into buffer: UnsafeMutableRawBufferPointer) {
        buffer[0] = version
        buffer[operationOffset] = header.operation.rawValue
        buffer[flagsOffset] = header.isPurged ? purgedFlag : 0
        buffer[reservedOffset] = 0
        buffer.storeBytes(of: header.kind.rawValue.bigEndian, toByteOffset: kindOffset, as: UInt32.self)
        header.dot.origin.uuid.store(into: buffer, at: originOffset)
        buffer.storeBytes(of: header.dot.counter.bigEndian, toByteOffset: counterOffset, as: UInt64.self)
        buffer.storeBytes(of: header.timestamp.bigEndian, toByteOffset: timeOffset, as: Int64.self)
        header.id.store(into: buffer, at: idOffset)
        buffer.storeBytes(
            of: UInt32(header.storedPayloadLength).bigEndian,
            toByteOffset: lengthOffset,
            as: UInt32.self
        )
        header.payloadDigest.store(into: buffer, at: digestOffset)
    }

    /// The number of bytes hashed into a link: two SHA-256 blocks' worth.
    static let linkInputSize = 118

    /// The link of the entry whose header is in `entry`:
    /// SHA-256(previous link ‖ version, operation ‖ kind, origin, counter,
    /// time, id ‖ payload digest), 118 bytes.
    ///
    /// The previous link ties the entry to its position. The flags, reserved
    /// and length bytes are left out, so purging a payload keeps the chain
    /// intact; ``decodeHeader(seq:bytes:)`` checks them instead.
    static func link(previous: EntryDigest, entry: UnsafeRawBufferPointer) -> EntryDigest {
        withUnsafeTemporaryAllocation(byteCount: linkInputSize, alignment: 8) { input in
            previous.store(into: input, at: 0)
            input[32] = entry[0]
            input[33] = entry[operationOffset]
            UnsafeMutableRawBufferPointer(rebasing: input[34..<86])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: entry[kindOffset..<lengthOffset]))
            UnsafeMutableRawBufferPointer(rebasing: input[86..<118])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: entry[digestOffset..<linkOffset]))
            return EntryDigest.of(UnsafeRawBufferPointer(input))
        }
    }

    /// Decodes and checks the structure of the entry stored under `seq`,
    /// copying its payload into a buffer of its own.
    ///
    /// Never traps on malformed bytes; it does not check the payload digest
    /// or the link (``EventLog/verify()`` does).
    static func decode(seq: UInt64, bytes: UnsafeRawBufferPointer) throws(LogError) -> LogEntry {
        var entry = try decodeWithoutPayload(seq: seq, bytes: bytes)
        if entry.operation == .save && !isPurged(bytes) {
            entry.payload = EntryPayload(Array(payloadBytes(of: bytes)))
        }
        return entry
    }

    /// The payload bytes of a checked entry.
    @inline(__always)
    static func payloadBytes(of bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[headerSize...])
    }

    /// Whether a checked entry's payload was purged.
    @inline(__always)
    static func isPurged(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes[flagsOffset] & purgedFlag != 0
    }

    /// Decodes and checks the entry stored under `seq`, leaving its payload
    /// `nil`; the caller attaches the payload (see ``EventLog/entries(after:limit:kinds:)``).
    static func decodeWithoutPayload(seq: UInt64, bytes: UnsafeRawBufferPointer) throws(LogError) -> LogEntry {
        let (operation, _) = try check(seq: seq, bytes: bytes)
        return LogEntry(
            seq: seq,
            dot: dot(of: bytes),
            timestamp: Int64(bigEndian: bytes.loadUnaligned(fromByteOffset: timeOffset, as: Int64.self)),
            operation: operation,
            kind: kind(at: bytes),
            id: UUID(loadingFrom: bytes, at: idOffset),
            payload: nil,
            payloadDigest: EntryDigest(loadingFrom: bytes, at: digestOffset),
            link: EntryDigest(loadingFrom: bytes, at: linkOffset)
        )
    }

    /// Decodes and checks the header of the entry stored under `seq`.
    static func decodeHeader(seq: UInt64, bytes: UnsafeRawBufferPointer) throws(LogError) -> Header {
        let (operation, isPurged) = try check(seq: seq, bytes: bytes)
        return Header(
            operation: operation,
            kind: kind(at: bytes),
            dot: dot(of: bytes),
            timestamp: Int64(bigEndian: bytes.loadUnaligned(fromByteOffset: timeOffset, as: Int64.self)),
            id: UUID(loadingFrom: bytes, at: idOffset),
            payloadDigest: EntryDigest(loadingFrom: bytes, at: digestOffset),
            storedPayloadLength: bytes.count - headerSize,
            isPurged: isPurged
        )
    }

    /// Checks the rules of docs/log-format.md that need no hashing, and
    /// returns the operation and whether the payload was purged.
    @inline(__always)
    private static func check(seq: UInt64, bytes: UnsafeRawBufferPointer) throws(LogError) -> (EntryOperation, Bool) {
        guard bytes.count >= headerSize, bytes[0] == version,
            let operation = EntryOperation(rawValue: bytes[operationOffset]),
            bytes[flagsOffset] & ~purgedFlag == 0, bytes[reservedOffset] == 0,
            Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: lengthOffset, as: UInt32.self)))
                == bytes.count - headerSize
        else {
            throw malformed(seq: seq, bytes: bytes)
        }
        let isPurged = bytes[flagsOffset] & purgedFlag != 0
        switch operation {
        case .delete:
            guard !isPurged, bytes.count == headerSize, EntryDigest(loadingFrom: bytes, at: digestOffset) == .zero
            else {
                throw malformed(seq: seq, bytes: bytes)
            }
        case .save:
            if isPurged {
                guard bytes.count == headerSize,
                    EntryDigest(loadingFrom: bytes, at: digestOffset) != emptyPayloadDigest
                else {
                    throw malformed(seq: seq, bytes: bytes)
                }
            }
        }
        return (operation, isPurged)
    }

    /// Checks an entry's structure and returns its operation and whether its
    /// payload was purged, without building a ``LogEntry``.
    @inline(__always)
    static func checkedOperation(seq: UInt64, bytes: UnsafeRawBufferPointer) throws(LogError) -> (EntryOperation, Bool)
    {
        try check(seq: seq, bytes: bytes)
    }

    /// Explains why `bytes` broke a rule; off the hot path.
    @inline(never)
    private static func malformed(seq: UInt64, bytes: UnsafeRawBufferPointer) -> LogError {
        guard bytes.count >= headerSize else {
            return .malformedEntry(seq, "it has \(bytes.count) bytes, fewer than the \(headerSize)-byte header")
        }
        guard bytes[0] == version else {
            return .malformedEntry(seq, "its format version \(bytes[0]) is not \(version)")
        }
        guard EntryOperation(rawValue: bytes[operationOffset]) != nil else {
            return .malformedEntry(seq, "its operation code \(bytes[operationOffset]) is unknown")
        }
        guard bytes[flagsOffset] & ~purgedFlag == 0, bytes[reservedOffset] == 0 else {
            return .malformedEntry(seq, "its flag bytes \(bytes[flagsOffset]), \(bytes[reservedOffset]) are not valid")
        }
        let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: lengthOffset, as: UInt32.self)))
        guard length == bytes.count - headerSize else {
            return .malformedEntry(seq, "it declares \(length) payload bytes but holds \(bytes.count - headerSize)")
        }
        if bytes[operationOffset] == EntryOperation.delete.rawValue {
            return .malformedEntry(seq, "a delete must have no payload, no flags and a zero digest")
        }
        return .malformedEntry(seq, "its purged flag contradicts its payload")
    }

    @inline(__always)
    private static func kind(at bytes: UnsafeRawBufferPointer) -> EntryKind {
        EntryKind(rawValue: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: kindOffset, as: UInt32.self)))
    }

    @inline(__always)
    static func dot(of bytes: UnsafeRawBufferPointer) -> Dot {
        Dot(
            origin: StoreID(UUID(loadingFrom: bytes, at: originOffset)),
            counter: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: counterOffset, as: UInt64.self))
        )
    }

    /// Reads only the kind of an encoded entry (for filtering), or `nil` when
    /// the bytes are too short to hold a header.
    @inline(__always)
    static func kind(of bytes: UnsafeRawBufferPointer) -> EntryKind? {
        guard bytes.count >= headerSize else { return nil }
        return EntryKind(rawValue: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: kindOffset, as: UInt32.self)))
    }
}

extension LogEntry {
    /// The entry's stored bytes (header and payload), as
    /// docs/log-format.md describes; its ``seq`` is the key, not part of them.
    public func encoded() -> [UInt8] {
        let payloadBytes = payload ?? EntryPayload([])
        var bytes = [UInt8](repeating: 0, count: EntryFormat.headerSize + payloadBytes.count)
        bytes.withUnsafeMutableBytes { buffer in
            EntryFormat.writeHeader(
                EntryFormat.Header(
                    operation: operation,
                    kind: kind,
                    dot: dot,
                    timestamp: timestamp,
                    id: id,
                    payloadDigest: payloadDigest,
                    storedPayloadLength: payloadBytes.count,
                    isPurged: isPurged
                ),
                into: buffer
            )
            link.store(into: buffer, at: EntryFormat.linkOffset)
            payloadBytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(rebasing: buffer[EntryFormat.headerSize...]).copyMemory(from: source)
            }
        }
        return bytes
    }

    /// Decodes an entry's stored bytes, checking their structure.
    ///
    /// ```swift
    /// let entry = try LogEntry(seq: 7, encoded: bytes)
    /// ```
    /// - Throws: ``LogError`` with code ``LogError/Code/malformedEntry``;
    ///   never traps, whatever the bytes.
    public init(seq: UInt64, encoded bytes: [UInt8]) throws(LogError) {
        let decoded = bytes.withUnsafeBytes { buffer in
            Result { () throws(LogError) in try EntryFormat.decode(seq: seq, bytes: buffer) }
        }
        self = try decoded.get()
    }
}
