import CLMDB
import CMalloc

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An LMDB environment: one memory-mapped file holding named databases.
///
/// Open an environment once per directory per process (LMDB's rule: "Do not
/// have open an LMDB database twice in the same process"), keep it for the
/// life of the program, and use it from any thread or task. Transactions exist
/// only inside the closures of ``read(_:)`` and ``write(_:)``:
///
/// ```swift
/// let environment = try Environment(path: "/var/lib/app/store")
/// let users = try environment.openDatabase(named: "users")
/// try environment.write { txn in
///     try txn.put(Array("Ada".utf8), forKey: [1], in: users)
/// }
/// let name = try environment.read { txn in try txn.value(forKey: [1], in: users) }
/// ```
///
/// The map grows by itself: a write transaction that fills it is aborted, the
/// map is enlarged, and the transaction runs again, so a store never needs its
/// size configured up front.
///
/// Every environment is opened with `MDB_NOTLS`, so read transactions are tied
/// to their transaction object rather than to a thread, as Swift concurrency
/// requires. The environment is closed when the last reference goes away.
///
/// Related LMDB documentation: `mdb_env_create`, `mdb_env_open`.
public final class Environment: @unchecked Sendable {
    // @unchecked: an MDB_env may be used from any thread. Every mutable state
    // (the map size) is changed under `resizeLock` held exclusively; LMDB
    // serialises writers itself.

    /// The `MDB_env` handle.
    let handle: OpaquePointer
    /// The directory (or file, with ``Options/noSubdirectory``) of the environment.
    public let path: String
    /// The configuration the environment was opened with.
    public let configuration: Configuration
    /// Held shared by every transaction, exclusively while resizing the map.
    let resizeLock = ReadWriteLock()
    /// A second environment whose transactions go with this one's: see
    /// ``pair(with:)``.
    public private(set) var companion: Environment?
    /// What the application attaches to the environment, as LMDB's
    /// `mdb_env_set_userctx` does: code handed only a ``DatabaseOpener``
    /// reads it back there. Set it before the environment is shared
    /// between threads; it is not synchronised.
    public var userContext: (any Sendable)?

    #if ANCHORAGE_LMDB_FAULTS
    /// Test hook: forces return codes from chosen LMDB functions.
    @_spi(Testing) public let faults = FaultInjector()
    #endif

