public import AnchorageLog
public import AnchorageModel
import Foundation

/// One entry of the log that touched an object, for audits.
public struct HKObjectHistoryEntry: Sendable, Hashable, Codable {
    /// What the entry did to the object.
    public enum Action: String, Sendable, Hashable, Codable {
        /// Saved it.
        case save
        /// Deleted it.
        case delete
        /// Linked it to a workout or a correlation, or linked samples to it.
        case association
        /// Related it (a workout effort score) to a workout, or an effort
        /// score to it (a workout).
        case relateEffort
        /// Ended such a relation.
        case unrelateEffort
    }

    /// The entry's anchor in this store (`HKQueryAnchor(string:)` takes it).
    public var anchor: String
    /// The entry's position in this store.
    public var seq: UInt64
    /// The store (origin) that created the entry, and its number there.
    public var origin: StoreID
    public var counter: UInt64
    /// The origin's clock when the entry was created.
    public var date: Date
    public var action: Action
    /// For a save, the source that saved it (the principal); `nil` otherwise:
    /// deletes and associations record no principal.
    public var source: String?
    /// For a save carrying a sync identifier, its version (a replacement of
    /// an earlier version when higher).
    public var syncVersion: Double?
}

extension HKHealthStore {
    /// Every entry of the log that touched the object `id` — saves,
    /// deletes, replacements by sync identifier, associations, effort
    /// relations — in log
    /// order, with its anchor, dot, origin time and principal. Reads the
    /// whole log, a page at a time. Owner only. (An Anchorage addition.)
    ///
    /// ```swift
    /// for step in try store.history(of: sample.uuid) { print(step.anchor, step.action, step.origin) }
    /// ```
    public func history(of id: UUID) throws -> [HKObjectHistoryEntry] {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner reads an object's history")
        }
        let engine = try openEngine()
        var found: [HKObjectHistoryEntry] = []
        var decoder = PayloadDecoder()
        var anchor: Anchor?
        do {
            while true {
                let page = try engine.log.entries(after: anchor, limit: 4_096)
                for entry in page.entries {
                    guard let action = Self.action(of: entry, on: id) else { continue }
                    var step = HKObjectHistoryEntry(
                        anchor: engine.log.anchor(atSeq: entry.seq).stringValue,
                        seq: entry.seq,
                        origin: entry.dot.origin,
                        counter: entry.dot.counter,
                        date: entry.date,
                        action: action
                    )
                    if action == .save, let payload = entry.payload,
                        let sample = try? decoder.decode(Array(payload)) as? HKSample
                    {
                        step.source = sample.sourceRevision.source.bundleIdentifier
                        step.syncVersion = sample.typedMetadata.sync?.version
                    }
                    found.append(step)
                }
                anchor = page.next
                if !page.hasMore { break }
            }
        } catch {
            throw HKError.wrapping(error)
        }
        return found
    }

    private static func action(of entry: LogEntry, on id: UUID) -> HKObjectHistoryEntry.Action? {
        if entry.kind == StoreKind.effort {
            guard let effort = entry.payload?.withUnsafeBytes({ EffortRecord($0) }),
                effort.workout == id || effort.sample == id
            else { return nil }
            return effort.operation == .relate ? .relateEffort : .unrelateEffort
        }
        if entry.id == id { return entry.operation == .save ? .save : .delete }
        guard entry.kind == StoreKind.link, let payload = entry.payload,
            let link = payload.withUnsafeBytes({ LinkRecord($0) }),
            link.container == id || link.members.contains(id)
        else { return nil }
        return .association
    }
}
