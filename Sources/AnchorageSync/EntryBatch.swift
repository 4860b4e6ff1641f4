public import AnchorageLog
import Crypto
import Foundation

/// A run of one log's entries on their way to a peer, in the binary form
/// docs/sync-protocol.md specifies: entries travel verbatim, each with the
/// link of the entry before it, and a SHA-256 over the whole batch catches
/// truncation and damage in transit.
///
/// ```
/// offset size field
///   0     4   magic "ANCB"
///   4     1   protocol version (1)
///   5     1   flags: bit 0 = more entries follow
///   6     2   reserved, zero
///   8    16   sender store id
///  24     8   sender incarnation
///  32     8   from: the sender's position the batch starts after
///  40     8   through: the last position the batch covers
///  48     8   sender head
///  56     4   entry count
///  60     …   entries: seq (8) ‖ length (4) ‖ previous link (32) ‖ entry bytes
///  end-32 32  SHA-256 of every byte before it
/// ```
public struct EntryBatch: Sendable {
    /// The sender's store id.
    public var storeID: StoreID
    /// The sender's incarnation.
    public var incarnation: UInt64
    /// The sender's position the batch starts after.
    public var from: UInt64
    /// The last sender position the batch covers (entries the receiver
    /// holds already are left out, so this can be past the last entry).
    public var through: UInt64
    /// The sender's head when the batch was read.
    public var head: UInt64
    /// Whether entries follow `through`.
    public var hasMore: Bool
    /// The entries, checked (structure, payload digest, hash link).
    public var entries: [LogEntry]

    public init(
        storeID: StoreID,
        incarnation: UInt64,
        from: UInt64,
        through: UInt64,
        head: UInt64,
        hasMore: Bool,
        entries: [LogEntry]
    ) {
        self.storeID = storeID
        self.incarnation = incarnation
        self.from = from
        self.through = through
        self.head = head
        self.hasMore = hasMore
        self.entries = entries
    }

    static let magic: [UInt8] = Array("ANCB".utf8)
    static let headerSize = 60
    static let entryPrefixSize = 44
    static let digestSize = 32

    /// The anchor of `through` in the sender's log: the receiver's new
    /// checkpoint.
    public var checkpoint: Anchor {
        Anchor(storeID: storeID, incarnation: incarnation, seq: through)
    }
}

extension EntryBatch {
    /// Reads one batch from `log` after `since` and encodes it.
    ///
    /// ```swift
    /// let batch = try EntryBatch.read(from: log, request: request)
    /// try await transport.push(batch.bytes)
    /// ```
    public static func read(from log: EventLog, request: PullRequest) throws -> EncodedBatch {
        guard request.incarnation == log.incarnation else {
            throw SyncError(
                .incarnationChanged,
                "store \(log.storeID) was restored from a backup (it is incarnation \(log.incarnation), not "
                    + "\(request.incarnation)); identify again and pull from the version vector"
            )
        }
        var writer = Writer(
            storeID: log.storeID,
            incarnation: log.incarnation,
            from: request.since,
            reserve: min(request.maxBytes, 1 << 20)
        )
        let read: EventLog.ReplicationRead
        do {
            read = try log.readForReplication(
                after: request.since,
                maxEntries: max(1, request.maxEntries),
                maxBytes: max(1, request.maxBytes),
                skipping: request.versionVector
            ) { seq, previous, entry in
                writer.append(seq: seq, previousLink: previous, entry: entry)
            }
        } catch let error as LogError where error.code == .anchorAhead {
            throw SyncError(.incarnationChanged, error.message)
        }
        return EncodedBatch(
            bytes: writer.finish(through: read.through, head: read.head, hasMore: read.hasMore),
            count: read.sent,
            through: read.through,
            head: read.head,
            hasMore: read.hasMore
        )
    }

    /// Encodes a batch (for tests and for pushing decoded entries).
    public func encoded() -> [UInt8] {
        var writer = Writer(storeID: storeID, incarnation: incarnation, from: from, reserve: 4_096)
        var previous = EntryDigest.zero
        for entry in entries {
            let link = entry.link(after: previous)
            let bytes = entry.encoded(link: link)
            bytes.withUnsafeBytes { writer.append(seq: entry.seq, previousLink: previous, entry: $0) }
            previous = link
        }
        return writer.finish(through: through, head: head, hasMore: hasMore)
    }

    /// Builds the bytes of a batch entry by entry.
    struct Writer {
        private var bytes: [UInt8]
        private var count: UInt32 = 0

        init(storeID: StoreID, incarnation: UInt64, from: UInt64, reserve: Int) {
            bytes = []
            bytes.reserveCapacity(reserve)
            bytes += EntryBatch.magic
            bytes += [UInt8(SyncProtocol.version), 0, 0, 0]
            bytes += storeID.uuid.bytesArray
            bytes += incarnation.bigEndianArray
            bytes += from.bigEndianArray
            bytes += [UInt8](repeating: 0, count: 20)
        }

        mutating func append(seq: UInt64, previousLink: EntryDigest, entry: UnsafeRawBufferPointer) {
            // Appended in place: this runs once per entry sent.
            withUnsafeBytes(of: seq.bigEndian) { bytes.append(contentsOf: $0) }
            withUnsafeBytes(of: UInt32(entry.count).bigEndian) { bytes.append(contentsOf: $0) }
            previousLink.withBytes { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: entry)
            count += 1
        }

