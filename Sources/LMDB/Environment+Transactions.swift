import CLMDB

extension Environment {
    /// Runs `body` in a read-only transaction and returns its result.
    ///
    /// The transaction sees the last commit made before it began. It is
    /// aborted when `body` returns or throws; keep `body` short.
    ///
    /// Do not start another transaction inside `body`.
    ///
    /// ```swift
    /// let value = try environment.read { txn in try txn.value(forKey: key, in: db) }
    /// ```
    ///
    /// - Throws: ``LMDBError`` (for example ``LMDBError/Code/readersFull``),
    ///   or what `body` throws.
    public func read<R>(_ body: (borrowing ReadTransaction) throws -> R) throws -> R {
        try read(committing: false, body)
    }

    /// Runs `body` in a read transaction that is committed when it returns,
    /// so that the databases `body` opens (through `txn.opener`, a
    /// ``DatabaseOpener``) stay open for later transactions: how a process that only reads,
    /// such as one of an environment opened ``Options/readOnly``, opens its
    /// databases.
    ///
    /// ```swift
    /// let users = try environment.readOpeningDatabases { txn in try txn.opener.database(named: "users") }
    /// ```
    public func readOpeningDatabases<R>(_ body: (borrowing ReadTransaction) throws -> R) throws -> R {
        try read(committing: true, body)
    }

    /// A read transaction (spanning the companion, if any), aborted or, with
    /// `committing`, committed when `body` returns.
    private func read<R>(committing: Bool, _ body: (borrowing ReadTransaction) throws -> R) throws -> R {
        while true {
            let outcome: R? = try withSharedLocks(companion) {
                guard let (pointer, companionPointer) = try beginPair(flags: UInt32(MDB_RDONLY), companion: companion)
                else { return nil }
                let txn = ReadTransaction(
                    handle: TransactionHandle(
                        pointer: pointer,
                        environment: self,
                        failure: nil,
                        companionPointer: companionPointer,
                        companionEnvironment: companion
                    )
                )
                let result = try body(txn)
                if committing { try txn.commit() }
                return .some(result)
            }
            if let outcome { return outcome }
            try adoptGrownMaps()
        }
    }

    /// Runs `body` in the write transaction, commits when it returns, and
    /// aborts when it throws.
    ///
    /// Writers take turns: LMDB allows one write transaction at a time, and
    /// a second caller waits for the first to finish.
    ///
    /// If the map fills up, the transaction is aborted, the map grows, and
    /// `body` runs again from the start, so `body` may run more than once:
    /// it must have no effects outside the transaction (compute new state
    /// in it, publish that state after `write` returns).
    ///
    /// With a ``companion``, the transaction spans both environments: it
    /// begins the companion's first, and commits this environment's first
    /// (durably, as its options say), then the companion's. Readers, which
    /// begin in the same order, never see the companion ahead of this
    /// environment.
    ///
    /// Do not start another transaction inside `body`.
    ///
    /// ```swift
    /// try environment.write { txn in
    ///     try txn.put(value, forKey: key, in: db)
    /// }
    /// ```
    ///
    /// - Throws: ``LMDBError`` (for example ``LMDBError/Code/noSpace`` from
    ///   the commit, in which case nothing was written), or what `body` throws.
    ///   An error whose ``LMDBError/isCompanionCommitFailure`` is set comes
    ///   after this environment's commit: its part is written, the
    ///   companion's is not, and `body` is not run again.
    public func write<R>(_ body: (borrowing WriteTransaction) throws -> R) throws -> R {
        try write(pairing: true, body)
    }

    /// Runs `body` in a write transaction of this environment alone, leaving
    /// its ``companion`` out (which another process may be the one to write,
    /// or which was opened read-only): `body` must touch none of the
    /// companion's databases.
    public func writeWithoutCompanion<R>(_ body: (borrowing WriteTransaction) throws -> R) throws -> R {
        try write(pairing: false, body)
    }

