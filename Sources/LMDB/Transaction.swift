import CLMDB

/// The raw parts of a live transaction. Only the LMDB module can use them.
public struct TransactionHandle {
    let pointer: OpaquePointer
    unowned(unsafe) let environment: Environment
    /// Records the first error that left a write transaction unusable;
    /// `nil` for read transactions. ``Environment/write(_:)`` owns it and
    /// outlives every transaction that points at it.
    unowned(unsafe) let failure: WriteFailure?
    /// The companion environment's transaction of a paired environment
    /// (``Environment/companion``), begun before this one; `nil` otherwise.
    let companionPointer: OpaquePointer?
    unowned(unsafe) let companionEnvironment: Environment?

    init(
        pointer: OpaquePointer,
        environment: Environment,
        failure: WriteFailure?,
        companionPointer: OpaquePointer? = nil,
        companionEnvironment: Environment? = nil
    ) {
        self.pointer = pointer
        self.environment = environment
        self.failure = failure
        self.companionPointer = companionPointer
        self.companionEnvironment = companionEnvironment
    }

    /// The raw transaction that holds `database`.
    @inline(__always)
    func pointer(for database: Database) -> OpaquePointer {
        database.inCompanion ? companionPointer! : pointer
    }

    /// The environment that holds `database`.
    @inline(__always)
    func environment(for database: Database) -> Environment {
        database.inCompanion ? companionEnvironment! : environment
    }
}

@available(*, unavailable, message: "a transaction belongs to the thread that runs its closure")
extension TransactionHandle: Sendable {}

/// A transaction that can read: ``ReadTransaction`` and ``WriteTransaction``.
///
/// Write generic helpers against this protocol to use them in both kinds:
///
/// ```swift
/// func count(in txn: borrowing some ReadableTransaction & ~Copyable, _ db: Database) throws -> Int {
///     try txn.statistics(of: db).entries
/// }
/// ```
public protocol ReadableTransaction: ~Copyable {
    /// The transaction's raw handle; opaque outside the LMDB module.
    var handle: TransactionHandle { get }
}

extension ReadableTransaction where Self: ~Copyable {
    /// Calls `body` with the value stored under `key`, without copying it,
    /// and returns its result; returns `nil` when there is no such key.
    ///
    /// - Warning: The bytes passed to `body` are LMDB's memory map. They must
    ///   not be stored or used after `body` returns.
    /// - Throws: ``LMDBError``, or what `body` throws.
    ///
    /// Related LMDB documentation: `mdb_get`.
    public func withValue<R>(
        forKey key: UnsafeRawBufferPointer,
        in database: Database,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try database.withStoredKey(key) { key in
            var keyVal = MDB_val(key)
            var dataVal = MDB_val()
            let environment = handle.environment(for: database)
            let rc = environment.call("mdb_get") {
                mdb_get(handle.pointer(for: database), database.dbi, &keyVal, &dataVal)
            }
            guard try environment.checkFound(rc, "mdb_get", in: handle) else { return nil }
            return try database.withPlainValue(dataVal.bytes, storedKey: key, body)
        }
    }

    /// Calls `body` with the value stored under `key`, without copying it.
    ///
    /// - Warning: The bytes must not outlive `body`.
    public func withValue<R>(
        forKey key: [UInt8],
        in database: Database,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) throws -> R? {
        try key.withUnsafeBytes { try withValue(forKey: $0, in: database, body) }
    }

    /// Returns a copy of the value stored under `key`, or `nil`.
    ///
    /// ```swift
    /// let name = try txn.value(forKey: [1], in: users)
    /// ```
    public func value(forKey key: [UInt8], in database: Database) throws -> [UInt8]? {
        try withValue(forKey: key, in: database) { Array($0) }
    }

    /// Whether a value is stored under `key`.
    public func contains(key: [UInt8], in database: Database) throws -> Bool {
        try withValue(forKey: key, in: database) { _ in true } ?? false
    }

    /// Runs `body` with a cursor over `database`; the cursor is closed when
    /// `body` returns.
    ///
    /// Related LMDB documentation: `mdb_cursor_open`.
    public func withCursor<R>(on database: Database, _ body: (borrowing Cursor) throws -> R) throws -> R {
        var cursor: OpaquePointer?
        let environment = handle.environment(for: database)
        let rc = environment.call("mdb_cursor_open") {
            mdb_cursor_open(handle.pointer(for: database), database.dbi, &cursor)
        }
        try environment.check(rc, "mdb_cursor_open", in: handle)
        let wrapped = Cursor(pointer: cursor!, transaction: handle, environment: environment, database: database)
        return try body(wrapped)
    }

    /// Counts and sizes of `database` as this transaction sees it.
    public func statistics(of database: Database) throws -> Database.Statistics {
        var stat = MDB_stat()
        try handle.environment(for: database).check(
            mdb_stat(handle.pointer(for: database), database.dbi, &stat),
            "mdb_stat",
            in: handle
        )
        return Database.Statistics(
            entries: stat.ms_entries,
            depth: Int(stat.ms_depth),
            pages: stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages,
            pageSize: Int(stat.ms_psize)
        )
    }
}

extension MDB_val {
    /// A value pointing at `bytes` (LMDB does not write through key pointers).
    init(_ bytes: UnsafeRawBufferPointer) {
        self.init(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
    }

    /// The bytes this value points at.
    var bytes: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: mv_data, count: mv_size)
    }
}
