import CLMDB

/// The first error that made a write transaction unusable. Shared by a
/// transaction and its nested children; touched only by the writing thread.
final class WriteFailure {
    var error: LMDBError?
    /// The environment whose operation failed: the companion's, for a
    /// database of a pair's companion (its map may be the one to grow).
    var environment: Environment?
}

/// The one read-write transaction of an ``Environment``, alive only inside
/// ``Environment/write(_:)``.
///
/// Everything written commits together when the closure returns, and nothing
/// does if it throws. Reads inside the transaction see its own writes.
///
/// ```swift
/// try environment.write { txn in
///     try txn.put(value, forKey: key, in: db)
///     try txn.removeValue(forKey: oldKey, in: db)
/// }
/// ```
public struct WriteTransaction: ~Copyable, ReadableTransaction {
    /// The raw handle; opaque outside the LMDB module.
    public let handle: TransactionHandle

    /// - Parameter failure: owned by the caller, who keeps it alive until
    ///   the transaction has ended.
    init(
        pointer: OpaquePointer,
        environment: Environment,
        failure: WriteFailure,
        companionPointer: OpaquePointer? = nil,
        companionEnvironment: Environment? = nil
    ) {
        self.handle = TransactionHandle(
            pointer: pointer,
            environment: environment,
            failure: failure,
            companionPointer: companionPointer,
            companionEnvironment: companionEnvironment
        )
    }

    private var failureRecord: WriteFailure { handle.failure! }

    deinit {
        mdb_txn_abort(handle.pointer)
        if let companion = handle.companionPointer { mdb_txn_abort(companion) }
    }

    /// Commits and frees the transaction: the environment's first (durably,
    /// as its options say), then its companion's, if it has one. A failed
    /// first commit aborts the companion's.
    ///
    /// LMDB frees the transaction whether the commit succeeds or fails.
    consuming func commit() throws(LMDBError) {
        let pointer = handle.pointer
        let environment = handle.environment
        let failure = failureRecord
        let companion = handle.companionPointer
        let companionEnvironment = handle.companionEnvironment
        discard self
        let rc = Self.commit(pointer, in: environment)
        guard rc == MDB_SUCCESS else {
            if let companion { mdb_txn_abort(companion) }
            let error = LMDBError(returnCode: rc, function: "mdb_txn_commit")
            if failure.error == nil { failure.error = error }
            throw error
        }
        if let companion, let companionEnvironment {
            let rc = Self.commit(companion, in: companionEnvironment)
            if rc != MDB_SUCCESS {
                var error = LMDBError(returnCode: rc, function: "mdb_txn_commit")
                error.isCompanionCommitFailure = true
                throw error
            }
        }
    }

    /// Commits (and frees) one raw transaction of `environment`; returns
    /// LMDB's code, or the one the fault injector forces.
    private static func commit(_ pointer: OpaquePointer, in environment: Environment) -> Int32 {
        #if ANCHORAGE_LMDB_FAULTS
        if let forced = environment.faults.take("mdb_txn_commit") {
            mdb_txn_abort(pointer)
            return forced
        }
        #endif
        return mdb_txn_commit(pointer)
    }
}

@available(*, unavailable, message: "a transaction belongs to the closure that received it")
extension WriteTransaction: Sendable {}

