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

    /// The link of the entry at `seq` whose header is in `entry`:
    /// SHA-256(previous link ‖ seq ‖ version, operation ‖ kind … id ‖ payload digest).
    ///
    /// The flags, reserved and length bytes are left out, so purging a
    /// payload keeps the chain intact; ``decode(seq:bytes:)`` checks them.
    static func link(previous: EntryDigest, seq: UInt64, entry: UnsafeRawBufferPointer) -> EntryDigest {
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { input in
            previous.store(into: input, at: 0)
            input.storeBytes(of: seq.bigEndian, toByteOffset: 32, as: UInt64.self)
            input[40] = entry[0]
            input[41] = entry[operationOffset]
            input[42] = 0
            input[43] = 0
            UnsafeMutableRawBufferPointer(rebasing: input[44..<96])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: entry[kindOffset..<lengthOffset]))
            UnsafeMutableRawBufferPointer(rebasing: input[96..<128])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: entry[digestOffset..<linkOffset]))
            var hasher = SHA256()
            hasher.update(bufferPointer: UnsafeRawBufferPointer(input))
            return EntryDigest(hasher.finalize())
        }
    }

    /// Decodes and checks the structure of the entry stored under `seq`.
    ///
    /// Never traps on malformed bytes; it does not check the payload digest
    /// or the link (``EventLog/verify()`` does).
    static func decode(seq: UInt64, bytes: UnsafeRawBufferPointer) throws(LogError) -> LogEntry {
        let header = try decodeHeader(seq: seq, bytes: bytes)
        let payload: [UInt8]? =
            header.operation == .save && !header.isPurged
            ? Array(UnsafeRawBufferPointer(rebasing: bytes[headerSize...])) : nil
        return LogEntry(
            seq: seq,
            dot: header.dot,
            timestamp: header.timestamp,
            operation: header.operation,
            kind: header.kind,
            id: header.id,
            payload: payload,
            payloadDigest: header.payloadDigest,
            link: EntryDigest(loadingFrom: bytes, at: linkOffset)
        )
    }

    /// Decodes and checks the header of the entry stored under `seq`.
    static func decodeHeader(seq: UInt64, bytes: UnsafeRawBufferPointer) throws(LogError) -> Header {
        guard bytes.count >= headerSize else {
            throw .malformedEntry(seq, "it has \(bytes.count) bytes, fewer than the \(headerSize)-byte header")
        }
        guard bytes[0] == version else {
            throw .malformedEntry(seq, "its format version \(bytes[0]) is not \(version)")
        }
        guard let operation = EntryOperation(rawValue: bytes[operationOffset]) else {
            throw .malformedEntry(seq, "its operation code \(bytes[operationOffset]) is unknown")
        }
        let flags = bytes[flagsOffset]
        guard flags & ~purgedFlag == 0, bytes[reservedOffset] == 0 else {
            throw .malformedEntry(seq, "its flag bytes \(flags), \(bytes[reservedOffset]) are not valid")
        }
        let length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: lengthOffset, as: UInt32.self)))
        guard bytes.count == headerSize + length else {
            throw .malformedEntry(seq, "it declares \(length) payload bytes but holds \(bytes.count - headerSize)")
        }
        let digest = EntryDigest(loadingFrom: bytes, at: digestOffset)
        let isPurged = flags & purgedFlag != 0
        switch operation {
        case .delete:
            guard !isPurged, length == 0, digest == .zero else {
                throw .malformedEntry(seq, "a delete must have no payload, no flags and a zero digest")
            }
        case .save:
            if isPurged && (length != 0 || digest == emptyPayloadDigest) {
                throw .malformedEntry(seq, "its purged flag contradicts its payload")
            }
        }
        return Header(
            operation: operation,
            kind: EntryKind(
                rawValue: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: kindOffset, as: UInt32.self))
            ),
            dot: Dot(
                origin: StoreID(UUID(loadingFrom: bytes, at: originOffset)),
                counter: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: counterOffset, as: UInt64.self))
            ),
            timestamp: Int64(bigEndian: bytes.loadUnaligned(fromByteOffset: timeOffset, as: Int64.self)),
            id: UUID(loadingFrom: bytes, at: idOffset),
            payloadDigest: digest,
            storedPayloadLength: length,
            isPurged: isPurged
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
        let payloadBytes = payload ?? []
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
