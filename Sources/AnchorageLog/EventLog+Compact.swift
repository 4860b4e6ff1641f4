public import Foundation
import LMDB

extension EventLog {
    /// Rewrites the closed store in `directory` with only its live pages,
    /// so freed pages (payloads removed by a purge, superseded index rows)
    /// leave the disk. It keeps the store's identity and incarnation: its
    /// anchors stay valid. The store must not be open anywhere: not for
    /// writing, and not for reading beside a writer (a reader keeps the
    /// file it opened, which this replaces).
    ///
    /// ```swift
    /// await log.close()
    /// try EventLog.compact(at: directory)
    /// ```
    ///
    /// - Throws: ``LogError`` ``LogError/Code/storeInUse`` while it is open.
    public static func compact(at directory: URL) throws {
        let path = directory.standardizedFileURL.path
        let lock = try DirectoryLock(directory: path)
        let readers = try ReaderLock(directory: path, exclusive: true)
        defer { withExtendedLifetime((lock, readers)) {} }
        let scratch = path + "/.compact-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            do {
                var configuration = Environment.Configuration()
                configuration.maxDatabases = 64
                let environment = try Environment(path: path, configuration: configuration)
                try environment.copy(to: scratch)
                try compactProjections(of: environment, at: path, scratch: scratch)
            }
            // rename(2) replaces the file atomically: a crash leaves the old
            // file or the new one, never neither.
            guard rename(scratch + "/data.mdb", path + "/data.mdb") == 0 else {
                throw LogError(.fileSystem, "cannot replace \(path)/data.mdb: \(String(cString: strerror(errno)))")
            }
        } catch let error as LogError {
            throw error
        } catch {
            throw LogError(.fileSystem, "cannot compact the store at \(path): \(error)")
        }
    }

    /// Rewrites the store's projections file (when it has one that is
    /// not to be rebuilt) with only its live pages, synced, in place.
    private static func compactProjections(of log: Environment, at path: String, scratch: String) throws {
        let file = ProjectionStore.path(inStore: path)
        guard FileManager.default.fileExists(atPath: file),
            !ProjectionStore.mustDiscard(try ProjectionStore.recordedState(of: log))
        else { return }
        let copy = ProjectionStore.path(inStore: scratch)
        do {
            try ProjectionStore.openEnvironment(inStore: path).copy(to: copy)
            try ProjectionStore.openEnvironment(inStore: scratch).sync()
        }
        try? FileManager.default.removeItem(atPath: copy + "-lock")
        guard rename(copy, file) == 0 else {
            throw LogError(.fileSystem, "cannot replace \(file): \(String(cString: strerror(errno)))")
        }
    }
}
