import CLMDB

extension Environment {
    /// Runs one `mdb_*` call, unless a test forced its result.
    ///
    /// Every C call whose return code matters goes through here and then
    /// through ``check(_:_:context:)`` or ``checkFound(_:_:)``.
    @inline(__always)
    func call(_ function: StaticString, _ body: () -> Int32) -> Int32 {
        #if ANCHORAGE_LMDB_FAULTS
        if let forced = faults.take(function) { return forced }
        #endif
        return body()
    }

    /// Throws the ``LMDBError`` for a failed return code.
    @inline(__always)
    func check(_ rc: Int32, _ function: StaticString, context: String? = nil) throws(LMDBError) {
        guard rc != MDB_SUCCESS else { return }
        throw LMDBError(returnCode: rc, function: "\(function)", context: context)
    }

    /// Returns `false` for `MDB_NOTFOUND`, `true` for success, and throws
    /// otherwise.
    @inline(__always)
    func checkFound(_ rc: Int32, _ function: StaticString, in transaction: TransactionHandle) throws(LMDBError) -> Bool
    {
        if rc == MDB_SUCCESS { return true }
        if rc == MDB_NOTFOUND { return false }
        throw failure(rc, function, in: transaction)
    }

    /// Throws the ``LMDBError`` for a failed return code of an operation
    /// inside `transaction`.
    @inline(__always)
    func check(_ rc: Int32, _ function: StaticString, in transaction: TransactionHandle) throws(LMDBError) {
        guard rc != MDB_SUCCESS else { return }
        throw failure(rc, function, in: transaction)
    }

    /// The error for a failed operation inside a transaction.
    ///
    /// LMDB marks a write transaction unusable after most errors and answers
    /// every later call with `MDB_BAD_TXN`. The first such error is kept, so
    /// a caller that swallowed it gets it again instead of a crash, and
    /// ``write(_:)`` can tell that the transaction must not commit.
    @inline(never)
    func failure(_ rc: Int32, _ function: StaticString, in transaction: TransactionHandle) -> LMDBError {
        if let recorded = transaction.failure {
            if rc == MDB_BAD_TXN, let earlier = recorded.error { return earlier }
            let error = LMDBError(returnCode: rc, function: "\(function)")
            if error.code != .keyExists && error.code != .badValueSize && recorded.error == nil {
                recorded.error = error
                recorded.environment = self
            }
            return error
        }
        return LMDBError(returnCode: rc, function: "\(function)")
    }
}
