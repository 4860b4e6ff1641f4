public import Foundation
public import LMDB
import Logging

/// What opening a store reads or creates in its first write transaction.
struct LogBootstrap {
    let identity: StoreIdentity
    let databases: LogDatabases
    let projections: [any Projection]
    let state: WriterState
    let origins: OriginNumbers
    let created: Bool
    let reincarnated: Bool
    let rebuilt: [String]
    /// Entries applied to the projections at open, which an ended process
    /// had left out.
    var caughtUp: UInt64 = 0
    /// Whether the open moved the projections out of `data.mdb`.
    var movedOut = false
    /// Whether the log records the projections as possibly unsynced after
    /// the open: an open that writes records it; one that writes nothing
    /// leaves the recorded state (``EventLog/bootstrapUnchanged(_:projections:)``).
    var projectionsDirty = true

    /// The bootstrap of an open that changed nothing: a reader's, or a
    /// writer's that had nothing to write.
    static func unchanged(
        identity: StoreIdentity,
        databases: LogDatabases,
        projections: [any Projection],
        state: WriterState,
        projectionsDirty: Bool = true
    ) -> LogBootstrap {
        var boot = LogBootstrap(
            identity: identity,
            databases: databases,
            projections: projections,
            state: state,
            origins: OriginNumbers(database: databases.originNumbers, table: state.origins),
            created: false,
            reincarnated: false,
            rebuilt: []
        )
        boot.projectionsDirty = projectionsDirty
        return boot
    }
}

extension EventLog {
    /// The log format this library creates stores in. It reads and writes
    /// format 1 stores too, and ``migrate(at:configuration:progress:)``
    /// turns one into format 2.
    public static let formatVersion: UInt32 = 2

    /// The log formats this library opens.
    public static let readableFormats: ClosedRange<UInt32> = 1...2

