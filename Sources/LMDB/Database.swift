import CLMDB

/// A named database inside an ``Environment``: an ordered map from byte-string
/// keys to byte-string values.
///
/// A handle is a small value, valid for the life of its environment and
/// usable from any transaction once the transaction that opened it has
/// committed. Open each database once, at start-up:
///
/// ```swift
/// let log = try environment.openDatabase(named: "log")
/// ```
///
/// Keys sort by unsigned bytes (`memcmp`), so encode integers big-endian to
/// make byte order equal numeric order.
public struct Database: Sendable, Hashable {
    /// The `MDB_dbi` handle.
    let dbi: MDB_dbi
    /// The name the database was opened with (`nil` for the unnamed one).
    public let name: String?
    /// Whether the database lives in the environment's companion (see
    /// ``Environment/companion``): a transaction of a paired environment
    /// reads and writes it through the companion's transaction.
    let inCompanion: Bool
    /// How keys and values are sealed (``DatabaseSealing``); `nil` stores
    /// them as given.
    let sealing: (any DatabaseSealing)?

    init(dbi: MDB_dbi, name: String?, inCompanion: Bool = false, sealing: (any DatabaseSealing)? = nil) {
        self.dbi = dbi
        self.name = name
        self.inCompanion = inCompanion
        self.sealing = sealing
    }

    /// Two handles are equal when they name the same database the same way.
    public static func == (lhs: Database, rhs: Database) -> Bool {
        lhs.dbi == rhs.dbi && lhs.name == rhs.name && lhs.inCompanion == rhs.inCompanion
            && lhs.sealing.map { ObjectIdentifier($0) } == rhs.sealing.map { ObjectIdentifier($0) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(dbi)
        hasher.combine(name)
        hasher.combine(inCompanion)
    }

    /// Whether the database lives in the companion environment of a pair
    /// (``Environment/companion``) rather than in the environment itself.
    public var isInCompanion: Bool { inCompanion }
}

extension Database {
    /// How a database is opened.
    ///
    /// Related LMDB documentation: `mdb_dbi_open`.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Create the database if it does not exist (`MDB_CREATE`).
        public static let create = Options(rawValue: UInt32(MDB_CREATE))
        /// Compare keys from their last byte to their first (`MDB_REVERSEKEY`).
        public static let reverseKey = Options(rawValue: UInt32(MDB_REVERSEKEY))
    }

    /// Counts and sizes of one database.
    ///
    /// Related LMDB documentation: `mdb_stat`.
    public struct Statistics: Sendable, Hashable {
        /// The number of key/value pairs.
        public var entries: Int
        /// The depth of the B+tree.
        public var depth: Int
        /// Branch, leaf and overflow pages together.
        public var pages: Int
        /// The size of one page in bytes.
        public var pageSize: Int
    }
}
