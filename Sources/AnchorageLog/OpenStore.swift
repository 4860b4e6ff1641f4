import LMDB
import Synchronization

/// The open resources of a store: its LMDB environment (whose data-file
/// descriptor carries the writer's directory lock, see ``DirectoryLock``)
/// and a reader's hold. The environment is released first, so the hold is
/// only given up once the store is really closed.
final class OpenStore: Sendable {
    private let environmentSlot: Mutex<Environment?>
    /// A reader's shared hold on the data file it opened (no compaction
    /// replaces it meanwhile); `nil` for the writer.
    private let readerLock: ReaderLock?

    init(environment: Environment, readerLock: ReaderLock? = nil) {
        self.environmentSlot = Mutex(environment)
        self.readerLock = readerLock
    }

    /// The environment. Valid for as long as this object is referenced.
    var environment: Environment {
        environmentSlot.withLock { $0! }
    }

    deinit {
        // Drop the environment (closing it, as nothing else owns it) before
        // `readerLock` is released with the other stored properties.
        _ = environmentSlot.withLock { $0.take() }
    }
}

/// The head as of the last durable commit, readable from any thread.
final class PublishedHead: Sendable {
    private let head: Atomic<UInt64>

    init(_ head: UInt64) {
        self.head = Atomic(head)
    }

    var value: UInt64 { head.load(ordering: .acquiring) }

    func set(_ value: UInt64) {
        head.store(value, ordering: .releasing)
    }
}

/// Counters of the writer's work, for metrics and tests.
final class LogCounters: Sendable {
    private let commits = Atomic<Int>(0)
    private let requests = Atomic<Int>(0)
    private let entries = Atomic<Int>(0)
    private let settles = Atomic<Int>(0)

    /// Counts one sync of the projections, before it is recorded clean.
    func recordSettle() {
        settles.add(1, ordering: .relaxed)
    }

    /// How many times the projections were synced to be recorded clean.
    var projectionSettles: Int { settles.load(ordering: .relaxed) }

    private let closeSyncs = Atomic<Int>(0)

    /// Counts one flush of the store's file as the log closed.
    func recordCloseSync() {
        closeSyncs.add(1, ordering: .relaxed)
    }

    /// How many times a closing writer flushed a store whose last meta
    /// page was not (``EventLog/Durability/noMetaSync``; 0 or 1).
    var storeFlushesAtClose: Int { closeSyncs.load(ordering: .relaxed) }

    func recordCommit(requests: Int, entries: Int) {
        commits.add(1, ordering: .relaxed)
        self.requests.add(requests, ordering: .relaxed)
        self.entries.add(entries, ordering: .relaxed)
    }

    var snapshot: EventLog.Statistics {
        EventLog.Statistics(
            commits: commits.load(ordering: .relaxed),
            batches: requests.load(ordering: .relaxed),
            entries: entries.load(ordering: .relaxed)
        )
    }
}

extension EventLog {
    /// What the writer has done since the log was opened.
    public struct Statistics: Sendable, Hashable {
        /// Write transactions committed.
        public let commits: Int
        /// Batches (`append` and `apply` calls) processed, successful or not.
        public let batches: Int
        /// Entries appended.
        public let entries: Int
    }
}
