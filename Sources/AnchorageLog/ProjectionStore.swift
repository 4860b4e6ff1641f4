import Foundation
import LMDB

/// Where a store keeps its projections: their own LMDB environment,
/// `projections.mdb` beside the log's `data.mdb`, committed without a sync
/// after each durable commit of the log.
///
/// The log is the write-ahead log of the projections, as PostgreSQL's WAL
/// is of its tables: a commit makes the log's new entries durable and
/// leaves the projections' pages in the page cache, so a small write costs
/// the log's pages at commit, not every index and view leaf it touched.
/// The projections record the last entry they have applied; the log's
/// `meta` records whether they may hold commits not yet on disk, and since
/// which boot of the machine:
///
/// - **clean**: synced since their last commit (the writer syncs them when
///   it goes idle and when it closes): they are what they say;
/// - **dirty, this boot**: the process ended without syncing, but the page
///   cache kept every commit: the next open applies the log's entries after
///   their last one;
/// - **dirty, another boot**: the machine stopped with commits in memory;
///   the file may be damaged: the next open deletes it and rebuilds every
///   projection from the log.
///
/// Every transaction spans both environments (``Environment/pair(with:)``):
/// a reader sees the projections as of a commit no later than the log's,
/// and reads the position they reflect with ``EventLog/projectedSeq(in:)``.
enum ProjectionStore {
    /// The projections' file name in the store's directory.
    static let fileName = "projections.mdb"

    /// The log `meta` key of the projections' state.
    static let stateKey = Array("projections-state".utf8)
    /// The projections' `meta` key of the last entry they applied.
    static let appliedKey = Array("applied".utf8)

    /// The log `meta` key of the data key version the projections are
    /// sealed under (``ProjectionCipher/tag``); absent when they are not.
    static let sealingKey = Array("projections-sealing".utf8)

    /// Whether the projections may hold commits that are not on disk.
    enum State: Equatable {
        /// Synced after their last commit.
        case clean
        /// Possibly not synced, since the boot with this id.
        case dirty(boot: [UInt8])

        init?(bytes: [UInt8]) {
            switch bytes.first {
            case 0 where bytes.count == 1: self = .clean
            case 1 where bytes.count == 17: self = .dirty(boot: Array(bytes[1...]))
            default: return nil
            }
        }

        var bytes: [UInt8] {
            switch self {
            case .clean: [0]
            case .dirty(let boot): [1] + boot
            }
        }
    }

    /// The path of the projections' file of the store at `path`.
    static func path(inStore path: String) -> String {
        path + "/" + fileName
    }

    /// The id of this boot of the machine (Linux's
    /// `/proc/sys/kernel/random/boot_id`), or 16 random bytes where there is
    /// none: a state recorded elsewhere then never matches, and a dirty
    /// file is rebuilt.
    static let bootID: [UInt8] = {
        if let text = try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8),
            let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return uuid.bytes
        }
        return UUID().bytes
    }()

    /// The state recorded in the log's `meta`, read before the projections
    /// open: `nil` for a new store, or one whose projections are still in
    /// `data.mdb` (written by an earlier version). A damaged record reads as
    /// unsynced by an unknown boot, so the projections are rebuilt.
    static func recordedState(of environment: Environment) throws -> State? {
        try environment.read { txn in
            guard let meta = try txn.opener.database(named: "meta"),
                let bytes = try txn.value(forKey: stateKey, in: meta)
            else { return nil }
            return State(bytes: bytes) ?? .dirty(boot: [])
        }
    }

    /// The sealing the log's `meta` records for the projections, read
    /// before they open: `nil` when they are not sealed (or there is no
    /// store yet).
    static func recordedSealing(of environment: Environment) throws -> [UInt8]? {
        try environment.read { txn in
            guard let meta = try txn.opener.database(named: "meta") else { return nil }
            return try txn.value(forKey: sealingKey, in: meta)
        }
    }

    /// Records the projections' sealing in the log's `meta` when it
    /// changed.
    static func recordSealing(_ tag: [UInt8]?, meta: Database, in txn: borrowing WriteTransaction) throws {
        guard try txn.value(forKey: sealingKey, in: meta) != tag else { return }
        if let tag {
            try txn.put(tag, forKey: sealingKey, in: meta)
        } else {
            try txn.removeValue(forKey: sealingKey, in: meta)
        }
    }

    /// Whether the projections' file must be deleted before it opens: it
    /// may hold commits lost with the machine's memory.
    static func mustDiscard(_ state: State?) -> Bool {
        guard case .dirty(let boot) = state else { return false }
        return boot != bootID
    }

    /// Deletes the projections' file and its lock file.
    static func discard(inStore path: String) throws {
        for file in [Self.path(inStore: path), Self.path(inStore: path) + "-lock"] {
            guard FileManager.default.fileExists(atPath: file) else { continue }
            do {
                try FileManager.default.removeItem(atPath: file)
            } catch {
                throw LogError(.fileSystem, "cannot delete \(file) to rebuild it: \(error.localizedDescription)")
            }
        }
    }

    /// Opens the projections' environment of the store at `path` (or a copy
    /// of it in that directory).
    static func openEnvironment(
        inStore path: String,
        configuration: EventLog.Configuration = EventLog.Configuration(),
        readOnly: Bool = false
    ) throws -> Environment {
        var options = Environment.Configuration()
        // Not written through its map (`MDB_WRITEMAP`): the pages a writer
        // dirties would stay in the process's resident memory (a pull of a
        // million entries peaked at 247 MB against 154 MB), and a commit's
        // 99th percentile tripled on a phone's writes (docs/log-format.md).
        options.mapSize = configuration.initialMapSize
        options.maximumMapSize = configuration.maximumMapSize
        options.maxReaders = configuration.maxReaders
        options.maxDatabases = configuration.projectionDatabases + 1
        options.options = [.noSubdirectory, .noSync]
        if readOnly { options.options.insert(.readOnly) }
        let environment = try Environment(path: Self.path(inStore: path), configuration: options)
        // LMDB opens it without close-on-exec: a child process must not keep it.
        try environment.makeDataFileDescriptorPrivate()
        return environment
    }

    /// The last entry the projections have applied, as `txn` sees them.
    static func applied(
        meta: Database,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> UInt64 {
        let stored: UInt64?? = try txn.withValue(forKey: appliedKey, in: meta) { UInt64(bigEndianBytes: $0) }
        return (stored ?? nil) ?? 0
    }

    /// Records that the projections have applied the log up to `seq`.
    static func setApplied(_ seq: UInt64, meta: Database, in txn: borrowing WriteTransaction) throws {
        try txn.put(seq.bigEndianBytes, forKey: appliedKey, in: meta)
    }

    /// Drops the databases an earlier version kept in `data.mdb` beside the
    /// log (every named database but the log's own), and their recorded
    /// versions: the projections are rebuilt in their own file.
    static func dropFromLogFile(databases: LogDatabases, in txn: borrowing WriteTransaction) throws -> Bool {
        let recorded = try MetaKey.projectionKeys(in: databases.meta, txn)
        guard !recorded.isEmpty else { return false }
        for key in recorded { try txn.removeValue(forKey: key, in: databases.meta) }
        let own = Set(LogDatabases.names)
        for name in try txn.databaseNames() where !own.contains(name) {
            try txn.dropDatabase(named: name)
        }
        return true
    }
}