        consuming func finish(through: UInt64, head: UInt64, hasMore: Bool) -> [UInt8] {
            bytes[5] = hasMore ? 1 : 0
            bytes.replaceSubrange(40..<48, with: through.bigEndianArray)
            bytes.replaceSubrange(48..<56, with: head.bigEndianArray)
            bytes.replaceSubrange(56..<60, with: count.bigEndianArray)
            bytes += Array(SHA256.hash(data: bytes))
            return bytes
        }
    }
}

/// An encoded batch and what it holds, for its sender.
public struct EncodedBatch: Sendable {
    /// The bytes to send.
    public let bytes: [UInt8]
    /// The entries in it.
    public let count: Int
    /// The last position it covers.
    public let through: UInt64
    /// The sender's head when it was read.
    public let head: UInt64
    /// Whether entries follow `through`.
    public let hasMore: Bool
}

extension EntryBatch {
    /// Decodes and checks a batch received from a peer: never traps,
    /// whatever the bytes.
    ///
    /// - Throws: ``SyncError`` ``SyncError/Code/malformedBatch`` (wrong
    ///   magic, truncated, a digest or a hash link that does not match, an
    ///   entry out of order), ``SyncError/Code/unsupportedVersion``,
    ///   ``SyncError/Code/tooLarge`` past `maximumBytes`.
    public init(decoding bytes: [UInt8], maximumBytes: Int = 64 << 20) throws(SyncError) {
        guard bytes.count <= maximumBytes else {
            throw SyncError(.tooLarge, "the batch has \(bytes.count) bytes; this node accepts at most \(maximumBytes)")
        }
        let decoded = bytes.withUnsafeBytes { buffer in
            Result { () throws(SyncError) in try Self.decode(buffer) }
        }
        self = try decoded.get()
    }

    private static func decode(_ buffer: UnsafeRawBufferPointer) throws(SyncError) -> EntryBatch {
        guard buffer.count >= headerSize + digestSize, Array(buffer[0..<4]) == magic else {
            throw SyncError(.malformedBatch, "the bytes are not a replication batch (too short, or no ANCB magic)")
        }
        guard buffer[4] == UInt8(SyncProtocol.version) else {
            throw SyncError(
                .unsupportedVersion,
                "the batch uses protocol version \(buffer[4]); this node speaks version \(SyncProtocol.version)"
            )
        }
        let body = UnsafeRawBufferPointer(rebasing: buffer[0..<(buffer.count - digestSize)])
        guard Array(SHA256.hash(data: body)) == Array(buffer[(buffer.count - digestSize)...]) else {
            throw SyncError(.malformedBatch, "the batch's digest does not match its bytes: it was truncated or damaged")
        }
        guard buffer[5] & ~1 == 0, buffer[6] == 0, buffer[7] == 0 else {
            throw SyncError(.malformedBatch, "the batch sets flags this version does not know")
        }
        var batch = EntryBatch(
            storeID: StoreID(body.uuid(at: 8)),
            incarnation: body.bigEndianUInt64(at: 24),
            from: body.bigEndianUInt64(at: 32),
            through: body.bigEndianUInt64(at: 40),
            head: body.bigEndianUInt64(at: 48),
            hasMore: buffer[5] & 1 != 0,
            entries: []
        )
        let count = Int(body.bigEndianUInt32(at: 56))
        guard batch.from <= batch.through, batch.through <= batch.head,
            count <= (body.count - headerSize) / (entryPrefixSize + 1)
        else {
            throw SyncError(.malformedBatch, "the batch's header is inconsistent (positions or entry count)")
        }
        batch.entries.reserveCapacity(count)
        var offset = headerSize
        var last = batch.from
        for _ in 0..<count {
            guard body.count - offset >= entryPrefixSize else {
                throw SyncError(.malformedBatch, "the batch ends in the middle of an entry")
            }
            let seq = body.bigEndianUInt64(at: offset)
            let length = Int(body.bigEndianUInt32(at: offset + 8))
            let previous =
                EntryDigest(bytes: UnsafeRawBufferPointer(rebasing: body[(offset + 12)..<(offset + 44)])) ?? .zero
            offset += entryPrefixSize
            guard seq > last, seq <= batch.through else {
                throw SyncError(.malformedBatch, "entry \(seq) is out of order in the batch")
            }
            guard length <= body.count - offset else {
                throw SyncError(.malformedBatch, "the batch ends in the middle of entry \(seq)")
            }
            let entryBytes = UnsafeRawBufferPointer(rebasing: body[offset..<(offset + length)])
            do {
                batch.entries.append(try LogEntry(seq: seq, encoded: entryBytes, previousLink: previous))
            } catch {
                throw SyncError(.malformedBatch, "entry \(seq) of the batch is damaged: \(error.message)")
            }
            offset += length
            last = seq
        }
        guard offset == body.count else {
            throw SyncError(.malformedBatch, "the batch has \(body.count - offset) bytes after its last entry")
        }
        return batch
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func bigEndianUInt64(at offset: Int) -> UInt64 {
        UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    fileprivate func bigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    fileprivate func uuid(at offset: Int) -> UUID {
        var value = UUID().uuid
        withUnsafeMutableBytes(of: &value) {
            $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: self[offset..<(offset + 16)]))
        }
        return UUID(uuid: value)
    }
}

extension FixedWidthInteger {
    fileprivate var bigEndianArray: [UInt8] {
        withUnsafeBytes(of: bigEndian) { Array($0) }
    }
}

extension UUID {
    fileprivate var bytesArray: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}
