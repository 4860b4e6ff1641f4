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
/// the store. Any number of other processes may read it meanwhile through
/// ``openForReading(at:configuration:projections:)``.
///
/// ## Topics
/// - ``open(at:configuration:projections:)``
/// - ``openForReading(at:configuration:projections:)``
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
    /// The store's log format (see docs/log-format.md): 2 for stores
    /// created by this version; 1 for older ones until
    /// ``migrate(at:configuration:progress:)`` rewrites them.
    public var format: UInt32 { layout.format }
    /// The configuration the log was opened with.
    public let configuration: Configuration

    let databases: LogDatabases
    /// How the store lays out its entries (its log format).
    let layout: EntryLayout
    /// The store's origin numbers (format 2), shared by its readers.
    let origins: OriginNumbers
    let projections: [any Projection]
    /// What made ``projections``; a log opened for reading uses it again
    /// to check them in a copy.
    let projectionFactory: ProjectionFactory
    let published: PublishedHead
    let subscribers = HeadSubscribers()
    let counters = LogCounters()
    /// Whether and how the store seals its entries.
    let sealing: StoreSealing
    /// `nil` for a log opened for reading.
    private let writer: LogWriter?
    /// A log opened for reading looks for new entries while someone follows it.
    let headWatch = Mutex<Task<Void, Never>?>(nil)
    /// `nil` once closed.
    private let openStore: Mutex<OpenStore?>

    /// Whether this log was opened with ``openForReading(at:configuration:projections:)``:
    /// it reads what another process writes, and refuses to write.
    public var isReadOnly: Bool { writer == nil }

    var identity: StoreIdentity {
        StoreIdentity(storeID: storeID, incarnation: incarnation, originID: originID, layout: layout)
    }

    init(
        directory: URL,
        configuration: Configuration,
        store: OpenStore,
        boot: LogBootstrap,
        sealing: StoreSealing,
        projectionFactory: @escaping ProjectionFactory,
        readOnly: Bool = false
    ) {
        self.sealing = sealing
        self.directory = directory
        self.configuration = configuration
        self.storeID = boot.identity.storeID
        self.incarnation = boot.identity.incarnation
        self.originID = boot.identity.originID
        self.databases = boot.databases
        self.layout = boot.identity.layout
        self.origins = boot.origins
        self.projections = boot.projections
        self.projectionFactory = projectionFactory
        self.published = PublishedHead(boot.state.head)
        self.openStore = Mutex(store)
        if readOnly {
            self.writer = nil
        } else {
            let writer = LogWriter(
                state: boot.state,
                store: store,
                databases: boot.databases,
                identity: boot.identity,
                projections: boot.projections,
                configuration: configuration,
                published: published,
                subscribers: subscribers,
                counters: counters,
                origins: boot.origins,
                projectionsDirty: boot.projectionsDirty,
                sealer: sealing.sealer
            )
            self.writer = writer
            writer.start()
        }
    }

    deinit {
        writer?.shutdown()
        headWatch.withLock { $0?.cancel() }
        subscribers.finish()
    }

    /// Commits every queued batch, ends the head-change streams and releases
    /// the store. Later calls fail with ``LogError/Code/closed``.
    public func close() async {
        if let writer {
            writer.shutdown()
            await writer.waitForExit()
        }
        headWatch.withLock { $0?.cancel() }
        subscribers.finish()
        _ = openStore.withLock { $0.take() }
    }

    /// Whether the writer's thread runs now (it ends when the log is idle),
    /// and how many threads have run it; `nil` for a log opened for reading.
    package var writerThreadState: (running: Bool, started: Int)? { writer?.threadState }

    /// The writer, or ``LogError/Code/readOnly`` for a log opened for reading.
    func writing() throws(LogError) -> LogWriter {
        guard let writer else {
            throw LogError(
                .readOnly,
                "the store at \(directory.path) was opened for reading; open it with EventLog.open(at:) to write"
            )
        }
        return writer
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
    /// A log opened for reading looks it up in the store.
    public var head: Anchor {
        anchor(headSeq)
    }

    /// The last durable entry's sequence number: the writer's, or for a log
    /// opened for reading, the store's now (kept as the published head): the
    /// last its projections have applied, so an anchor a reader is given is
    /// one its queries accept.
    var headSeq: UInt64 {
        guard writer == nil, let seq = try? read({ txn in try projectedSeq(in: txn) }) else { return published.value }
        if seq > published.value { published.set(seq) }
        return max(seq, published.value)
    }

    /// The bytes the store's files use: the log and node-local records
    /// (`data.mdb`) and the indices and views (`projections.mdb`), each up
    /// to its last page written.
    ///
    /// - Throws: ``LogError/Code/closed`` once the log is closed.
    public func storedBytes() throws -> Int {
        let (log, projections) = try storedBytesByFile()
        return log + projections
    }

    /// ``storedBytes()`` file by file: `data.mdb`'s and `projections.mdb`'s
    /// pages (not their lengths: the writer keeps zeros written past the
    /// log's pages).
    ///
    /// - Throws: ``LogError/Code/closed`` once the log is closed.
    package func storedBytesByFile() throws -> (log: Int, projections: Int) {
        let environment = try store().environment
        return (environment.usedBytes, environment.companion?.usedBytes ?? 0)
    }

    /// What the writer has done since the log was opened.
    public var statistics: Statistics {
        counters.snapshot
    }
}
