import CLMDB

/// A transaction that opens named databases: a ``WriteTransaction``
/// creates a missing one, a ``ReadTransaction`` finds only existing ones.
///
/// Write start-up code against it to run it in a process that writes the
/// environment and in one that only reads it:
///
/// ```swift
/// struct Tables {
///     let users: Database
///     init(in txn: borrowing some DatabaseOpening & ~Copyable) throws {
///         guard let users = try txn.database(named: "users") else { throw MissingTable() }
///         self.users = users
///     }
/// }
/// ```
public protocol DatabaseOpening: ReadableTransaction, ~Copyable {
    /// The database `name`: created if missing in a write transaction,
    /// `nil` if missing in a read transaction.
    func database(named name: String) throws -> Database?
}

extension WriteTransaction: DatabaseOpening {
    public func database(named name: String) throws -> Database? {
        try openDatabase(named: name, options: .create)
    }
}

extension ReadTransaction: DatabaseOpening {
    public func database(named name: String) throws -> Database? {
        try openDatabase(named: name)
    }
}

/// A transaction, read or write, as start-up code that opens databases sees
/// it: it opens (in a write transaction, creating) named databases and reads.
///
/// ```swift
/// let tables = try environment.write { txn in try Tables(in: txn.opener) }
/// ```
public struct DatabaseOpener: ~Copyable, DatabaseOpening {
    public let handle: TransactionHandle
    private let creates: Bool

    init(handle: TransactionHandle, creates: Bool) {
        self.handle = handle
        self.creates = creates
    }

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
