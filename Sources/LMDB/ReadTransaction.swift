import CLMDB

/// A read-only snapshot of an ``Environment``, alive only inside
/// ``Environment/read(_:)``.
///
/// Readers never block the writer and see the state of the last commit
/// before they began. Keep them short: an open reader stops LMDB from reusing
/// the pages it can see, so a long one makes the file grow.
///
/// ```swift
/// let count = try environment.read { txn in try txn.statistics(of: db).entries }
/// ```
public struct ReadTransaction: ~Copyable, ReadableTransaction {
    /// The raw handle; opaque outside the LMDB module.
    public let handle: TransactionHandle

    deinit {
        mdb_txn_abort(handle.pointer)
        if let companion = handle.companionPointer { mdb_txn_abort(companion) }
    }

    /// Ends the transaction with `mdb_txn_commit`, which keeps the databases
    /// it opened open for the environment's later transactions.
    consuming func commit() throws(LMDBError) {
        let pointer = handle.pointer
        let environment = handle.environment
        let companion = handle.companionPointer
        discard self
        let rc = mdb_txn_commit(pointer)
        guard rc == MDB_SUCCESS else {
            if let companion { mdb_txn_abort(companion) }
            throw LMDBError(returnCode: rc, function: "mdb_txn_commit")
        }
        if let companion { try environment.check(mdb_txn_commit(companion), "mdb_txn_commit") }
    }
}

@available(*, unavailable, message: "a transaction belongs to the closure that received it")
extension ReadTransaction: Sendable {}
