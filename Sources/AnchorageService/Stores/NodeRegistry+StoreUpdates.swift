import Anchorage
import Foundation
import LMDB
import Synchronization

/// The node's store-updates feed, kept in the registry (docs/http-api.md,
/// "One feed across every store"): which stores' logs moved, from which
/// anchor to which, in the order the node saw it.
///
/// Three tables: the updates (`seq` → ``Record``); each store's last update
/// (`store` → ``Head``), so an update knows where its store stood before;
/// and the stores open now (`store` → nothing), so that after a crash the
/// node checks only those for changes it had not published yet.
///
/// Updates older than the newest ``retainedUpdates`` are compacted: an
/// update absorbs its store's previous one (taking its `since`), so the
/// old part of the feed holds at most one update per store. A consumer
/// resuming there reads a store from an earlier anchor than it needs —
/// some objects twice, never one missed.
extension NodeRegistry {
    /// What the updates table keeps of an update.
    struct Record: Codable {
        var store: String
        var kind: StoreUpdate.Kind
        var since: String?
        var anchor: String?
        /// The store's previous update, while it is kept.
        var previous: UInt64?
    }

    /// A store's last update and its anchor then.
    struct Head: Codable {
        var seq: UInt64
        var anchor: String?
    }

    /// How many of the newest updates are kept as they were written
    /// before compaction merges older ones.
    public static var retainedUpdates: UInt64 { 1_000_000 }

    /// The key of the registry's id in the heads table (no store id
    /// begins with a dot).
    private static let idKey = Array(".id".utf8)
    /// The key of how far compaction has gone.
    private static let compactedKey = Array(".compacted".utf8)

    /// The registry's id: 16 random bytes made the first time it is asked
    /// for, as 32 hex digits. Store-updates cursors carry it.
    public func storeUpdatesID() throws(ServiceError) -> String {
        if let known = updatesID.withLock({ $0 }) { return known }
        let id = try Self.storage("reading the node's registry") {
            if let found = try environment.read({ txn in
                try txn.withValue(forKey: Self.idKey, in: updateHeadsDatabase) { Self.hex($0) }
            }) {
                return found
            }
            return try environment.write { txn in
                if let found = try txn.withValue(forKey: Self.idKey, in: updateHeadsDatabase, { Self.hex($0) }) {
                    return found
                }
                var generator = SystemRandomNumberGenerator()
                let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
                try txn.put(bytes, forKey: Self.idKey, in: updateHeadsDatabase)
                return bytes.map(Self.hexByte).joined()
            }
        }
        updatesID.withLock { $0 = id }
        return id
    }

    private static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        bytes.map(hexByte).joined()
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// The last update's position (0 when there is none).
    public func storeUpdatesHead() throws(ServiceError) -> UInt64 {
        try Self.storage("reading the node's registry") {
            try environment.read { txn in try lastUpdate(in: txn) }
        }
    }

    private func lastUpdate(in txn: borrowing some ReadableTransaction & ~Copyable) throws -> UInt64 {
        try txn.withCursor(on: updatesDatabase) { cursor in
            try cursor.last { key, _ in UInt64(bigEndianBytes: key) } ?? nil
        } ?? 0
    }

    /// Records that each store's log now ends at its anchor, in one commit:
    /// an update for each store whose anchor differs from its last
    /// update's. Returns the feed's head after the commit.
    @discardableResult
    public func publishStoreUpdates(_ heads: [(store: StoreName, anchor: String)]) throws(ServiceError) -> UInt64 {
        try commitStoreUpdates(heads, marks: [])
    }

    /// ``publishStoreUpdates(_:)`` and, in the same commit, marks stores
    /// open (`true`) or closed (`false`), in the order given.
    @discardableResult
    public func commitStoreUpdates(
        _ heads: [(store: StoreName, anchor: String)],
        marks: [(store: StoreName, open: Bool)]
    ) throws(ServiceError) -> UInt64 {
        try Self.storage("recording store updates") {
            try environment.write { txn in
                for (store, open) in marks {
                    let key = Array(store.rawValue.utf8)
                    if open {
                        if try !txn.contains(key: key, in: openStoresDatabase) {
                            try txn.put([], forKey: key, in: openStoresDatabase)
                        }
                    } else {
                        _ = try txn.removeValue(forKey: key, in: openStoresDatabase)
                    }
                }
                var seq = try lastUpdate(in: txn)
                for (store, anchor) in heads {
                    let key = Array(store.rawValue.utf8)
                    // A store being deleted publishes nothing more.
                    let record = try txn.withValue(forKey: key, in: storesDatabase) { try decode(StoreRecord.self, $0) }
                    guard record?.state == .active else { continue }
                    let head = try txn.withValue(forKey: key, in: updateHeadsDatabase) { try decode(Head.self, $0) }
                    if let head, head.anchor == anchor { continue }
                    seq += 1
                    let update = Record(
                        store: store.rawValue,
                        kind: .changed,
                        since: head?.anchor,
                        anchor: anchor,
                        previous: head?.seq
                    )
                    try txn.put(try encode(update), forKey: seq.bigEndianBytes, in: updatesDatabase)
                    try txn.put(try encode(Head(seq: seq, anchor: anchor)), forKey: key, in: updateHeadsDatabase)
                }
                return seq
            }
        }
    }

