import CLMDB

/// A transaction, read or write, as start-up code that opens named
/// databases sees it: in a write transaction it creates a missing database,
/// in a read transaction it finds only existing ones. Code written against
/// it runs in a process that writes the environment and in one that only
/// reads it.
///
/// ```swift
/// struct Tables {
///     let users: Database
///     init(in opener: borrowing DatabaseOpener) throws {
///         guard let users = try opener.database(named: "users") else { throw MissingTable() }
///         self.users = users
///     }
/// }
/// let tables = try environment.write { txn in try Tables(in: txn.opener) }
/// ```
///
/// A read transaction keeps what it opened only when it is ended by
/// ``Environment/readOpeningDatabases(_:)``.
public struct DatabaseOpener: ~Copyable {
    private let handle: TransactionHandle
    private let creates: Bool

    init(handle: TransactionHandle, creates: Bool) {
        self.handle = handle
        self.creates = creates
    }

    /// The database `name`: created if missing in a write transaction,
    /// `nil` if missing in a read transaction.
    ///
    /// Related LMDB documentation: `mdb_dbi_open`.
    public func database(named name: String) throws -> Database? {
        var dbi: MDB_dbi = 0
        let environment = handle.environment
        let flags = creates ? UInt32(MDB_CREATE) : 0
        let rc = environment.call("mdb_dbi_open") { mdb_dbi_open(handle.pointer, name, flags, &dbi) }
        guard try environment.checkFound(rc, "mdb_dbi_open", in: handle) else { return nil }
        return Database(dbi: dbi, name: name)
    }
}

extension WriteTransaction {
    /// This transaction as a ``DatabaseOpener`` that creates missing databases.
    public var opener: DatabaseOpener { DatabaseOpener(handle: handle, creates: true) }
}

extension ReadTransaction {
    /// This transaction as a ``DatabaseOpener`` that finds existing databases.
    public var opener: DatabaseOpener { DatabaseOpener(handle: handle, creates: false) }
}
