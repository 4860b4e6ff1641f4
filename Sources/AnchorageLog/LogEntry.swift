public import Foundation

/// One immutable entry of the log, as read back.
///
/// ```swift
/// for entry in try log.entries(after: anchor, limit: 500).entries {
///     print(entry.seq, entry.operation, entry.id, entry.payload?.count ?? 0)
/// }
/// ```
///
/// Two entries are equal when their fields, payloads and digests are; the
/// ``link``, which a store of log format 2 keeps only at intervals, is left
/// out.
public struct LogEntry: Sendable, Hashable {
    /// The entry's position in this log, dense from 1.
    public let seq: UInt64
    /// Who created the entry and its number there; kept across replication.
    public let dot: Dot
    /// The origin's wall clock when the entry was created, in nanoseconds
    /// since 1970-01-01 UTC.
    public let timestamp: Int64
    /// Save or delete.
    public let operation: EntryOperation
    /// The object's type code.
    public let kind: EntryKind
    /// The object the entry is about.
    public let id: UUID
    /// The saved bytes; `nil` for a delete and for a save whose payload was
    /// purged (its digest remains).
    public internal(set) var payload: EntryPayload?
    /// The entry version: 1 for entries created before log format 2 (the
    /// digest covers the payload alone), 2 for entries whose payload is
    /// stored behind a random ``salt``, 3 for sealed entries (their kind,
    /// time, object id and payload are stored in an ``envelope``). It is
    /// part of the hash chain.
    public let version: UInt8
    /// The random bytes stored in front of a version-2 save's payload and
    /// covered by its digest; `nil` for version 1, deletes and purged saves.
    public let salt: EntrySalt?
    /// A sealed entry's envelope as stored (docs/log-format.md): what its
    /// digest covers and what travels to peers; `nil` for entries of
    /// versions 1 and 2 and for a purged sealed save. ``kind``, ``id``,
    /// ``timestamp`` and ``payload`` are what it holds, when the entry was
    /// read with its store's data key (``isOpened``); read without the key
    /// (a relay, a keyless copy), they are zero and `nil`.
    public internal(set) var envelope: EntryPayload?
    /// Whether ``kind``, ``id``, ``timestamp`` and ``payload`` are known:
    /// always for entries of versions 1 and 2; for a sealed entry, when it
    /// was opened with its data key.
    public internal(set) var isOpened: Bool
    /// The digest as the store or the peer gave it, when it did (or as
    /// ``withPayloadDigest()`` computed it).
    var storedDigest: EntryDigest?
    /// This entry's hash-chain link, when it is at hand: always in a store
    /// of log format 1 and from a peer; in format 2 only where the store
    /// keeps it (compute any other with ``link(after:)`` or
    /// ``EventLog/link(at:)``).
    public internal(set) var link: EntryDigest?

    init(
        seq: UInt64,
        dot: Dot,
        timestamp: Int64,
        operation: EntryOperation,
        kind: EntryKind,
        id: UUID,
        payload: EntryPayload?,
        version: UInt8,
        salt: EntrySalt?,
        storedDigest: EntryDigest?,
        link: EntryDigest?,
        envelope: EntryPayload? = nil,
        isOpened: Bool = true
    ) {
        self.seq = seq
        self.dot = dot
        self.timestamp = timestamp
        self.operation = operation
        self.kind = kind
        self.id = id
        self.payload = payload
        self.version = version
        self.salt = salt
        self.storedDigest = storedDigest
        self.link = link
        self.envelope = envelope
        self.isOpened = isOpened
    }

    /// Whether the entry is sealed (version 3).
    public var isSealed: Bool { version == EntryFormat.sealedVersion }

    /// SHA-256 of the payload region as stored: the ``salt`` (version 2),
    /// then the payload; zero for a delete. A purged save keeps it.
    public var payloadDigest: EntryDigest {
        if let storedDigest { return storedDigest }
        if isSealed { return envelope.map(EntryDigest.of) ?? .zero }
        guard operation == .save, let payload else { return .zero }
        return payload.withUnsafeBytes { EntryFormat.digest(salt: salt, payload: $0) }
    }

    /// This entry with its payload digest computed once and kept, so that
    /// reading ``payloadDigest`` (and computing the ``link(after:)`` or the
    /// ``encoded(link:)`` form) again costs no hashing.
    ///
    /// ```swift
    /// let entry = page.entries[0].withPayloadDigest()
    /// ```
    public func withPayloadDigest() -> LogEntry {
        var entry = self
        entry.storedDigest = payloadDigest
        return entry
    }

    /// The creation time as a `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(timestamp) / 1_000_000_000)
    }

    /// Whether this is a save whose payload was removed, keeping its digest.
    public var isPurged: Bool {
        operation == .save && (isSealed ? envelope == nil : payload == nil)
    }

    /// The event this entry records (a purged save yields an empty payload).
    public var event: LogEvent {
        operation == .save
            ? .save(id: id, kind: kind, payload: payload.map(Array.init) ?? []) : .delete(id: id, kind: kind)
    }

    public static func == (lhs: LogEntry, rhs: LogEntry) -> Bool {
        lhs.seq == rhs.seq && lhs.dot == rhs.dot && lhs.timestamp == rhs.timestamp && lhs.operation == rhs.operation
            && lhs.kind == rhs.kind && lhs.id == rhs.id && lhs.version == rhs.version && lhs.salt == rhs.salt
            && lhs.payload == rhs.payload && lhs.envelope == rhs.envelope && lhs.payloadDigest == rhs.payloadDigest
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seq)
        hasher.combine(dot)
        hasher.combine(id)
        hasher.combine(payload)
    }
}
