/// An error reported by LMDB, sorted by what the caller can do about it.
///
/// Every `mdb_*` return code passes through one checking helper that turns
/// it into this error. Codes fall into four groups:
///
/// - *absent*: `MDB_NOTFOUND` never becomes an error; lookups return `nil`.
/// - *domain*: ``Code/keyExists`` — the operation contradicts what is stored.
/// - *resource*: ``Code/mapFull``, ``Code/readersFull``, ``Code/noSpace``,
///   ``Code/outOfMemory``, ``Code/transactionFull``, ``Code/databasesFull`` —
///   the environment ran out of something; the message says what to do.
/// - *environment*: permission, I/O, corruption and version errors.
///
/// Codes that only a bug in this binding can cause (`MDB_BAD_TXN`,
/// `MDB_BAD_DBI`, `EINVAL`…) stop the process with a precondition failure
/// naming the C function, instead of being thrown.
///
/// Match errors by code:
///
/// ```swift
/// do {
///     try environment.write { txn in try txn.put(value, forKey: key, in: db, options: .noOverwrite) }
/// } catch LMDBError.Code.keyExists {
///     // the key was already there
/// }
/// ```
public struct LMDBError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a value you can match in `catch`.
    public let code: Code
    /// The C function that reported the error, such as `mdb_put`.
    public let function: String
    /// The raw return code (an `MDB_*` constant or an `errno` value).
    public let returnCode: Int32
    /// A sentence describing the error and how it may be remedied.
    public let message: String
    /// Whether only the companion's commit failed, after the environment's
    /// own had succeeded (``Environment/pair(with:)``): what the transaction
    /// wrote to the environment is committed, its companion's part is not.
    public internal(set) var isCompanionCommitFailure = false

    init(code: Code, function: String, returnCode: Int32, message: String) {
        self.code = code
        self.function = function
        self.returnCode = returnCode
        self.message = message
    }

    public var description: String {
        "LMDB error \(code) from \(function) (\(returnCode)): \(message)"
    }
}

extension LMDBError {
    /// The kind of an ``LMDBError``; new kinds can be added without breaking
    /// source compatibility.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Wrapped: String, Hashable, Sendable {
            case keyExists
            case mapFull
            case readersFull
            case noSpace
            case outOfMemory
            case transactionFull
            case databasesFull
            case permissionDenied
            case ioError
            case corrupted
            case invalidFile
            case versionMismatch
            case panic
            case incompatible
            case badValueSize
            case fileNotFound
            case busy
            case mapResized
            case other
        }

        let wrapped: Wrapped

        init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        public var description: String { wrapped.rawValue }

        /// The key is already present and the write asked not to overwrite it,
        /// or an `append` was given a key that does not sort after the last one.
        /// The corresponding C error is `MDB_KEYEXIST`.
        public static let keyExists = Code(.keyExists)
        /// The memory map is full. ``Environment`` grows the map and retries
        /// write transactions by itself, so callers only see this when the map
        /// reached ``Environment/Configuration/maximumMapSize``.
        /// The corresponding C error is `MDB_MAP_FULL`.
        public static let mapFull = Code(.mapFull)
        /// Every reader slot is taken. The corresponding C error is `MDB_READERS_FULL`.
        public static let readersFull = Code(.readersFull)
        /// The device holding the store is full. The corresponding C error is `ENOSPC`.
        public static let noSpace = Code(.noSpace)
        /// Memory or address space ran out. The corresponding C error is `ENOMEM`.
        public static let outOfMemory = Code(.outOfMemory)
        /// One transaction changed too many pages. The corresponding C error is `MDB_TXN_FULL`.
        public static let transactionFull = Code(.transactionFull)
        /// More named databases were opened than the environment allows.
        /// The corresponding C error is `MDB_DBS_FULL`.
        public static let databasesFull = Code(.databasesFull)
        /// The process may not read or write the files. The corresponding C
        /// errors are `EACCES`, `EPERM` and `EROFS`.
        public static let permissionDenied = Code(.permissionDenied)
        /// The storage device reported an error. The corresponding C error is `EIO`.
        public static let ioError = Code(.ioError)
        /// The data file is damaged. The corresponding C errors are
        /// `MDB_CORRUPTED` and `MDB_PAGE_NOTFOUND`.
        public static let corrupted = Code(.corrupted)
        /// The file is not an LMDB environment. The corresponding C error is `MDB_INVALID`.
        public static let invalidFile = Code(.invalidFile)
        /// The file was written by an incompatible LMDB version.
        /// The corresponding C error is `MDB_VERSION_MISMATCH`.
        public static let versionMismatch = Code(.versionMismatch)
        /// LMDB hit a fatal error; the environment must be closed and reopened.
        /// The corresponding C error is `MDB_PANIC`.
        public static let panic = Code(.panic)
        /// A database was opened with flags that contradict how it was created.
        /// The corresponding C error is `MDB_INCOMPATIBLE`.
        public static let incompatible = Code(.incompatible)
        /// A key was empty or longer than the environment's maximum key size.
        /// The corresponding C error is `MDB_BAD_VALSIZE`.
        public static let badValueSize = Code(.badValueSize)
        /// The environment's directory or file does not exist.
        /// The corresponding C error is `ENOENT`.
        public static let fileNotFound = Code(.fileNotFound)
        /// Another process holds a lock the operation needs.
        /// The corresponding C errors are `EAGAIN` and `EBUSY`.
        public static let busy = Code(.busy)
        /// Another process grew the map beyond this process's view of it.
        /// ``Environment`` adopts the new size and retries by itself.
        /// The corresponding C error is `MDB_MAP_RESIZED`.
        public static let mapResized = Code(.mapResized)
        /// Any other operating-system error; see ``LMDBError/returnCode``.
        public static let other = Code(.other)

        /// Whether the environment ran out of a resource (map, readers, disk,
        /// memory, transaction size, named databases). The message of such an
        /// error says which limit to raise or what to free.
        public var isResourceLimit: Bool {
            switch wrapped {
            case .mapFull, .readersFull, .noSpace, .outOfMemory, .transactionFull, .databasesFull: true
            default: false
            }
        }

        /// Lets `catch LMDBError.Code.keyExists` match an ``LMDBError`` with that code.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? LMDBError)?.code == pattern
        }
    }
}
