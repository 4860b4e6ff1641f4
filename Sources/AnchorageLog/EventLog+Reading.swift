import AnchorageCore
public import Foundation
import LMDB
import Logging
import Synchronization

extension EventLog {
    /// Opens the store in `directory` for reading, beside the process that
    /// writes it (if any): LMDB gives every reader process its own
    /// consistent snapshot per read transaction, and takes no lock of the
    /// writer's, so a store being served can be queried, followed and
    /// audited from other processes.
    ///
    /// ```swift
    /// let log = try EventLog.openForReading(at: URL(filePath: "data/alice"))
    /// for await head in log.headChanges() { print("the writer committed up to", head) }
    /// ```
    ///
    /// The log sees what the writer commits as it commits it: every read
    /// starts from the last commit, ``head`` is looked up in the store, and
    /// ``headChanges()`` and ``committedBatches()`` look for new entries
    /// every ``Configuration/readerPollInterval`` while someone follows
    /// them (a batch then spans everything committed since the last look).
    /// Writes (``append(_:)``, ``apply(_:checkpoint:)``, rebuilds, purges)
    /// fail with ``LogError/Code/readOnly``; ``checkProjections()`` replays
    /// the log into a temporary copy of the store.
    ///
    /// - Parameter projections: the same factory a writer passes; it runs in
    ///   a read transaction, so it finds the projections' databases.
    /// - Throws: ``LogError``: ``LogError/Code/noStore`` when `directory`
    ///   holds no store (nothing is created), ``LogError/Code/needsWriter``
    ///   for a restored backup not opened yet or projections of another
    ///   version (a process that writes must open it first),
    ///   ``LogError/Code/unsupportedFormat``; or `LMDBError` (permissions,
    ///   corruption).
    public static func openForReading(
        at directory: URL,
        configuration: Configuration = Configuration(),
        projections: @escaping ProjectionFactory = { _ in [] }
    ) throws -> EventLog {
        let path = directory.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw LogError(.noStore, "there is no store at \(path)")
        }
        // Held before the environment opens, for as long as it is open.
        let readerLock = try ReaderLock(directory: path, exclusive: false)
        var options = environmentConfiguration(configuration)
        if !configuration.appendsLocalRecordsWhenReading { options.options.insert(.readOnly) }
        let environment = try Environment(path: path, configuration: options)
        if FileManager.default.fileExists(atPath: ProjectionStore.path(inStore: path)) {
            guard !ProjectionStore.mustDiscard(try ProjectionStore.recordedState(of: environment)) else {
                throw LogError(
                    .needsWriter,
                    "the store at \(path) was in use when the machine stopped; its projections must be rebuilt: "
                        + "open it for writing once, then read it"
                )
            }
            environment.pair(
                with: try ProjectionStore.openEnvironment(inStore: path, configuration: configuration, readOnly: true)
            )
        }
        let sealing = try StoreSealing(configuration.sealing)
        environment.userContext = sealing.sealer
        let boot = try environment.readOpeningDatabases { txn in
            try bootstrapForReading(in: txn, path: path, projections: projections, sealing: sealing)
        }
        return EventLog(
            directory: directory,
            configuration: configuration,
            store: OpenStore(environment: environment, readerLock: readerLock),
            boot: boot,
            sealing: sealing,
            projectionFactory: projections,
            readOnly: true
        )
    }

    /// Reads the store's identity and head and finds its projections,
    /// refusing what only a writer can settle.
    private static func bootstrapForReading(
        in txn: borrowing ReadTransaction,
        path: String,
        projections factory: ProjectionFactory,
        sealing: StoreSealing
    ) throws -> LogBootstrap {
        // A store whose first open has not committed yet holds no databases.
        guard try txn.opener.database(named: "meta") != nil else {
            throw LogError(.noStore, "the store at \(path) holds nothing yet (is it being created?)")
        }
        var databases = try LogDatabases(in: txn.opener)
        // A store last written by an earlier version keeps its projections
        // in data.mdb.
        databases.projectionMeta = try txn.companionOpener?.database(named: "meta")
        guard let identity = try readIdentity(databases, in: txn) else {
            throw LogError(.noStore, "the store at \(path) was never written")
        }
        if try txn.contains(key: MetaKey.reincarnate, in: databases.meta) {
            throw LogError(
                .needsWriter,
                "the store at \(path) is a restored backup that has not been opened for writing yet; "
                    + "open it for writing once, then read it"
            )
        }
        let opened: [any Projection]
        if let companion = txn.companionOpener {
            opened = try factory(companion)
        } else {
            opened = try factory(txn.opener)
        }
        let projections = try opened.orderedByConsumption()
        let stale = try stale(projections, databases, in: txn)
        guard stale.isEmpty else {
            throw LogError(
                .needsWriter,
                "the store's projections \(stale.map(\.name).joined(separator: ", ")) were built by another version "
                    + "and must be rebuilt by opening the store for writing"
            )
        }
        if !projections.isEmpty,
            try txn.value(forKey: ProjectionStore.sealingKey, in: databases.meta) != sealing.projectionTag
        {
            throw LogError(
                .needsWriter,
                "the store's projections are sealed under another version of its data key (or not sealed as it "
                    + "is) and must be rebuilt by opening the store for writing"
            )
        }
        let state = try WriterState.load(identity: identity, databases: databases, in: txn)
        // A reader records nothing: a key version new to the store is
        // recorded by its writer.
        _ = try SealingRecord.reconcile(
            sealing,
            databases,
            in: txn,
            head: state.head,
            layout: identity.layout,
            projections: projections,
            path: path
        )
        return .unchanged(identity: identity, databases: databases, projections: projections, state: state)
    }

    /// For a log opened for reading, starts looking for entries another
    /// process commits, once: each new head is published to the
    /// subscribers as one batch. Nothing for a log that writes.
    func watchHeadIfReading() {
        guard isReadOnly else { return }
        headWatch.withLock { task in
            guard task == nil else { return }
            // Read now, not in the task: a subscriber that reads the head
            // after subscribing must hear of every later commit.
            var last = headSeq
            let interval = configuration.readerPollInterval
            task = Task.detached { [weak self] in
                while !Task.isCancelled {
                    try? await self?.configuration.clock.sleep(interval)
                    guard let self else { return }
                    guard let seq = try? self.read({ txn in try self.projectedSeq(in: txn) }), seq > last else {
                        continue
                    }
                    if seq > self.published.value { self.published.set(seq) }
                    let batch = CommittedBatch(first: self.anchor(last + 1), last: self.anchor(seq))
                    self.subscribers.publish(self.anchor(seq), batches: [batch])
                    last = seq
                }
            }
        }
    }

    /// ``checkProjections()`` for a log opened for reading: the store is
    /// copied (a consistent snapshot, ``backup(to:)``) into a directory in
    /// ``Configuration/scratchDirectory``, and the copy replays its log into
    /// its projections.
    func checkProjectionsInCopy() async throws -> ProjectionDisagreement? {
        let scratch = configuration.scratchDirectory
            .appendingPathComponent("anchorage-check-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try backup(to: scratch)
        var quiet = configuration
        quiet.durability = .none
        quiet.logger = Logger(label: "anchorage.log.check", factory: { _ in SwiftLogNoOpLogHandler() })
        let copy = try EventLog.open(at: scratch, configuration: quiet, projections: projectionFactory)
        do {
            let disagreement = try await copy.checkProjections()
            await copy.close()
            return disagreement
        } catch {
            await copy.close()
            throw error
        }
    }
}
