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

    init(handle: TransactionHandle) {
        self.handle = handle
    }

    deinit {
        mdb_txn_abort(handle.pointer)
    }

    /// Ends the transaction with `mdb_txn_commit`, which keeps the databases
    /// it opened open for the environment's later transactions.
    consuming func commit() throws(LMDBError) {
        let pointer = handle.pointer
        let environment = handle.environment
        discard self
        try environment.check(mdb_txn_commit(pointer), "mdb_txn_commit")
    }

    /// Opens the existing database `name` (or the unnamed one for `nil`);
    /// `nil` when there is none. A read transaction cannot create one.
    ///
    /// Databases opened here stay open only when the transaction is ended by
    /// ``Environment/readOpeningDatabases(_:)``; see there.
    ///
    /// Related LMDB documentation: `mdb_dbi_open`.
    public func openDatabase(named name: String?) throws -> Database? {
        var dbi: MDB_dbi = 0
        let environment = handle.environment
        let rc = environment.call("mdb_dbi_open") { mdb_dbi_open(handle.pointer, name, 0, &dbi) }
        guard try environment.checkFound(rc, "mdb_dbi_open", in: handle) else { return nil }
        return Database(dbi: dbi, name: name)
    }
}

@available(*, unavailable, message: "a transaction belongs to the closure that received it")
extension ReadTransaction: Sendable {}
