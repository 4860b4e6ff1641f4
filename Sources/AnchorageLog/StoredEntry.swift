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

    /// Whether the entry is sealed (version 3): its region is an envelope.
    var isSealed: Bool { version == EntryFormat.sealedVersion }

    /// Whether the entry stores a payload region: a save not purged, or a
    /// sealed delete (its envelope).
    var hasRegion: Bool { operation == .save ? !isPurged : isSealed }

    /// Whether the entry has a payload to read in place (a save not purged
    /// nor sealed).
    var hasPayload: Bool { operation == .save && !isPurged && !isSealed }

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
        guard hasRegion else { return .zero }
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

    /// The sealed envelope, or `nil` for an entry that is not sealed or a
    /// purged sealed save.
    func envelope(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard isSealed, hasRegion else { return nil }
        return UnsafeRawBufferPointer(rebasing: bytes[regionStart...])
    }

    /// The entry without its payload (attach it with ``LogEntry/payload``);
    /// a sealed entry keeps a copy of its envelope and is not opened.
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
            link: storedLink,
            envelope: envelope(in: bytes).map { EntryPayload(Array($0)) },
            isOpened: !isSealed
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
