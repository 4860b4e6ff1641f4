import Crypto
import Foundation

/// What every layout of an entry shares: its versions, its limits and the
/// hash chain. docs/log-format.md is the specification; ``EntryLayout``
/// stores entries in a store's format.
///
/// An entry is, whatever its layout: an entry version, an operation, a
/// kind, a dot, a time, an object id, a payload region (for a save) and
/// the payload digest, SHA-256 of the payload region as stored. Version 1
/// entries (written before log format 2) store the payload alone; version
/// 2 entries store a random 12-byte salt in front of it, so the digest of
/// a purged payload confirms no guess of its contents.
enum EntryFormat {
    /// Entries whose payload region is the payload alone.
    static let plainVersion: UInt8 = 1
    /// Entries whose payload region is a 12-byte salt, then the payload.
    static let saltedVersion: UInt8 = 2
    /// Sealed entries: their kind, time and object id are zero in the
    /// header, and their payload region is a ``SealedEnvelope`` holding
    /// them and the payload.
    static let sealedVersion: UInt8 = 3
    /// The largest payload an entry may carry.
    static let maximumPayloadSize = 64 << 20

    /// SHA-256 of no bytes; a purged payload can never have had it, so a
    /// purged flag on such an entry is damage, not a purge.
    static let emptyPayloadDigest = EntryDigest.of([UInt8]())

    /// The fields of one entry that the hash chain covers.
    struct Header {
        var version: UInt8
        var operation: EntryOperation
        var kind: EntryKind
        var dot: Dot
        var timestamp: Int64
        var id: UUID
        /// SHA-256 of the payload region as stored (zero for a delete).
        var payloadDigest: EntryDigest
        var isPurged: Bool
    }

    /// The number of bytes hashed into a link: two SHA-256 blocks' worth.
    static let linkInputSize = 118

    /// The link of an entry: SHA-256(previous link ‖ version ‖ operation ‖
    /// kind ‖ origin id ‖ counter ‖ time ‖ object id ‖ payload digest),
    /// 118 bytes, integers big-endian.
    ///
    /// The previous link ties the entry to its position. Whether the payload
    /// was purged is left out, so purging keeps the chain intact; the
    /// layouts' rules check it instead.
    static func link(previous: EntryDigest, header: Header) -> EntryDigest {
        withUnsafeTemporaryAllocation(byteCount: linkInputSize, alignment: 8) { input in
            previous.store(into: input, at: 0)
            input[32] = header.version
            input[33] = header.operation.rawValue
            input.storeBytes(of: header.kind.rawValue.bigEndian, toByteOffset: 34, as: UInt32.self)
            header.dot.origin.uuid.store(into: input, at: 38)
            input.storeBytes(of: header.dot.counter.bigEndian, toByteOffset: 54, as: UInt64.self)
            input.storeBytes(of: header.timestamp.bigEndian, toByteOffset: 62, as: Int64.self)
            header.id.store(into: input, at: 70)
            header.payloadDigest.store(into: input, at: 86)
            return EntryDigest.of(UnsafeRawBufferPointer(input))
        }
    }

    /// SHA-256 of a payload region: the salt (when there is one), then the payload.
    static func digest(salt: EntrySalt?, payload: UnsafeRawBufferPointer) -> EntryDigest {
        var hasher = SHA256()
        salt?.withBytes { hasher.update(bufferPointer: $0) }
        hasher.update(bufferPointer: payload)
        return EntryDigest(hasher.finalize())
    }
}

extension LogEntry {
    /// The fields the hash chain covers.
    var header: EntryFormat.Header {
        // A sealed entry's header holds zeros where the envelope holds its
        // kind, time and object id.
        EntryFormat.Header(
            version: version,
            operation: operation,
            kind: isSealed ? EntryKind(rawValue: 0) : kind,
            dot: dot,
            timestamp: isSealed ? 0 : timestamp,
            id: isSealed ? .zero : id,
            payloadDigest: payloadDigest,
            isPurged: isPurged
        )
    }

    /// The link this entry has when `previous` is the link of the entry
    /// before it (see docs/log-format.md).
    ///
    /// ```swift
    /// var link = try log.link(at: 0)
    /// for entry in page.entries { link = entry.link(after: link) }
    /// ```
    public func link(after previous: EntryDigest) -> EntryDigest {
        EntryFormat.link(previous: previous, header: header)
    }
}