    /// Appends `store`'s deletion to the feed, in the deletion's commit.
    func recordDeletion(of store: StoreName, in txn: borrowing WriteTransaction) throws {
        let key = Array(store.rawValue.utf8)
        let head = try txn.withValue(forKey: key, in: updateHeadsDatabase) { try decode(Head.self, $0) }
        let seq = try lastUpdate(in: txn) + 1
        let update = Record(store: store.rawValue, kind: .deleted, since: head?.anchor, anchor: nil, previous: nil)
        try txn.put(try encode(update), forKey: seq.bigEndianBytes, in: updatesDatabase)
        _ = try txn.removeValue(forKey: key, in: updateHeadsDatabase)
        _ = try txn.removeValue(forKey: key, in: openStoresDatabase)
    }

    /// Up to `limit` updates after position `after`, oldest first, and
    /// whether more follow: a read bounded by the page, whatever the
    /// number of stores.
    public func storeUpdates(after: UInt64, limit: Int) throws(ServiceError) -> (updates: [StoreUpdate], hasMore: Bool)
    {
        try Self.storage("reading the node's store updates") {
            try environment.read { txn in
                var updates: [StoreUpdate] = []
                var hasMore = false
                try txn.withCursor(on: updatesDatabase) { cursor in
                    try cursor.scan(from: (after + 1).bigEndianBytes) { key, value in
                        guard updates.count < limit else {
                            hasMore = true
                            return false
                        }
                        guard let seq = UInt64(bigEndianBytes: key) else { return true }
                        let record = try decode(Record.self, value)
                        updates.append(
                            StoreUpdate(
                                seq: seq,
                                store: record.store,
                                kind: record.kind,
                                since: record.since,
                                anchor: record.anchor
                            )
                        )
                        return true
                    }
                }
                return (updates, hasMore)
            }
        }
    }

    /// The anchor `store`'s last update published; `nil` when it has none.
    public func publishedAnchor(of store: StoreName) throws(ServiceError) -> String? {
        try Self.storage("reading the node's registry") {
            try environment.read { txn in
                try txn.withValue(forKey: Array(store.rawValue.utf8), in: updateHeadsDatabase) {
                    try decode(Head.self, $0).anchor
                } ?? nil
            }
        }
    }

    /// Marks `store` open (its changes may be published late) or closed
    /// (everything it had was published).
    public func markStoreOpen(_ store: StoreName, _ open: Bool) throws(ServiceError) {
        try Self.storage("recording that store \(store) is \(open ? "open" : "closed")") {
            let key = Array(store.rawValue.utf8)
            let marked = try environment.read { txn in try txn.contains(key: key, in: openStoresDatabase) }
            guard marked != open else { return }
            try environment.write { txn in
                if open {
                    try txn.put([], forKey: key, in: openStoresDatabase)
                } else {
                    _ = try txn.removeValue(forKey: key, in: openStoresDatabase)
                }
            }
        }
    }

    /// The stores marked open: after a crash, those whose last changes may
    /// not have been published.
    public func storesMarkedOpen() throws(ServiceError) -> [StoreName] {
        try Self.storage("reading the node's registry") {
            try environment.read { txn in
                var names: [StoreName] = []
                try txn.withCursor(on: openStoresDatabase) { cursor in
                    try cursor.scan { key, _ in
                        if let name = try? StoreName(String(decoding: key, as: UTF8.self)) { names.append(name) }
                        return true
                    }
                }
                return names
            }
        }
    }

    /// Compacts up to `limit` updates older than the newest `retained`:
    /// each absorbs its store's previous update. Returns how many it
    /// looked at (0: nothing left to compact).
    @discardableResult
    public func compactStoreUpdates(
        retained: UInt64 = retainedUpdates,
        limit: Int = 10_000
    ) throws(ServiceError)
        -> Int
    {
        try Self.storage("compacting the node's store updates") {
            try environment.write { txn in
                let head = try lastUpdate(in: txn)
                guard head > retained else { return 0 }
                let bound = head - retained
                let compacted = try txn.withValue(forKey: Self.compactedKey, in: updateHeadsDatabase) {
                    UInt64(bigEndianBytes: $0)
                }
                var next: UInt64 = (compacted ?? nil) ?? 1
                var seen = 0
                var absorbed: [(seq: UInt64, record: Record, previous: UInt64)] = []
                try txn.withCursor(on: updatesDatabase) { cursor in
                    try cursor.scan(from: next.bigEndianBytes) { key, value in
                        guard let seq = UInt64(bigEndianBytes: key), seq <= bound, seen < limit else { return false }
                        seen += 1
                        next = seq + 1
                        let record = try decode(Record.self, value)
                        if let previous = record.previous { absorbed.append((seq, record, previous)) }
                        return true
                    }
                }
                for (seq, record, previous) in absorbed {
                    var record = record
                    let before = try txn.withValue(forKey: previous.bigEndianBytes, in: updatesDatabase) {
                        try decode(Record.self, $0)
                    }
                    if let before, before.store == record.store, before.kind == .changed {
                        _ = try txn.removeValue(forKey: previous.bigEndianBytes, in: updatesDatabase)
                        record.since = before.since
                    }
                    record.previous = nil
                    try txn.put(try encode(record), forKey: seq.bigEndianBytes, in: updatesDatabase)
                }
                try txn.put(next.bigEndianBytes, forKey: Self.compactedKey, in: updateHeadsDatabase)
                return seen
            }
        }
    }
}
