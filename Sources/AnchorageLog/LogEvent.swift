public import Foundation

/// What an entry records: a save of an object's payload, or its deletion.
public enum EntryOperation: UInt8, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The object `id` of `kind` was saved with a payload.
    case save = 1
    /// The object `id` of `kind` was deleted.
    case delete = 2

    public var description: String { self == .save ? "save" : "delete" }
}

/// An event to append: the log adds its sequence number, dot, time, digest
/// and hash link.
///
/// ```swift
/// let anchors = try await log.append([
///     .save(id: UUID(), kind: 1, payload: bytes),
///     .delete(id: oldID, kind: 1),
/// ])
/// ```
public struct LogEvent: Sendable, Hashable {
    /// Save or delete.
    public let operation: EntryOperation
    /// The object the event is about.
    public let id: UUID
    /// The object's type code.
    public let kind: EntryKind
    /// The saved bytes; empty for a delete. The log never looks inside.
    public let payload: [UInt8]

    /// An event that saves `payload` as object `id` of `kind`.
    public static func save(id: UUID, kind: EntryKind, payload: [UInt8]) -> LogEvent {
        LogEvent(operation: .save, id: id, kind: kind, payload: payload)
    }

    /// An event that deletes object `id` of `kind`.
    public static func delete(id: UUID, kind: EntryKind) -> LogEvent {
        LogEvent(operation: .delete, id: id, kind: kind, payload: [])
    }
}
