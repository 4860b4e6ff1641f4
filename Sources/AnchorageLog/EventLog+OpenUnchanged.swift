import LMDB

extension EventLog {
    /// The bootstrap of a store whose open has nothing to write, read in a
    /// read transaction that keeps the databases it opened; `nil` when the
    /// open must write (the opening write transaction then does it all).
    ///
    /// An open writes when the store is new, is a restored backup, has an
    /// origin to number, keeps projections in `data.mdb`, lacks a database
    /// (a write transaction creates it), records a projection absent now or
    /// of another version, or has entries its projections have not applied.
    /// Otherwise it writes nothing: the projections' state stays as
    /// recorded (clean, or unsynced since this boot), and the writer records
    /// them unsynced in its first commit. Opening a store to read it then
    /// costs no commit, no sync to disk and, when they were synced, none at
    /// close either.
    ///
    /// Any error reads as "must write": the write path meets it again and
    /// reports it.
    static func bootstrapUnchanged(
        _ environment: Environment,
        projections factory: ProjectionFactory
    ) -> LogBootstrap? {
        // A database the write would create throws here (MDB_NOTFOUND).
        let boot = try? environment.readOpeningDatabases { txn -> LogBootstrap? in
            guard let companion = txn.requiringCompanionOpener else { return nil }
            var databases = try LogDatabases(in: txn.requiringOpener)
            databases.projectionMeta = try companion.database(named: "meta")
            guard let numbers = databases.originNumbers, let identity = try readIdentity(databases, in: txn),
                try !txn.contains(key: MetaKey.reincarnate, in: databases.meta),
                try !hasKey(withPrefix: MetaKey.projection(""), in: databases.meta, txn)
            else { return nil }
            if identity.layout == .compact {
                var table = OriginTable()
                try table.load(from: numbers, in: txn)
                guard table.number(of: identity.originID) != nil else { return nil }
            }
            let projections = try factory(companion).orderedByConsumption()
            let names = Set(projections.map(\.name))
            guard names.count == projections.count,
                try recordedProjections(in: databases, txn).isSubset(of: names),
                try stale(projections, databases, in: txn).isEmpty,
                try ProjectionStore.applied(meta: databases.projectionVersions, in: txn)
                    == lastSeq(databases, in: txn)
            else { return nil }
            let recorded = try txn.value(forKey: ProjectionStore.stateKey, in: databases.meta).flatMap(
                ProjectionStore.State.init(bytes:)
            )
            let dirty: Bool
            switch recorded {
            case .clean: dirty = false
            case .dirty(let boot) where boot == ProjectionStore.bootID: dirty = true
            default: return nil
            }
            let state = try WriterState.load(identity: identity, databases: databases, in: txn)
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
            boot.projectionsDirty = dirty
            return boot
        }
        return boot ?? nil
    }

    /// Whether `database` holds a key starting with `prefix`.
    private static func hasKey(
        withPrefix prefix: [UInt8],
        in database: Database,
        _ txn: borrowing ReadTransaction
    ) throws -> Bool {
        var found = false
        try txn.withCursor(on: database) { cursor in
            try cursor.scan(from: prefix) { key, _ in
                found = key.starts(with: prefix)
                return false
            }
        }
        return found
    }

    /// The names of the projections whose versions the store records.
    private static func recordedProjections(
        in databases: LogDatabases,
        _ txn: borrowing ReadTransaction
    ) throws -> Set<String> {
        let prefix = MetaKey.projection("")
        var names: Set<String> = []
        try txn.withCursor(on: databases.projectionVersions) { cursor in
            try cursor.scan(from: prefix) { key, _ in
                guard key.starts(with: prefix) else { return false }
                names.insert(String(decoding: UnsafeRawBufferPointer(rebasing: key[prefix.count...]), as: UTF8.self))
                return true
            }
        }
        return names
    }
}
