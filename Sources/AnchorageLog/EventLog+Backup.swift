public import Foundation
import LMDB

extension EventLog {
    /// Writes a consistent, compacted copy of the store into `destination`
    /// (created if needed; it must not already hold a store) while the log
    /// stays open.
    ///
    /// The copy is marked so that the first time it is opened it starts a
    /// new incarnation: anchors issued by this store are then refused by
    /// the restored copy (``LogError/Code/staleAnchor``), and entries it
    /// creates get a new origin id, so a restored store never hands out a
    /// dot that peers may already hold with other contents.
    ///
    /// ```swift
    /// try log.backup(to: URL(filePath: "/backups/alice-2026-11-22"))
    /// ```
    ///
    /// Copying a store's files by other means while it is open is not safe,
    /// and a copy made that way keeps the original incarnation.
    ///
    /// - Parameter includingProjections: `false` writes a **log-only** copy:
    ///   `data.mdb` alone (the log, its identity, origins and checkpoints),
    ///   whose first open rebuilds the projections. A sealed store's log-only
    ///   copy holds nothing but envelopes and clear headers, and a process
    ///   without the key makes one (``Sealing/keyless(_:)``).
    public func backup(to destination: URL, includingProjections: Bool = true) throws {
        let path = destination.standardizedFileURL.path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LogError(.fileSystem, "cannot create the backup directory \(path): \(error.localizedDescription)")
        }
        guard !FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw LogError(.fileSystem, "\(path) already holds a store; choose an empty directory")
        }
        let environment = try store().environment
        // The projections first: their copy is then no later than the
        // log's, whose open applies what they miss.
        if includingProjections, let projections = environment.companion {
            try projections.copy(to: ProjectionStore.path(inStore: path))
            try ProjectionStore.openEnvironment(inStore: path, configuration: configuration).sync()
        }
        try environment.copy(to: path)
        let copy = try Environment(path: path)
        let meta = try copy.openDatabase(named: "meta", options: [])
        try copy.write { txn in
            try txn.put([1], forKey: MetaKey.reincarnate, in: meta)
            try txn.put(ProjectionStore.State.clean.bytes, forKey: ProjectionStore.stateKey, in: meta)
        }
    }
}
