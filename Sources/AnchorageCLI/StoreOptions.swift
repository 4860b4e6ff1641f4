import Anchorage
import AnchorageLog
import AnchorageService
import ArgumentParser
import Foundation

/// The store a command works on.
struct StoreOptions: ParsableArguments {
    @Option(help: "The store's directory (default: $ANCHORAGE_STORE, else ./anchorage-data).")
    var store: String?

    /// The store's directory.
    var directory: URL {
        store.map { URL(fileURLWithPath: $0) } ?? HKHealthStore.defaultDirectory
    }

    /// The store, opened (created if missing) to be written: by one process
    /// at a time. `durability` is what each commit guarantees; the store is
    /// flushed whole when it closes (see `EventLog.Durability`).
    func openStore(durability: EventLog.Durability = .full) async throws -> HKHealthStore {
        try refuseNodeDirectories(directory.standardizedFileURL.path)
        var configuration = HKHealthStore.Configuration()
        configuration.log.durability = durability
        configuration.log.sealing = try await sealing()
        return HKHealthStore(directory: directory, configuration: configuration)
    }

    /// The store's path, when it holds a store.
    ///
    /// - Throws: ``CommandFailure`` when there is none (nothing is created).
    func existingStorePath() throws -> String {
        let path = directory.standardizedFileURL.path
        try refuseNodeDirectories(path)
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw CommandFailure(description: "no store at \(path); create one with `import`, `save` or `serve`")
        }
        return path
    }

    /// Refuses a multi-store node's registry, or its root, named as a
    /// store: neither is one, and the store commands would otherwise say
    /// the registry holds nothing yet, or that there is no store at all.
    func refuseNodeDirectories(_ path: String) throws {
        let url = URL(fileURLWithPath: path)
        if url.lastPathComponent == NodeRegistry.directoryName {
            var root = url.deletingLastPathComponent().path
            if root.count > 1 && root.hasSuffix("/") { root.removeLast() }
            throw CommandFailure(
                description: "\(path) is a multi-store node's registry (its stores, tokens and keys), not a store: "
                    + "name one of the node's stores, --store \(root)/<store> (`anchorage stores list --stores "
                    + "\(root)` lists them)"
            )
        }
        let registry = url.appending(path: NodeRegistry.directoryName).path
        if FileManager.default.fileExists(atPath: registry + "/data.mdb"),
            !FileManager.default.fileExists(atPath: path + "/data.mdb")
        {
            throw CommandFailure(
                description: "\(path) is a multi-store node's directory, not a store: name one of its stores, "
                    + "--store \(path)/<store> (`anchorage stores list --stores \(path)` lists them)"
            )
        }
    }

    /// The store, opened for a command that only reads: beside a process
    /// that writes it (a running node), as LMDB allows. A store that a
    /// writer must settle first (indices of another version, a restored
    /// backup) is opened for writing when nobody else writes it.
    ///
    /// A command that reads health data passes `recordsReads`: the store is
    /// then opened so that it can append to its access log
    /// (``HKHealthStore/recordRead(_:)``),
    /// which needs its files to be writable.
    ///
    /// - Throws: ``CommandFailure`` when there is no store at the directory
    ///   (nothing is created) or it cannot be opened.
    func openStoreForReading(recordsReads: Bool = false) async throws -> HKHealthStore {
        let path = try existingStorePath()

        var configuration = HKHealthStore.Configuration()
        configuration.readOnly = true
        configuration.log.appendsLocalRecordsWhenReading = recordsReads
        configuration.log.sealing = try await sealing()
        let reading = HKHealthStore(directory: directory, configuration: configuration)
        do {
            try await reading.opened()
            return reading
        } catch {
            await reading.close()
            guard (error.underlyingError as? LogError)?.code == .needsWriter else {
                if recordsReads, !FileManager.default.isWritableFile(atPath: path + "/data.mdb") {
                    throw CommandFailure(
                        description: "\(error.message); reading health data records the read in the store's "
                            + "access log, so the store's files must be writable by this user"
                    )
                }
                throw CommandFailure(description: error.message)
            }
        }
        var writable = HKHealthStore.Configuration()
        writable.log.sealing = configuration.log.sealing
        let writing = HKHealthStore(directory: directory, configuration: writable)
        do {
            try await writing.opened()
            return writing
        } catch {
            await writing.close()
            throw CommandFailure(description: error.message)
        }
    }

    /// Runs `body` on the store opened to be written (``openStore()``) and
    /// closes it; see ``HKHealthStore/closing(failure:_:)`` for errors.
    ///
    /// ```swift
    /// try await storeOptions.withStore(failure: "nothing was saved") { try await $0.save(objects) }
    /// ```
    func withStore<T>(
        failure: String,
        durability: EventLog.Durability = .full,
        _ body: (HKHealthStore) async throws -> T
    ) async throws -> T {
        try await openStore(durability: durability).closing(failure: failure, body)
    }

    /// Runs `body` on the store opened for reading
    /// (``openStoreForReading(recordsReads:)``) and closes it; see
    /// ``HKHealthStore/closing(failure:_:)`` for errors.
    func withStoreForReading<T>(
        failure: String,
        recordsReads: Bool = false,
        _ body: (HKHealthStore) async throws -> T
    ) async throws -> T {
        try await openStoreForReading(recordsReads: recordsReads).closing(failure: failure, body)
    }
}

extension HKHealthStore {
    /// Runs `body` on the store, then closes it, also when `body` throws.
    /// The command's own errors (``CommandFailure``, `ValidationError`)
    /// pass through; any other becomes a ``CommandFailure`` that says
    /// `failure`, then the error in words (``ErrorWords``).
    func closing<T>(failure: String, _ body: (HKHealthStore) async throws -> T) async throws -> T {
        let result: T
        do {
            result = try await body(self)
        } catch let error as CommandFailure {
            await close()
            throw error
        } catch let error as ValidationError {
            await close()
            throw error
        } catch {
            await close()
            throw CommandFailure(description: "\(failure): \(ErrorWords.describe(error))")
        }
        await close()
        return result
    }
}
