import CLMDB

extension Environment {
    /// How an ``Environment`` is opened.
    ///
    /// The defaults suit a store that starts empty and grows without limit:
    ///
    /// ```swift
    /// var configuration = Environment.Configuration()
    /// configuration.maxDatabases = 8
    /// let environment = try Environment(path: path, configuration: configuration)
    /// ```
    public struct Configuration: Sendable, Hashable {
        /// The initial size of the memory map in bytes (64 MiB by default).
        ///
        /// The map grows automatically when a write needs more room, so this
        /// is only a starting point. It reserves address space, not disk.
        public var mapSize: Int = 64 << 20
        /// The size the map may grow to, in bytes (1 TiB by default). A write
        /// that needs more fails with ``LMDBError/Code/mapFull``.
        public var maximumMapSize: Int = 1 << 40
        /// How many named databases may be opened (`mdb_env_set_maxdbs`).
        public var maxDatabases: Int = 32
        /// How many read transactions may be open at once
        /// (`mdb_env_set_maxreaders`).
        public var maxReaders: Int = 256
        /// Environment flags. `MDB_NOTLS` is always added.
        public var options: Options = []
        /// The permission bits of newly created files.
        public var fileMode: UInt16 = 0o644

        /// Creates the default configuration.
        public init() {}
    }

    /// Flags that change how an environment is opened.
    ///
    /// Related LMDB documentation: `mdb_env_open`.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// `path` names the data file itself rather than a directory
        /// (`MDB_NOSUBDIR`).
        public static let noSubdirectory = Options(rawValue: UInt32(MDB_NOSUBDIR))
        /// Do not flush on commit (`MDB_NOSYNC`): a crash may lose the last
        /// transactions and, on some filesystems, damage the file. Use
        /// ``Environment/sync(force:)`` to flush.
        public static let noSync = Options(rawValue: UInt32(MDB_NOSYNC))
        /// Do not flush the meta page on commit (`MDB_NOMETASYNC`): a crash
        /// may undo the last transaction but keeps the file intact.
        public static let noMetaSync = Options(rawValue: UInt32(MDB_NOMETASYNC))
        /// Open read-only (`MDB_RDONLY`); write transactions fail.
        public static let readOnly = Options(rawValue: UInt32(MDB_RDONLY))
        /// Turn off the operating system's read-ahead (`MDB_NORDAHEAD`).
        public static let noReadAhead = Options(rawValue: UInt32(MDB_NORDAHEAD))
    }
}