    /// Opens (creating if needed) the environment at `path`.
    ///
    /// The directory must exist. Stale reader slots left by processes that
    /// died are cleared on open (`mdb_reader_check`).
    ///
    /// - Throws: ``LMDBError`` — for example ``LMDBError/Code/fileNotFound``
    ///   when the directory is missing, ``LMDBError/Code/permissionDenied``,
    ///   or ``LMDBError/Code/invalidFile`` when the file is not LMDB's.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        var env: OpaquePointer?
        let created = mdb_env_create(&env)
        guard created == MDB_SUCCESS, let env else {
            throw LMDBError(returnCode: created, function: "mdb_env_create")
        }
        self.handle = env
        self.path = path
        self.configuration = configuration
        do {
            try check(mdb_env_set_mapsize(env, Self.pageAligned(configuration.mapSize)), "mdb_env_set_mapsize")
            try check(mdb_env_set_maxreaders(env, UInt32(configuration.maxReaders)), "mdb_env_set_maxreaders")
            try check(mdb_env_set_maxdbs(env, MDB_dbi(configuration.maxDatabases)), "mdb_env_set_maxdbs")
            let flags = configuration.options.rawValue | UInt32(MDB_NOTLS)
            if !configuration.options.contains(.readOnly) { Self.mapsWriteBuffers() }
            let opened = call("mdb_env_open") {
                mdb_env_open(env, path, flags, mdb_mode_t(configuration.fileMode))
            }
            try check(opened, "mdb_env_open", context: path)
            var dead: Int32 = 0
            try check(mdb_reader_check(env, &dead), "mdb_reader_check")
        } catch {
            // Every stored property is set, so `deinit` runs and calls
            // mdb_env_close, the documented way to release a handle whose
            // open failed.
            throw error
        }
    }

    deinit {
        mdb_env_close(handle)
    }

    /// Keeps LMDB's write buffers out of the heap, once per process.
    ///
    /// `mdb_env_open` gives every environment opened for writing two
    /// buffers, freed when it closes: its free-page list (1 MiB,
    /// `me_free_pgs`) and its dirty-page list (2 MiB, `me_dirty_list`,
    /// allocated with `calloc`). glibc maps allocations that large, but
    /// raises its mmap threshold to the size of the first mapped block
    /// freed: from the first environment closed on, the next ones take their
    /// buffers from the heap, where `calloc` writes all 2 MiB and a freed
    /// block stays resident. A node opening and closing thousands of stores
    /// kept about 4 MiB per store it had open (3.8 GB with 977 stores open,
    /// 3.7 GB once all had closed). With the threshold fixed at 1 MiB the
    /// buffers stay mapped: pages a transaction never touches cost nothing,
    /// and closing returns them to the system.
    ///
    /// Related glibc documentation: `mallopt(M_MMAP_THRESHOLD)`.
    static func mapsWriteBuffers() { _ = writeBuffersMapped }

    private static let writeBuffersMapped: Bool = {
        mallopt(M_MMAP_THRESHOLD, 1 << 20) == 1
    }()

    /// Makes every transaction of this environment span `companion` too:
    /// databases opened through a transaction's `companionOpener` live
    /// there, and every operation on them goes to the companion's
    /// transaction. A write commits this environment first, then the
    /// companion, so the companion can be opened ``Options/noSync`` and
    /// kept behind a durable log: readers begin the companion's snapshot
    /// first and never see it ahead of this environment's.
    ///
    /// Call it once, before the environment is shared.
    ///
    /// ```swift
    /// let views = try Environment(path: dir + "/views.mdb", configuration: noSyncFile)
    /// let log = try Environment(path: dir)
    /// log.pair(with: views)
    /// try log.write { txn in try txn.companionOpener!.database(named: "counts") }
    /// ```
    public func pair(with companion: Environment) {
        precondition(self.companion == nil && companion !== self, "an environment is paired once")
        self.companion = companion
    }

    /// The descriptor LMDB reads the data file with (`data.mdb`): valid
    /// while the environment is open, closed with it.
    ///
    /// Related LMDB documentation: `mdb_env_get_fd`.
    public var dataFileDescriptor: Int32 {
        get throws(LMDBError) {
            var descriptor: Int32 = -1
            try check(mdb_env_get_fd(handle, &descriptor), "mdb_env_get_fd")
            return descriptor
        }
    }

    /// The bytes the environment's pages use now (up to its last page):
    /// what the data file needs, whatever its length on disk.
    public var usedBytes: Int {
        let info = info()
        return (info.lastPage + 1) * info.pageSize
    }

    /// The current size of the memory map in bytes.
    public var mapSize: Int {
        info().mapSize
    }

    /// Flushes buffered data to disk; useful with ``Options/noSync``.
    ///
    /// Related LMDB documentation: `mdb_env_sync`.
    public func sync(force: Bool = true) throws {
        try check(mdb_env_sync(handle, force ? 1 : 0), "mdb_env_sync")
    }

    /// Clears reader slots held by processes that no longer exist and
    /// returns how many were cleared.
    ///
    /// Related LMDB documentation: `mdb_reader_check`.
    @discardableResult
    public func clearStaleReaders() throws -> Int {
        var dead: Int32 = 0
        try check(mdb_reader_check(handle, &dead), "mdb_reader_check")
        return Int(dead)
    }

    /// The largest key LMDB accepts in this environment, in bytes.
    public var maximumKeySize: Int {
        Int(mdb_env_get_maxkeysize(handle))
    }

    /// Writes a consistent copy of the environment into the existing, empty
    /// directory `path`, leaving out free pages.
    ///
    /// Related LMDB documentation: `mdb_env_copy2` with `MDB_CP_COMPACT`.
    public func copy(to path: String) throws {
        try resizeLock.withSharedLock {
            try check(mdb_env_copy2(handle, path, UInt32(MDB_CP_COMPACT)), "mdb_env_copy2", context: path)
        }
    }

    /// Size figures of the environment.
    struct Info {
        var mapSize: Int
        var lastPage: Int
        var pageSize: Int
    }

    func info() -> Info {
        var info = MDB_envinfo()
        var stat = MDB_stat()
        // mdb_env_info and mdb_env_stat only fail for a NULL handle.
        _ = mdb_env_info(handle, &info)
        _ = mdb_env_stat(handle, &stat)
        return Info(mapSize: info.me_mapsize, lastPage: info.me_last_pgno, pageSize: Int(stat.ms_psize))
    }

    static func pageAligned(_ size: Int) -> Int {
        let page = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
        return (max(size, page) + page - 1) / page * page
    }
}
