public import Foundation

/// One immutable entry of the log, as read back.
///
/// ```swift
/// for entry in try log.entries(after: anchor, limit: 500).entries {
///     print(entry.seq, entry.operation, entry.id, entry.payload?.count ?? 0)
/// }
/// ```
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
    /// SHA-256 of the payload as created (zero for a delete).
    public let payloadDigest: EntryDigest
    /// This entry's hash-chain link: SHA-256 over the previous link, the
    /// header and the payload digest (see docs/log-format.md).
    public let link: EntryDigest

    /// The creation time as a `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: Double(timestamp) / 1_000_000_000)
    }

    /// Whether this is a save whose payload was removed, keeping its digest.
    public var isPurged: Bool {
        operation == .save && payload == nil
    }

    /// The event this entry records (a purged save yields an empty payload).
    public var event: LogEvent {
        operation == .save
            ? .save(id: id, kind: kind, payload: payload.map(Array.init) ?? []) : .delete(id: id, kind: kind)
    }
}