    /// Opens the store in `directory`, creating the directory and the store
    /// if they do not exist.
    ///
    /// ```swift
    /// let log = try EventLog.open(at: URL(filePath: "data/alice"))
    /// ```
    ///
    /// - Parameters:
    ///   - directory: the store's directory; holds `data.mdb`, `lock.mdb` and
    ///     `anchorage.lock`.
    ///   - configuration: durability, map size and group-commit budget.
    ///   - projections: creates the log's projections inside the opening
    ///     write transaction. A projection whose recorded version differs
    ///     from its ``Projection/version`` (or that is new) is rebuilt from
    ///     the log before `open` returns, with the projections it consumes. A projection recorded by an earlier
    ///     open but left out of this one is forgotten (entries appended now
    ///     would miss it), so the next open that includes it rebuilds it.
    /// - Throws: ``LogError`` (``LogError/Code/storeInUse`` when the store is
    ///   already open, ``LogError/Code/unsupportedFormat``,
    ///   ``LogError/Code/fileSystem``) or `LMDBError` (permissions, disk,
    ///   corruption).
    public static func open(
        at directory: URL,
        configuration: Configuration = Configuration(),
        projections: @escaping ProjectionFactory = { _ in [] }
    ) throws -> EventLog {
        let path = directory.standardizedFileURL.path
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw LogError(.fileSystem, "cannot create the store directory \(path): \(error.localizedDescription)")
        }
        let sealing = try StoreSealing(configuration.sealing)
        let environment = try DirectoryLock.openExclusively(directory: path) {
            let environment = try Environment(path: path, configuration: environmentConfiguration(configuration))
            // Projections that may have lost commits, or that were sealed
            // under another key version (or not at all), are rebuilt in a
            // new file: nothing of them stays in its free pages.
            let resealed = try ProjectionStore.recordedSealing(of: environment) != sealing.projectionTag
            if try ProjectionStore.mustDiscard(ProjectionStore.recordedState(of: environment)) || resealed {
                try ProjectionStore.discard(inStore: path)
            }
            environment.pair(
                with: try ProjectionStore.openEnvironment(inStore: path, configuration: configuration, readOnly: false)
            )
            // Projections reach the key through their opener (EntryLookup).
            environment.userContext = sealing.sealer
            return environment
        }
        let boot =
            try bootstrapUnchanged(environment, projections: projections, sealing: sealing, path: path)
            ?? environment.write { txn in
                try bootstrap(
                    in: txn,
                    newStoreID: configuration.newStoreID,
                    newStoreLayout: EntryLayout(format: configuration.newStoreFormat) ?? .compact,
                    projections: projections,
                    sealing: sealing,
                    path: path
                )
            }
        let store = OpenStore(environment: environment)
        let log = EventLog(
            directory: directory,
            configuration: configuration,
            store: store,
            boot: boot,
            sealing: sealing,
            projectionFactory: projections
        )
        report(boot, path: path, logger: configuration.logger)
        return log
    }

    static func environmentConfiguration(_ configuration: Configuration) -> Environment.Configuration {
        var environment = Environment.Configuration()
        environment.mapSize = configuration.initialMapSize
        environment.maximumMapSize = configuration.maximumMapSize
        environment.maxReaders = configuration.maxReaders
        environment.maxDatabases = LogDatabases.names.count + configuration.projectionDatabases
        switch configuration.durability {
        case .full: break
        case .noMetaSync: environment.options.insert(.noMetaSync)
        case .none: environment.options.insert(.noSync)
        }
        return environment
    }

    static func report(_ boot: LogBootstrap, path: String, logger: Logger) {
        let metadata: Logger.Metadata = [
            "anchorage.store.id": "\(boot.identity.storeID)",
            "anchorage.store.path": "\(path)",
            "anchorage.log.head": "\(boot.state.head)",
        ]
        if boot.created { logger.info("created a new store", metadata: metadata) }
        if boot.reincarnated { logger.info("opened a backup copy: started a new incarnation", metadata: metadata) }
        if boot.movedOut {
            logger.info("moved the projections out of data.mdb into their own file", metadata: metadata)
        }
        if boot.caughtUp > 0 {
            logger.info(
                "applied entries the projections had not committed",
                metadata: metadata.merging(["anchorage.projection.entries": "\(boot.caughtUp)"]) { $1 }
            )
        }
        for name in boot.rebuilt {
            logger.info("rebuilt projection", metadata: metadata.merging(["anchorage.projection": "\(name)"]) { $1 })
        }
    }

    /// Reads or creates the store's identity, sets up its projections and
    /// loads the writer's state. Runs inside the opening write transaction
    /// (possibly more than once, if the map must grow).
    private static func bootstrap(
        in txn: borrowing WriteTransaction,
        newStoreID: () -> StoreID,
        newStoreLayout: EntryLayout,
        projections factory: ProjectionFactory,
        sealing: StoreSealing,
        path: String
    ) throws -> LogBootstrap {
        var databases = try LogDatabases(in: txn.opener)
        databases.projectionMeta = try txn.companionOpener!.database(named: "meta")
        var (identity, created) = try readOrCreateIdentity(
            databases,
            newStoreID: newStoreID,
            layout: newStoreLayout,
            in: txn
        )
        var reincarnated = false
        if try txn.contains(key: MetaKey.reincarnate, in: databases.meta) {
            identity = StoreIdentity(
                storeID: identity.storeID,
                incarnation: .random(in: 1...UInt64.max),
                originID: StoreID(),
                layout: identity.layout
            )
            try writeIdentity(identity, databases, in: txn)
            try txn.removeValue(forKey: MetaKey.reincarnate, in: databases.meta)
            reincarnated = true
        }
        if identity.layout == .compact, let numbers = databases.originNumbers {
            var table = OriginTable()
            try table.load(from: numbers, in: txn)
            _ = try table.number(registering: identity.originID, in: numbers, txn: txn)
        }
        let movedOut = try ProjectionStore.dropFromLogFile(databases: databases, in: txn)
        let projections = try factory(txn.companionOpener!).orderedByConsumption()
        let names = projections.map(\.name)
        guard Set(names).count == names.count else {
            throw LogError(.invalidArgument, "two projections share a name: \(names.joined(separator: ", "))")
        }
        try forgetAbsentProjections(keeping: Set(names), databases: databases, in: txn)
        var decoder = try EntryDecoder(identity.layout, databases: databases, inWrite: txn)
        decoder.sealer = sealing.sealer
        let head = try lastSeq(databases, in: txn)
        if let record = try SealingRecord.reconcile(
            sealing,
            databases,
            in: txn,
            head: head,
            layout: identity.layout,
            projections: projections,
            path: path
        ) {
            try txn.put(record.bytes, forKey: SealingRecord.key, in: databases.meta)
        }
        try ProjectionStore.recordSealing(sealing.projectionTag, meta: databases.meta, in: txn)
        let applied = try ProjectionStore.applied(meta: databases.projectionVersions, in: txn)
        // A version changed (or the file is new): rebuild them all, which
        // also covers entries they have not applied yet.
        let stale = try stale(projections, databases, in: txn).isEmpty ? [] : projections
        if !stale.isEmpty {
            _ = try ProjectionReplay.rebuild(stale, databases: databases, decoder: decoder, in: txn)
            for projection in stale {
                try txn.put(
                    UInt32(truncatingIfNeeded: projection.version).bigEndianBytes,
                    forKey: MetaKey.projection(projection.name),
                    in: databases.projectionVersions
                )
            }
        } else if applied < head {
            // The process ended before the projections committed (or synced)
            // their last batches; the page cache kept what they did commit.
            _ = try ProjectionReplay.apply(
                projections,
                after: applied,
                databases: databases,
                decoder: decoder,
                in: txn
            )
        }
        try ProjectionStore.setApplied(head, meta: databases.projectionVersions, in: txn)
        try txn.put(
            ProjectionStore.State.dirty(boot: ProjectionStore.bootID).bytes,
            forKey: ProjectionStore.stateKey,
            in: databases.meta
        )
        let state = try WriterState.load(identity: identity, databases: databases, in: txn)
        return LogBootstrap(
            identity: identity,
            databases: databases,
            projections: projections,
            state: state,
            origins: OriginNumbers(database: databases.originNumbers, table: state.origins),
            created: created,
            reincarnated: reincarnated,
            rebuilt: created ? [] : stale.map(\.name),
            caughtUp: stale.isEmpty && applied < head ? head - applied : 0,
            movedOut: movedOut
        )
    }

    private static func readOrCreateIdentity(
        _ databases: LogDatabases,
        newStoreID: () -> StoreID,
        layout: EntryLayout,
        in txn: borrowing WriteTransaction
    ) throws -> (StoreIdentity, created: Bool) {
        if let identity = try readIdentity(databases, in: txn) { return (identity, false) }
        let storeID = newStoreID()
        let identity = StoreIdentity(
            storeID: storeID,
            incarnation: .random(in: 1...UInt64.max),
            originID: storeID,
            layout: layout
        )
        try txn.put(layout.format.bigEndianBytes, forKey: MetaKey.format, in: databases.meta)
        try txn.put(storeID.uuid.bytes, forKey: MetaKey.store, in: databases.meta)
        try writeIdentity(identity, databases, in: txn)
        return (identity, true)
    }

    /// The store's identity, or `nil` for a store not created yet.
    static func readIdentity(
        _ databases: LogDatabases,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> StoreIdentity? {
        guard let format = try txn.value(forKey: MetaKey.format, in: databases.meta) else {
            guard try txn.statistics(of: databases.log).entries == 0 else {
                throw LogError(
                    .unsupportedFormat,
                    "the store holds entries but no identity; it was not written by Anchorage"
                )
            }
            return nil
        }
        guard let version = UInt32(bigEndianBytes: format), let layout = EntryLayout(format: version) else {
            throw LogError(
                .unsupportedFormat,
                "the store uses log format \(UInt32(bigEndianBytes: format).map(String.init) ?? "?"); this library reads formats \(readableFormats.lowerBound) and \(readableFormats.upperBound)"
            )
        }
        guard layout == .exchange || databases.originNumbers != nil else {
            throw LogError(.unsupportedFormat, "the store uses log format 2 but has no origin-numbers database")
        }
        guard let store = try txn.value(forKey: MetaKey.store, in: databases.meta), store.count == 16,
            let incarnationBytes = try txn.value(forKey: MetaKey.incarnation, in: databases.meta),
            let incarnation = UInt64(bigEndianBytes: incarnationBytes),
            let origin = try txn.value(forKey: MetaKey.origin, in: databases.meta), origin.count == 16
        else {
            throw LogError(.unsupportedFormat, "the store's identity records are missing or damaged")
        }
        return store.withUnsafeBytes { storeBytes in
            origin.withUnsafeBytes { originBytes in
                StoreIdentity(
                    storeID: StoreID(UUID(loadingFrom: storeBytes, at: 0)),
                    incarnation: incarnation,
                    originID: StoreID(UUID(loadingFrom: originBytes, at: 0)),
                    layout: layout
                )
            }
        }
    }

    /// The projections whose recorded version differs from theirs (or that
    /// are new to the store).
    static func stale(
        _ projections: [any Projection],
        _ databases: LogDatabases,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [any Projection] {
        try projections.filter { projection in
            let recorded = try txn.value(
                forKey: MetaKey.projection(projection.name),
                in: databases.projectionVersions
            )
            return recorded != UInt32(truncatingIfNeeded: projection.version).bigEndianBytes
        }
    }

    private static func writeIdentity(
        _ identity: StoreIdentity,
        _ databases: LogDatabases,
        in txn: borrowing WriteTransaction
    ) throws {
        try txn.put(identity.incarnation.bigEndianBytes, forKey: MetaKey.incarnation, in: databases.meta)
        try txn.put(identity.originID.uuid.bytes, forKey: MetaKey.origin, in: databases.meta)
    }

    /// Forgets the recorded version of every projection this open leaves
    /// out: its databases miss whatever is appended without it, so the next
    /// open that includes it again rebuilds it.
    private static func forgetAbsentProjections(
        keeping names: Set<String>,
        databases: LogDatabases,
        in txn: borrowing WriteTransaction
    ) throws {
        for key in try MetaKey.projectionKeys(in: databases.projectionVersions, txn)
        where !names.contains(MetaKey.projectionName(of: key)) {
            _ = try txn.removeValue(forKey: key, in: databases.projectionVersions)
        }
    }
}
