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
        _ = try compact(at: directory, when: { _ in true })
    }

    /// Compacts the closed store in `directory` (``compact(at:)``) when
    /// at least `fraction` of its data file or of its projections file is
    /// free pages, and at least 256 KiB; returns whether it did.
    ///
    /// A bulk load leaves its last commits' freed pages in the files (a
    /// commit reuses only what commits two or more before it freed), and
    /// more than usual when its keys are spread out, as imported objects'
    /// derived identifiers are: each commit rewrites most pages of the
    /// objects' index. `anchorage import` calls this when it is done, so an
    /// imported store takes the disk its data needs.
    ///
    /// ```swift
    /// await store.close()
    /// let compacted = try EventLog.compact(at: directory, ifFreeAtLeast: 0.25)
    /// ```
    ///
    /// - Throws: ``LogError`` ``LogError/Code/storeInUse`` while it is open.
    public static func compact(at directory: URL, ifFreeAtLeast fraction: Double) throws -> Bool {
        try compact(at: directory) { environments in
            try environments.contains { environment in
                let free = try environment.freePages()
                return free * environment.pageSize >= 256 << 10
                    && Double(free) >= fraction * Double(environment.usedPages)
            }
        }
    }

    /// Under the store's locks, compacts it when `worthwhile` says so of
    /// its open data and projections environments.
    private static func compact(at directory: URL, when worthwhile: ([Environment]) throws -> Bool) throws -> Bool {
        let path = directory.standardizedFileURL.path
        let lock = try DirectoryLock(directory: path)
        let readers = try ReaderLock(directory: path, exclusive: true)
        defer { withExtendedLifetime((lock, readers)) {} }
        let scratch = path + "/.compact-\(UUID().uuidString)"
        do {
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            guard let projections = try copyLivePages(of: path, to: scratch, when: worthwhile) else { return false }
            // rename(2) replaces a file atomically: a crash leaves the old
            // file or the new one, never neither.
            if projections {
                try replace(ProjectionStore.path(inStore: path), with: ProjectionStore.path(inStore: scratch))
            }
            try replace(path + "/data.mdb", with: scratch + "/data.mdb")
            return true
        } catch let error as LogError {
            throw error
        } catch {
            throw LogError(.fileSystem, "cannot compact the store at \(path): \(error)")
        }
    }

    /// Copies the live pages of the store's data file, and of its
    /// projections file when it has one that is not to be rebuilt, into the
    /// new directory `scratch`, when `worthwhile` says so of their
    /// environments; returns whether it copied the projections, or `nil`
    /// when it copied nothing. The environments are closed when it returns.
    private static func copyLivePages(
        of path: String,
        to scratch: String,
        when worthwhile: ([Environment]) throws -> Bool
    ) throws -> Bool? {
        var configuration = Environment.Configuration()
        configuration.maxDatabases = 64
        let environment = try Environment(path: path, configuration: configuration)
        let projections: Environment? =
            if FileManager.default.fileExists(atPath: ProjectionStore.path(inStore: path)),
                !ProjectionStore.mustDiscard(try ProjectionStore.recordedState(of: environment))
            {
                try ProjectionStore.openEnvironment(inStore: path)
            } else {
                nil
            }
        guard try worthwhile([environment] + (projections.map { [$0] } ?? [])) else { return nil }
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
        try environment.copy(to: scratch)
        guard let projections else { return false }
        try projections.copy(to: ProjectionStore.path(inStore: scratch))
        try ProjectionStore.openEnvironment(inStore: scratch).sync()
        try? FileManager.default.removeItem(atPath: ProjectionStore.path(inStore: scratch) + "-lock")
        return true
    }

    private static func replace(_ file: String, with copy: String) throws {
        guard rename(copy, file) == 0 else {
            throw LogError(.fileSystem, "cannot replace \(file): \(String(cString: strerror(errno)))")
        }
    }
}