    private func write<R>(pairing: Bool, _ body: (borrowing WriteTransaction) throws -> R) throws -> R {
        let companion = pairing ? companion : nil
        while true {
            let failure = WriteFailure()
            do {
                let outcome: R? = try withSharedLocks(companion) {
                    guard let (pointer, companionPointer) = try beginPair(flags: 0, companion: companion) else {
                        return nil
                    }
                    let txn = WriteTransaction(
                        pointer: pointer,
                        environment: self,
                        failure: failure,
                        companionPointer: companionPointer,
                        companionEnvironment: companion
                    )
                    let result = try body(txn)
                    // The body swallowed an error that left the transaction unusable.
                    if let earlier = failure.error { throw earlier }
                    try txn.commit()
                    return .some(result)
                }
                if let outcome { return outcome }
                try adoptGrownMap()
                try companion?.adoptGrownMap()
            } catch let error as LMDBError where error.isCompanionCommitFailure {
                // This environment committed: running `body` again would
                // repeat it. Make room for the companion's next transaction.
                if error.code == .mapFull { try companion?.growMap() }
                throw error
            } catch {
                let cause = failure.error ?? (error as? LMDBError)
                guard cause?.code == .mapFull else { throw failure.error ?? error }
                try (failure.environment ?? self).growMap()
            }
        }
    }

    /// Runs `body` holding the resize locks of this environment and its
    /// companion shared.
    private func withSharedLocks<R>(_ companion: Environment?, _ body: () throws -> R) throws -> R {
        guard let companion else { return try resizeLock.withSharedLock(body) }
        return try companion.resizeLock.withSharedLock { try resizeLock.withSharedLock(body) }
    }

    /// Begins a transaction in the companion (if any), then in this
    /// environment; returns `nil`, having begun neither, when another process
    /// grew a map and this one must adopt the new size first.
    private func beginPair(
        flags: UInt32,
        companion: Environment?
    ) throws(LMDBError) -> (OpaquePointer, OpaquePointer?)? {
        var companionPointer: OpaquePointer?
        if let companion {
            guard let begun = try companion.begin(flags: flags) else { return nil }
            companionPointer = begun
        }
        do {
            guard let pointer = try begin(flags: flags) else {
                if let companionPointer { mdb_txn_abort(companionPointer) }
                return nil
            }
            return (pointer, companionPointer)
        } catch {
            if let companionPointer { mdb_txn_abort(companionPointer) }
            throw error
        }
    }

    /// Begins a transaction; returns `nil` when another process grew the map
    /// and this one must adopt the new size first.
    private func begin(flags: UInt32) throws(LMDBError) -> OpaquePointer? {
        var txn: OpaquePointer?
        let rc = call("mdb_txn_begin") { mdb_txn_begin(handle, nil, flags, &txn) }
        if rc == MDB_MAP_RESIZED { return nil }
        try check(rc, "mdb_txn_begin")
        return txn
    }

    /// Adopts the map sizes other processes set, for this environment and
    /// its companion.
    private func adoptGrownMaps() throws(LMDBError) {
        try adoptGrownMap()
        try companion?.adoptGrownMap()
    }

    /// Adopts the map size another process set.
    private func adoptGrownMap() throws(LMDBError) {
        try resizeLock.withExclusiveLock { () throws(LMDBError) in
            try check(mdb_env_set_mapsize(handle, 0), "mdb_env_set_mapsize")
        }
    }

    /// Enlarges the map after `MDB_MAP_FULL`: doubling while small, then in
    /// steps of 8 GiB, up to ``Configuration/maximumMapSize``.
    func growMap() throws(LMDBError) {
        try resizeLock.withExclusiveLock { () throws(LMDBError) in
            let current = info().mapSize
            let limit = configuration.maximumMapSize
            guard current < limit else {
                throw LMDBError(
                    code: .mapFull,
                    function: "mdb_env_set_mapsize",
                    returnCode: MDB_MAP_FULL,
                    message:
                        "the store reached its maximum map size of \(limit) bytes; raise Environment.Configuration.maximumMapSize"
                )
            }
            let grown = Self.pageAligned(min(limit, current + min(current, 8 << 30)))
            try check(mdb_env_set_mapsize(handle, grown), "mdb_env_set_mapsize")
        }
    }

    /// Opens (by default creating) a named database in its own write
    /// transaction.
    ///
    /// ```swift
    /// let users = try environment.openDatabase(named: "users")
    /// ```
    public func openDatabase(named name: String?, options: Database.Options = .create) throws -> Database {
        let database = try write { txn in try txn.openDatabase(named: name, options: options) }
        guard let database else {
            throw LMDBError(
                code: .fileNotFound,
                function: "mdb_dbi_open",
                returnCode: MDB_NOTFOUND,
                message: "there is no database named \(name ?? "(unnamed)")"
            )
        }
        return database
    }
}
