public import Foundation
import LMDB

/// One store the registry holds.
public struct StoreRecord: Codable, Sendable, Hashable {
    /// Whether the store serves requests, or is being erased.
    public enum State: String, Codable, Sendable {
        case active, deleting
    }

    public var id: String
    public var created: Date
    public var state: State
    /// The most bytes the store's data file may use before its writes are
    /// refused (`quotaExceeded`); `nil`: no limit.
    public var maximumBytes: Int? = nil
}

extension NodeRegistry {
    /// The directory of a store (whether or not it exists).
    public func directory(of id: StoreName) -> URL {
        root.appending(path: id.rawValue, directoryHint: .isDirectory)
    }

    /// Adds a store and creates its directory.
    ///
    /// ```swift
    /// let record = try registry.createStore(try StoreName("alice"))
    /// ```
    ///
    /// - Throws: ``ServiceError`` `.storeExists` when the id is taken (also
    ///   while an earlier store of that id is being erased),
    ///   `.quotaExceeded` past ``Configuration/maximumStores``.
    @discardableResult
    public func createStore(_ id: StoreName, now: Date = Date()) throws(ServiceError) -> StoreRecord {
        try createStores([id], now: now)[0]
    }

    /// Adds stores, all or none, in one commit, and creates their
    /// directories with one flush of the root: creating many costs little
    /// more than creating one.
    ///
    /// ```swift
    /// try registry.createStores(try ids.map(StoreName.init))
    /// ```
    ///
    /// - Throws: ``ServiceError`` `.storeExists` naming the first id that is
    ///   taken or given twice, `.quotaExceeded` when they do not all fit;
    ///   then none is added.
    @discardableResult
    public func createStores(_ ids: [StoreName], now: Date = Date()) throws(ServiceError) -> [StoreRecord] {
        guard !ids.isEmpty else { return [] }
        let created = Self.recorded(now)
        let records = ids.map { StoreRecord(id: $0.rawValue, created: created, state: .active) }
        let encoded = try Self.storage("recording \(ids.count) stores") { try records.map { try encode($0) } }
        try Self.storage("recording \(ids.count) stores") {
            try environment.write { txn in
                var seen = Set<StoreName>()
                for id in ids {
                    guard seen.insert(id).inserted, try !txn.contains(key: Array(id.rawValue.utf8), in: storesDatabase)
                    else { throw ServiceError(.storeExists, "there is already a store \(id)") }
                }
                let count = try txn.statistics(of: storesDatabase).entries
                guard count + ids.count <= configuration.maximumStores else {
                    throw ServiceError(
                        .quotaExceeded,
                        "this node holds \(count) stores and may hold \(configuration.maximumStores): "
                            + "\(ids.count) more do not fit; delete some first"
                    )
                }
                for (id, bytes) in zip(ids, encoded) {
                    try txn.put(bytes, forKey: Array(id.rawValue.utf8), in: storesDatabase)
                }
            }
        }
        try Self.storage("creating the directories of \(ids.count) stores") {
            for id in ids {
                try FileManager.default.createDirectory(at: directory(of: id), withIntermediateDirectories: true)
            }
            try DirectorySync.sync(root)
        }
        return records
    }

    /// The store of `id` if the registry holds it and it is not being
    /// erased; `nil` otherwise.
    public func store(_ id: StoreName) throws(ServiceError) -> StoreRecord? {
        try Self.storage("reading the node's registry") {
            try environment.read { txn in
                try txn.withValue(forKey: Array(id.rawValue.utf8), in: storesDatabase) { bytes in
                    try decode(StoreRecord.self, bytes)
                }
            }
        }.flatMap { $0.state == .active ? $0 : nil }
    }

    /// Sets (or with `nil` lifts) the store's storage quota: once its data
    /// file uses `maximumBytes`, saves and pushes into it are refused with
    /// `quotaExceeded` (deletes still go through). A running node applies
    /// it from its next request.
    ///
    /// ```swift
    /// try registry.setQuota(of: try StoreName("alice"), maximumBytes: 100 << 20)
    /// ```
    ///
    /// - Throws: ``ServiceError`` `.storeNotFound`; `.invalidArgument` for
    ///   a quota below 1 MiB.
    @discardableResult
    public func setQuota(of id: StoreName, maximumBytes: Int?) throws(ServiceError) -> StoreRecord {
        if let maximumBytes, maximumBytes < 1 << 20 {
            throw ServiceError(.invalidArgument, "a store's quota is at least 1 MiB (1048576 bytes)")
        }
        return try Self.storage("setting the quota of store \(id)") {
            try environment.write { txn in
                let key = Array(id.rawValue.utf8)
                let found = try txn.withValue(forKey: key, in: storesDatabase) { try decode(StoreRecord.self, $0) }
                guard var record = found, record.state == .active else {
                    throw ServiceError(.storeNotFound, "there is no store \(id)")
                }
                record.maximumBytes = maximumBytes
                try txn.put(try encode(record), forKey: key, in: storesDatabase)
                return record
            }
        }
    }

    /// Every store, by id, including those being erased.
    public func stores() throws(ServiceError) -> [StoreRecord] {
        try stores(after: nil, limit: .max)
    }

