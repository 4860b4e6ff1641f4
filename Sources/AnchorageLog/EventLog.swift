public import Foundation
import LMDB
import Logging
import Synchronization

/// An append-only, hash-chained event log in an LMDB store: the foundation
/// every Anchorage store, feed and replica stands on.
///
/// Every save and delete is an entry with a dense sequence number; anchors
/// made from those numbers are where consumers resume. Appends from any
/// task are group-committed: concurrent batches share one transaction and
/// one fsync, and each caller resumes once its entries are durable.
///
/// ```swift
/// let log = try EventLog.open(at: URL(filePath: "/var/lib/anchorage/alice"))
/// let anchors = try await log.append([.save(id: UUID(), kind: 1, payload: bytes)])
///
/// var anchor: Anchor? = nil
/// repeat {
///     let page = try log.entries(after: anchor, limit: 1_000)
///     page.entries.forEach(process)
///     anchor = page.next
/// } while page.hasMore
/// ```
///
/// Open a store once (a second open of the same directory fails with
/// ``LogError/Code/storeInUse``, in this process or another) and share the
/// `EventLog` between tasks. ``close()`` commits what is queued and releases
/// the store.
///
/// ## Topics
/// - ``open(at:configuration:projections:)``
/// - ``append(_:)``
/// - ``apply(_:checkpoint:)``
/// - ``entries(after:limit:kinds:)``
/// - ``headChanges()``
/// - ``verify()``
public final class EventLog: Sendable {
    /// The store's permanent id.
    public let storeID: StoreID
    /// The store's current incarnation; it changes when a backup copy is
    /// opened for the first time.
    public let incarnation: UInt64
    /// The origin id of entries created here in this incarnation.
    public let originID: StoreID
    /// The store's directory.
    public let directory: URL
    /// The configuration the log was opened with.
    public let configuration: Configuration

    let databases: LogDatabases
    let projections: [any Projection]
    let published: PublishedHead
    let subscribers = HeadSubscribers()
    let counters = LogCounters()
    let writer: LogWriter
    /// `nil` once closed.
    private let openStore: Mutex<OpenStore?>

    var identity: StoreIdentity {
        StoreIdentity(storeID: storeID, incarnation: incarnation, originID: originID)
    }

    init(
        directory: URL,
        configuration: Configuration,
        store: OpenStore,
        boot: LogBootstrap
    ) {
        self.directory = directory
        self.configuration = configuration
        self.storeID = boot.identity.storeID
        self.incarnation = boot.identity.incarnation
        self.originID = boot.identity.originID
        self.databases = boot.databases
        self.projections = boot.projections
        self.published = PublishedHead(boot.state.head)
        self.openStore = Mutex(store)
        self.writer = LogWriter(
            state: boot.state,
            store: store,
            databases: boot.databases,
            identity: boot.identity,
            projections: boot.projections,
            configuration: configuration,
            published: published,
            subscribers: subscribers,
            counters: counters
        )
        writer.start()
    }

    deinit {
        writer.shutdown()
        subscribers.finish()
    }

    /// Commits every queued batch, ends the head-change streams and releases
    /// the store. Later calls fail with ``LogError/Code/closed``.
    public func close() async {
        writer.shutdown()
        await writer.waitForExit()
        subscribers.finish()
        _ = openStore.withLock { $0.take() }
    }

    /// The open store, or ``LogError/Code/closed``.
    func store() throws(LogError) -> OpenStore {
        guard let store = openStore.withLock({ $0 }) else {
            throw LogError(.closed, "the log at \(directory.path) was closed")
        }
        return store
    }

    /// Runs `body` in a read transaction of the open store.
    func read<R>(_ body: (borrowing ReadTransaction) throws -> R) throws -> R {
        let store = try store()
        return try store.environment.read(body)
    }

    /// The anchor of position `seq` in this log.
    func anchor(_ seq: UInt64) -> Anchor {
        Anchor(storeID: storeID, incarnation: incarnation, seq: seq)
    }

    /// The anchor of the last durable entry (sequence number 0 when empty).
    public var head: Anchor {
        anchor(published.value)
    }

    /// What the writer has done since the log was opened.
    public var statistics: Statistics {
        counters.snapshot
    }
}