extension WriteTransaction {
    /// How ``put(_:forKey:in:options:)`` stores a value.
    ///
    /// Related LMDB documentation: `mdb_put`.
    public struct PutOptions: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Fail with ``LMDBError/Code/keyExists`` instead of replacing an
        /// existing value (`MDB_NOOVERWRITE`).
        public static let noOverwrite = PutOptions(rawValue: UInt32(MDB_NOOVERWRITE))
        /// The key sorts after every key in the database; skips the search
        /// and packs pages fully. A key out of order fails with
        /// ``LMDBError/Code/keyExists`` (`MDB_APPEND`).
        public static let append = PutOptions(rawValue: UInt32(MDB_APPEND))
    }

    /// Stores `value` under `key`, replacing any value unless `options` says
    /// otherwise.
    ///
    /// ```swift
    /// try txn.put([0x2A], forKey: [0, 0, 0, 1], in: db, options: .append)
    /// ```
    /// - Throws: ``LMDBError`` — ``LMDBError/Code/keyExists`` with
    ///   ``PutOptions/noOverwrite`` or ``PutOptions/append``,
    ///   ``LMDBError/Code/badValueSize`` for an empty or too long key.
    public func put(
        _ value: UnsafeRawBufferPointer,
        forKey key: UnsafeRawBufferPointer,
        in database: Database,
        options: PutOptions = []
    ) throws {
        try database.withStoredEntry(key: key, value: value) { key, value in
            var keyVal = MDB_val(key)
            var dataVal = MDB_val(value)
            let environment = handle.environment(for: database)
            let rc = environment.call("mdb_put") {
                mdb_put(handle.pointer(for: database), database.dbi, &keyVal, &dataVal, options.rawValue)
            }
            try environment.check(rc, "mdb_put", in: handle)
        }
    }

    /// Stores `value` under `key`; see ``put(_:forKey:in:options:)-(UnsafeRawBufferPointer,_,_,_)``.
    public func put(_ value: [UInt8], forKey key: [UInt8], in database: Database, options: PutOptions = []) throws {
        try value.withUnsafeBytes { value in
            try key.withUnsafeBytes { key in try put(value, forKey: key, in: database, options: options) }
        }
    }

    /// Stores `value` under `key` unless the key is taken, and returns
    /// whether it stored it — without an error for the common "already
    /// there" case.
    ///
    /// With `atEnd`, the key must sort after every key of the database
    /// (`MDB_APPEND`: no search, pages packed full); a key that does not
    /// also returns `false`, so callers that only *expect* increasing keys
    /// retry without `atEnd`:
    ///
    /// ```swift
    /// let stored = try txn.insert(row, forKey: id, in: objects, atEnd: true)
    ///     || txn.insert(row, forKey: id, in: objects)
    /// ```
    ///
    /// Related LMDB documentation: `mdb_put` with `MDB_NOOVERWRITE` or `MDB_APPEND`.
    public func insert(
        _ value: UnsafeRawBufferPointer,
        forKey key: UnsafeRawBufferPointer,
        in database: Database,
        atEnd: Bool = false
    ) throws -> Bool {
        try database.withStoredEntry(key: key, value: value) { key, value in
            var keyVal = MDB_val(key)
            var dataVal = MDB_val(value)
            let environment = handle.environment(for: database)
            let flags = UInt32(atEnd ? MDB_APPEND : MDB_NOOVERWRITE)
            let rc = environment.call("mdb_put") {
                mdb_put(handle.pointer(for: database), database.dbi, &keyVal, &dataVal, flags)
            }
            if rc == MDB_KEYEXIST { return false }
            try environment.check(rc, "mdb_put", in: handle)
            return true
        }
    }

    /// Reserves `count` bytes for the value of `key` and lets `fill` write
    /// them in place, saving a copy (`MDB_RESERVE`).
    ///
    /// `fill` must write every byte. If it throws, the transaction must be
    /// abandoned (let the error leave the ``Environment/write(_:)`` closure).
    ///
    /// - Warning: The buffer passed to `fill` must not be used after it returns.
    public func put<R>(
        reservingCount count: Int,
        forKey key: UnsafeRawBufferPointer,
        in database: Database,
        options: PutOptions = [],
        _ fill: (UnsafeMutableRawBufferPointer) throws -> R
    ) throws -> R {
        if database.sealing != nil {
            // The value is sealed once it is whole: filled in memory, then stored.
            return try withUnsafeTemporaryAllocation(byteCount: count, alignment: 8) { buffer in
                let result = try fill(buffer)
                try put(UnsafeRawBufferPointer(buffer), forKey: key, in: database, options: options)
                return result
            }
        }
        var keyVal = MDB_val(key)
        var dataVal = MDB_val(mv_size: count, mv_data: nil)
        let environment = handle.environment(for: database)
        let rc = environment.call("mdb_put") {
            mdb_put(
                handle.pointer(for: database),
                database.dbi,
                &keyVal,
                &dataVal,
                options.rawValue | UInt32(MDB_RESERVE)
            )
        }
        try environment.check(rc, "mdb_put", in: handle)
        return try fill(UnsafeMutableRawBufferPointer(start: dataVal.mv_data, count: count))
    }

    /// Removes the value stored under `key`; returns whether there was one.
    ///
    /// Related LMDB documentation: `mdb_del`.
    @discardableResult
    public func removeValue(forKey key: UnsafeRawBufferPointer, in database: Database) throws -> Bool {
        try database.withStoredKey(key) { key in
            var keyVal = MDB_val(key)
            let environment = handle.environment(for: database)
            let rc = environment.call("mdb_del") {
                mdb_del(handle.pointer(for: database), database.dbi, &keyVal, nil)
            }
            return try environment.checkFound(rc, "mdb_del", in: handle)
        }
    }

    /// Removes the value stored under `key`; returns whether there was one.
    @discardableResult
    public func removeValue(forKey key: [UInt8], in database: Database) throws -> Bool {
        try key.withUnsafeBytes { try removeValue(forKey: $0, in: database) }
    }

    /// Removes every key of `database`, keeping the database itself.
    ///
    /// Related LMDB documentation: `mdb_drop` with `del = 0`.
    public func removeAll(in database: Database) throws {
        let environment = handle.environment(for: database)
        let rc = environment.call("mdb_drop") { mdb_drop(handle.pointer(for: database), database.dbi, 0) }
        try environment.check(rc, "mdb_drop", in: handle)
    }

    /// Opens the database called `name` (or the unnamed one for `nil`).
    ///
    /// The handle becomes usable by other transactions once this one commits.
    ///
    /// - Returns: `nil` when the database does not exist and `options` lacks
    ///   ``Database/Options/create``.
    public func openDatabase(named name: String?, options: Database.Options = .create) throws -> Database? {
        var dbi: MDB_dbi = 0
        let environment = handle.environment
        let rc = environment.call("mdb_dbi_open") { mdb_dbi_open(handle.pointer, name, options.rawValue, &dbi) }
        guard try environment.checkFound(rc, "mdb_dbi_open", in: handle) else { return nil }
        return Database(dbi: dbi, name: name)
    }

    /// The names of the named databases of the environment (not of its
    /// companion), in byte order.
    ///
    /// Related LMDB documentation: `mdb_dbi_open` of the unnamed database,
    /// whose keys are the names.
    public func databaseNames() throws -> [String] {
        guard let main = try openDatabase(named: nil, options: []) else { return [] }
        var names: [String] = []
        try withCursor(on: main) { cursor in
            try cursor.scan { key, _ in
                names.append(String(decoding: key, as: UTF8.self))
                return true
            }
        }
        return names
    }

    /// Deletes the named database `name` of the environment and its
    /// contents; returns whether there was one.
    ///
    /// Related LMDB documentation: `mdb_drop` with `del = 1`.
    @discardableResult
    public func dropDatabase(named name: String) throws -> Bool {
        guard let database = try openDatabase(named: name, options: []) else { return false }
        let environment = handle.environment
        let rc = environment.call("mdb_drop") { mdb_drop(handle.pointer, database.dbi, 1) }
        try environment.check(rc, "mdb_drop", in: handle)
        return true
    }

    /// Runs `body` in a nested transaction: its writes join this transaction
    /// when `body` returns and are undone alone if it throws.
    ///
    /// Do not use the outer transaction inside `body`.
    ///
    /// ```swift
    /// for request in requests {
    ///     do { try txn.withNestedTransaction { child in try apply(request, in: child) } }
    ///     catch { reject(request, error) }   // the others still commit
    /// }
    /// ```
    ///
    /// Related LMDB documentation: `mdb_txn_begin` with a parent.
    public func withNestedTransaction<R>(_ body: (borrowing WriteTransaction) throws -> R) throws -> R {
        precondition(handle.companionPointer == nil, "nested transactions of a paired environment are not supported")
        let environment = handle.environment
        var child: OpaquePointer?
        let rc = environment.call("mdb_txn_begin") { mdb_txn_begin(environment.handle, handle.pointer, 0, &child) }
        try environment.check(rc, "mdb_txn_begin", in: handle)
        let nested = WriteTransaction(pointer: child!, environment: environment, failure: failureRecord)
        let result = try body(nested)
        if let earlier = failureRecord.error { throw earlier }
        try nested.commit()
        return result
    }
}
