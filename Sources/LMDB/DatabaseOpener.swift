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
    private let inCompanion: Bool
    private let requires: Bool

    init(handle: TransactionHandle, creates: Bool, inCompanion: Bool = false, requires: Bool = false) {
        precondition(!inCompanion || handle.companionPointer != nil, "the environment has no companion")
        self.handle = handle
        self.creates = creates
        self.inCompanion = inCompanion
        self.requires = requires
    }

    /// The opener of the environment itself, for an opener of its
    /// companion (``Environment/pair(with:)``); otherwise this one's equal.
    /// Code handed a companion's opener reaches the main databases with it.
    public var environmentOpener: DatabaseOpener {
        DatabaseOpener(handle: handle, creates: creates, inCompanion: false, requires: requires)
    }

    /// What the application attached to the environment
    /// (``Environment/userContext``).
    public var userContext: (any Sendable)? {
        handle.environment.userContext
    }

    /// The database `name`: created if missing in a write transaction,
    /// `nil` if missing in a read transaction (an error, from a
    /// ``ReadTransaction/requiringOpener``).
    ///
    /// Related LMDB documentation: `mdb_dbi_open`.
    public func database(named name: String) throws -> Database? {
        var dbi: MDB_dbi = 0
        let environment = inCompanion ? handle.companionEnvironment! : handle.environment
        let pointer = inCompanion ? handle.companionPointer! : handle.pointer
        let flags = creates ? UInt32(MDB_CREATE) : 0
        let rc = environment.call("mdb_dbi_open") { mdb_dbi_open(pointer, name, flags, &dbi) }
        guard try environment.checkFound(rc, "mdb_dbi_open", in: handle) else {
            if requires {
                throw LMDBError(
                    code: .other,
                    function: "mdb_dbi_open",
                    returnCode: rc,
                    message: "the database \(name) does not exist"
                )
            }
            return nil
        }
        return Database(dbi: dbi, name: name, inCompanion: inCompanion)
    }
}

extension WriteTransaction {
    /// This transaction as a ``DatabaseOpener`` that creates missing databases.
    public var opener: DatabaseOpener { DatabaseOpener(handle: handle, creates: true) }

    /// A ``DatabaseOpener`` that creates missing databases in the companion
    /// environment (``Environment/companion``); `nil` without one.
    public var companionOpener: DatabaseOpener? {
        handle.companionPointer == nil ? nil : DatabaseOpener(handle: handle, creates: true, inCompanion: true)
    }
}

extension ReadTransaction {
    /// This transaction as a ``DatabaseOpener`` that finds existing databases.
    public var opener: DatabaseOpener { DatabaseOpener(handle: handle, creates: false) }

    /// A ``DatabaseOpener`` that finds existing databases in the companion
    /// environment (``Environment/companion``); `nil` without one.
    public var companionOpener: DatabaseOpener? {
        handle.companionPointer == nil ? nil : DatabaseOpener(handle: handle, creates: false, inCompanion: true)
    }

    /// ``opener``, except that a database it does not find throws an
    /// ``LMDBError`` (return code `MDB_NOTFOUND`) instead of answering `nil`: for code that opens a
    /// write transaction only when a read one finds everything, so that
    /// start-up code written for write transactions (which never see
    /// `nil`) can run in it.
    ///
    /// ```swift
    /// let tables = try? environment.readOpeningDatabases { txn in try Tables(in: txn.requiringOpener) }
    /// ```
    public var requiringOpener: DatabaseOpener { DatabaseOpener(handle: handle, creates: false, requires: true) }

    /// ``requiringOpener`` of the companion environment; `nil` without one.
    public var requiringCompanionOpener: DatabaseOpener? {
        handle.companionPointer == nil
            ? nil : DatabaseOpener(handle: handle, creates: false, inCompanion: true, requires: true)
    }
}
