import Foundation

/// One stored entry's fields, decoded and checked by an ``EntryLayout``
/// without copying anything, with where its payload region lies in the
/// stored bytes.
struct StoredEntry {
    var version: UInt8
    var operation: EntryOperation
    var kind: EntryKind
    var dot: Dot
    var timestamp: Int64
    var id: UUID
    var isPurged: Bool
    /// The payload digest when the layout stores it (format 1: always;
    /// format 2: for purged saves).
    var storedDigest: EntryDigest?
    /// The link when the layout stores it (format 1: always; format 2: at
    /// intervals and at the log's end).
    var storedLink: EntryDigest?
    /// Where the payload region starts; it runs to the end of the bytes.
    var regionStart: Int

    /// Whether the entry has a payload to read (a save not purged).
    var hasPayload: Bool { operation == .save && !isPurged }

    /// The salt in front of a version-2 save's payload.
    func salt(in bytes: UnsafeRawBufferPointer) -> EntrySalt? {
        guard hasPayload, version == EntryFormat.saltedVersion else { return nil }
        return EntrySalt(loadingFrom: bytes, at: regionStart)
    }

    /// Where the payload lies (after the salt), or `nil` for a delete or a
    /// purged save.
    func payloadRange(in bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        guard hasPayload else { return nil }
        let start = regionStart + (version == EntryFormat.saltedVersion ? EntrySalt.size : 0)
        return start..<bytes.count
    }

    /// The payload bytes, or `nil` for a delete or a purged save.
    func payload(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        payloadRange(in: bytes).map { UnsafeRawBufferPointer(rebasing: bytes[$0]) }
    }

    /// The payload digest: stored, or SHA-256 of the payload region.
    func digest(in bytes: UnsafeRawBufferPointer) -> EntryDigest {
        if let storedDigest { return storedDigest }
        guard hasPayload else { return .zero }
        return EntryDigest.of(UnsafeRawBufferPointer(rebasing: bytes[regionStart...]))
    }

    /// The fields the hash chain covers.
    func header(in bytes: UnsafeRawBufferPointer) -> EntryFormat.Header {
        EntryFormat.Header(
            version: version,
            operation: operation,
            kind: kind,
            dot: dot,
            timestamp: timestamp,
            id: id,
            payloadDigest: digest(in: bytes),
            isPurged: isPurged
        )
    }

    /// The entry without its payload (attach it with ``LogEntry/payload``).
    func entry(seq: UInt64, in bytes: UnsafeRawBufferPointer) -> LogEntry {
        LogEntry(
            seq: seq,
            dot: dot,
            timestamp: timestamp,
            operation: operation,
            kind: kind,
            id: id,
            payload: nil,
            version: version,
            salt: salt(in: bytes),
            storedDigest: storedDigest,
            link: storedLink
        )
    }

    /// The entry without its payload but with its digest, computed from the
    /// payload region when the layout does not store it.
    func entryWithDigest(seq: UInt64, in bytes: UnsafeRawBufferPointer) -> LogEntry {
        var stored = self
        stored.storedDigest = digest(in: bytes)
        return stored.entry(seq: seq, in: bytes)
    }

    /// The entry with a copy of its payload.
    func entryWithPayload(seq: UInt64, in bytes: UnsafeRawBufferPointer) -> LogEntry {
        var entry = entry(seq: seq, in: bytes)
        if let payload = payload(in: bytes) { entry.payload = EntryPayload(Array(payload)) }
        return entry
    }
}