    /// At most `limit` stores by id, those after `after` (a page of a long
    /// list: pass the last id of the page before).
    ///
    /// ```swift
    /// let page = try registry.stores(after: nil, limit: 1_000)
    /// let next = try registry.stores(after: page.last.map { try StoreName($0.id) }, limit: 1_000)
    /// ```
    public func stores(after: StoreName?, limit: Int) throws(ServiceError) -> [StoreRecord] {
        try Self.storage("reading the node's registry") {
            try environment.read { txn in
                var records: [StoreRecord] = []
                guard limit > 0 else { return records }
                try txn.withCursor(on: storesDatabase) { cursor in
                    let visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool = { key, value in
                        if let after, key.elementsEqual(after.rawValue.utf8) { return true }
                        records.append(try self.decode(StoreRecord.self, value))
                        return records.count < limit
                    }
                    if let after {
                        try cursor.scan(from: Array(after.rawValue.utf8), visit)
                    } else {
                        try cursor.scan(visit)
                    }
                }
                return records
            }
        }
    }

    /// Erases a store: from this call on the registry does not hold it and
    /// its tokens are revoked; then its directory is removed and the removal
    /// made durable. A crash part way is finished when the registry opens
    /// again. The store's directory lock is held throughout, so nobody has
    /// it open or opens it meanwhile.
    ///
    /// - Throws: ``ServiceError`` `.storeNotFound` for a store the registry
    ///   does not hold, `.storeInUse` while a process has it open (nothing
    ///   changes then).
    public func deleteStore(_ id: StoreName) throws(ServiceError) {
        // Held throughout: nobody has the store open, nobody opens it.
        let lock = try lockDirectory(of: id)
        try beginDeletion(id)
        try erase(id)
        withExtendedLifetime(lock) {}
    }

    /// Erases a store a running node serves: from this call on the registry
    /// refuses it and its tokens; `close` then ends its requests and closes
    /// it (``StorePool/remove(_:)``), and its directory is removed durably.
    ///
    /// ```swift
    /// try await registry.deleteStore(name) { await pool.remove($0) }
    /// ```
    ///
    /// - Throws: ``ServiceError`` `.storeNotFound` for a store the registry
    ///   does not hold; `.storeInUse` when another process (not the node)
    ///   still has it open: the store stays refused and is erased when the
    ///   registry next opens.
    public func deleteStore(
        _ id: StoreName,
        closing close: (StoreName) async -> Void
    ) async throws(ServiceError) {
        try beginDeletion(id)
        await close(id)
        let lock: StoreDirectoryLock?
        do {
            lock = try lockDirectory(of: id)
        } catch  where error.code == .storeInUse {
            throw ServiceError(
                .storeInUse,
                "the store \(id) is deleted and refused, but another process has its directory open: it is erased once the node restarts after that process ends"
            )
        }
        try erase(id)
        withExtendedLifetime(lock) {}
    }

    /// The lock of a store's directory (`nil` when it has none).
    ///
    /// - Throws: ``ServiceError`` `.storeInUse` while a process has it open.
    private func lockDirectory(of id: StoreName) throws(ServiceError) -> StoreDirectoryLock? {
        let directory = directory(of: id)
        guard FileManager.default.fileExists(atPath: directory.path) else { return nil }
        let lock = try Self.storage("locking the directory of store \(id)") {
            try StoreDirectoryLock(directory: directory)
        }
        guard let lock else {
            throw ServiceError(
                .storeInUse,
                "the store \(id) is open in a running process (a node serving it); stop it, or delete the store through the node"
            )
        }
        return lock
    }

    /// The first half of ``deleteStore(_:)``, durable on its own: the store
    /// is marked deleting and its tokens revoked; its directory stays until
    /// ``erase(_:)`` (or the next open) removes it.
    package func beginDeletion(_ id: StoreName) throws(ServiceError) {
        try Self.storage("deleting the store \(id)") {
            try environment.write { txn in
                let key = Array(id.rawValue.utf8)
                let found = try txn.withValue(forKey: key, in: storesDatabase) { try decode(StoreRecord.self, $0) }
                guard var record = found else { throw ServiceError(.storeNotFound, "there is no store \(id)") }
                record.state = .deleting
                try txn.put(try encode(record), forKey: key, in: storesDatabase)
                try revokeTokens(of: id, in: txn)
                try removePeers(of: id, in: txn)
                try recordDeletion(of: id, in: txn)
            }
        }
    }

    /// Removes the directory of a store being deleted, then its record.
    func erase(_ id: StoreName) throws(ServiceError) {
        try Self.storage("erasing the directory of store \(id)") {
            let directory = directory(of: id)
            if FileManager.default.fileExists(atPath: directory.path) {
                // Renamed first, so a half-removed directory never passes for the store.
                let doomed = root.appending(path: ".deleting-\(id.rawValue)-\(UInt64.random(in: 0 ... .max))")
                try FileManager.default.moveItem(at: directory, to: doomed)
                try DirectorySync.sync(root)
                try FileManager.default.removeItem(at: doomed)
                try DirectorySync.sync(root)
            }
            try environment.write { txn in
                _ = try txn.removeValue(forKey: Array(id.rawValue.utf8), in: storesDatabase)
            }
        }
    }

    /// Finishes deletions a crash interrupted: stores marked deleting, and
    /// renamed directories left behind.
    func finishDeletions() throws(ServiceError) {
        for record in try stores() where record.state == .deleting {
            let id = try StoreName(record.id)
            let lock: StoreDirectoryLock?
            do {
                lock = try lockDirectory(of: id)
            } catch  where error.code == .storeInUse {
                continue  // still open elsewhere: erased at a later open
            }
            try erase(id)
            withExtendedLifetime(lock) {}
        }
        try Self.storage("removing what an interrupted deletion left in \(root.path)") {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.path)
            where name.hasPrefix(".deleting-") {
                try FileManager.default.removeItem(at: root.appending(path: name))
            }
        }
    }
}
