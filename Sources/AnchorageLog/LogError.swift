/// An error of the event log: a bad anchor, a damaged entry, a store already
/// in use, an entry that cannot be applied…
///
/// Storage failures (disk full, permissions, I/O) arrive as
/// `LMDBError` instead, with nothing half-written.
///
/// ```swift
/// do {
///     let page = try log.entries(after: savedAnchor, limit: 500)
/// } catch LogError.Code.staleAnchor {
///     // the store was restored from a backup: start over from the beginning
/// }
/// ```
///
/// Messages name anchors, sequence numbers and ids, never payload contents.
public struct LogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a value you can match in `catch`.
    public let code: Code
    /// A sentence describing the error and what to do about it.
    public let message: String
    /// The entry the error is about, when there is one.
    public let seq: UInt64?

    init(_ code: Code, _ message: String, seq: UInt64? = nil) {
        self.code = code
        self.message = message
        self.seq = seq
    }

    public var description: String { "\(code): \(message)" }
}

extension LogError {
    /// The kind of a ``LogError``; new kinds can be added without breaking
    /// source compatibility.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Wrapped: String, Hashable, Sendable {
            case malformedAnchor
            case foreignAnchor
            case staleAnchor
            case anchorAhead
            case malformedEntry
            case invalidEvent
            case invalidArgument
            case originGap
            case storeInUse
            case fileSystem
            case unsupportedFormat
            case closed
            case checkpointMoved
            case readOnly
            case noStore
            case needsWriter
            case keyUnavailable
            case wrongKey
            case unsealedEntry
        }

        let wrapped: Wrapped

        init(_ wrapped: Wrapped) { self.wrapped = wrapped }

        public var description: String { wrapped.rawValue }

        /// An anchor string or encoding that is not one this library wrote.
        public static let malformedAnchor = Code(.malformedAnchor)
        /// An anchor issued by a different store.
        public static let foreignAnchor = Code(.foreignAnchor)
        /// An anchor from an earlier incarnation of this store (before a
        /// restore from backup): its positions may now hold other entries.
        public static let staleAnchor = Code(.staleAnchor)
        /// An anchor past the end of this log.
        public static let anchorAhead = Code(.anchorAhead)
        /// Stored or received entry bytes that do not follow the format.
        public static let malformedEntry = Code(.malformedEntry)
        /// An event or replicated entry the log refuses (too large, digest
        /// not matching its payload…).
        public static let invalidEvent = Code(.invalidEvent)
        /// An argument outside its allowed range (a page limit below 1…).
        public static let invalidArgument = Code(.invalidArgument)
        /// A replicated entry whose origin counter skips entries this log
        /// has not seen; applying it would lose them.
        public static let originGap = Code(.originGap)
        /// The store's directory is open in another `EventLog`, in this
        /// process or another.
        public static let storeInUse = Code(.storeInUse)
        /// The store's directory or lock file could not be created or
        /// opened (permissions, missing parent, read-only filesystem…).
        public static let fileSystem = Code(.fileSystem)
        /// The store was written by an incompatible version of the format.
        public static let unsupportedFormat = Code(.unsupportedFormat)
        /// The log was closed.
        public static let closed = Code(.closed)
        /// A peer's batch that does not start where this log's checkpoint
        /// for that peer ends (delayed, repeated or reordered); nothing of
        /// it was applied, and the puller starts again from the checkpoint.
        public static let checkpointMoved = Code(.checkpointMoved)
        /// A write to a log opened for reading
        /// (``EventLog/openForReading(at:configuration:projections:)``).
        public static let readOnly = Code(.readOnly)
        /// Opening for reading a directory that holds no store.
        public static let noStore = Code(.noStore)
        /// A store that a process that writes must open first, before it
        /// can be read: a restored backup not yet opened, or projections of
        /// another version to rebuild.
        public static let needsWriter = Code(.needsWriter)
        /// A sealed store or entry, and no key to open it with: the store
        /// was opened without its data key, or an entry names a key version
        /// the open was not given.
        public static let keyUnavailable = Code(.keyUnavailable)
        /// A data key that is not the one the store was sealed under.
        public static let wrongKey = Code(.wrongKey)
        /// An entry that is not sealed, offered to a sealed store (by a peer,
        /// or a store holding such entries opened with a key).
        public static let unsealedEntry = Code(.unsealedEntry)

        /// Lets `catch LogError.Code.staleAnchor` match a ``LogError`` with that code.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? LogError)?.code == pattern
        }
    }

    static func malformedEntry(_ seq: UInt64, _ reason: String) -> LogError {
        LogError(.malformedEntry, "entry \(seq) is malformed: \(reason)", seq: seq)
    }
}
