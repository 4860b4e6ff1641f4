public import AnchorageCore
public import Foundation
public import Logging

extension EventLog {
    /// How an ``EventLog`` stores and commits.
    ///
    /// ```swift
    /// var configuration = EventLog.Configuration()
    /// configuration.durability = .noMetaSync
    /// let log = try EventLog.open(at: directory, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// What a commit guarantees once `append` returns.
        public var durability: Durability = .full
        /// The initial size of the memory map (4 GiB): address space, not
        /// disk. It grows by itself, but growing waits until every read
        /// transaction of the process has ended, so a store that starts large
        /// seldom makes a write wait behind a long read.
        public var initialMapSize: Int = 4 << 30
        /// The largest the store may grow, in bytes.
        public var maximumMapSize: Int = 1 << 40
        /// Read transactions that may be open at once.
        public var maxReaders: Int = 256
        /// Named databases projections may open, besides the log's own four.
        public var projectionDatabases: Int = 28
        /// Group commit budget: a commit takes queued batches until it holds
        /// this many entries (a single larger batch still commits whole).
        public var maximumEntriesPerCommit: Int = 16_384
        /// Group commit budget in payload bytes.
        public var maximumBytesPerCommit: Int = 32 << 20
        /// Whether the writer keeps zeros written ahead of the log's last
        /// page (``LMDB/Environment/preallocate(headroom:extent:piece:flushes:)``),
        /// so that a commit's flush writes its pages without changing the
        /// file's size (which also writes the inode, and on a journaling file
        /// system commits its journal), and ahead of the projections' last
        /// page, so that the pages commits add there are cached one page per
        /// folio. On by default; the bench turns it off to measure what it
        /// brings.
        public var keepsZerosAhead = true
        /// The writer's thread ends after this long without work, and a new
        /// one starts with the next write: an idle store holds no thread
        /// (a node with a thousand open stores runs only the busy ones').
        /// `nil` keeps the thread for as long as the log is open.
        public var writerIdleTimeout: Duration? = .seconds(2)
        /// How often a log opened for reading looks for entries another
        /// process committed, while ``EventLog/headChanges()`` or
        /// ``EventLog/committedBatches()`` are followed (one short read
        /// transaction each time).
        public var readerPollInterval: Duration = .milliseconds(100)
        /// Whether a log opened for reading may still append node-local
        /// records (``EventLog/appendLocalRecords(_:at:retention:)``), such
        /// as the access-log entry of a command-line read beside a running
        /// node. The environment is then opened for writing (the store's
        /// files must be writable), and each append is a short write
        /// transaction of its own, serialized with the writer's by LMDB's
        /// lock; the log itself stays read-only.
        public var appendsLocalRecordsWhenReading = false
        /// Where a log opened for reading copies the store to check its
        /// projections (``EventLog/checkProjections()``); the copy is
        /// removed when the check ends.
        public var scratchDirectory: URL = FileManager.default.temporaryDirectory
        /// Whether the store seals its entries (``EventLog/Sealing``): off
        /// by default.
        public var sealing: Sealing = .off
        /// The clock whose wall time is stamped on new entries
        /// (``StoreClock/date``).
        public var clock: StoreClock = .continuous
        /// The identity a store created by this open gets: a random one.
        /// Tests give stores identities from their seed, since the order of
        /// two stores' dots (which save wins a conflict) follows from them.
        package var newStoreID: @Sendable () -> StoreID = { StoreID() }
        /// The log format a new store is created in: ``EventLog/formatVersion``,
        /// or 1 for tests of format-1 stores and their migration.
        package var newStoreFormat: UInt32 = EventLog.formatVersion
        /// Where the log reports what it does (at `info` level or lower).
        /// Payload contents are never logged.
        public var logger: Logger = Logger(label: "anchorage.log", factory: { _ in SwiftLogNoOpLogHandler() })

        /// The default configuration: fully durable commits.
        public init() {}
    }

    /// What a returned `append` guarantees after a crash of the process or
    /// of the machine.
    public enum Durability: Sendable, Hashable {
        /// Every commit is flushed to disk before `append` returns: nothing
        /// acknowledged is ever lost.
        case full
        /// The data is flushed but the meta page is not: a machine crash may
        /// undo the last commit; the store stays intact. ``EventLog/close()``
        /// flushes the last one, so a log closed normally has every commit
        /// on disk: for a bulk import that can be run again.
        case noMetaSync
        /// Nothing is flushed: a machine crash may lose recent commits (a
        /// process crash loses nothing). For bulk imports and tests.
        case none
    }
}
