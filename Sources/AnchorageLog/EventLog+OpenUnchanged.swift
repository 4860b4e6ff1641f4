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
        projections factory: ProjectionFactory,
        sealing: StoreSealing,
        path: String
    ) -> LogBootstrap? {
        // A database the write would create throws here (MDB_NOTFOUND).
        let boot = try? environment.readOpeningDatabases { txn -> LogBootstrap? in
            guard let companion = txn.requiringCompanionOpener else { return nil }
            var databases = try LogDatabases(in: txn.requiringOpener)
            databases.projectionMeta = try companion.database(named: "meta")
            guard let identity = try readIdentity(databases, in: txn),
                try !txn.contains(key: MetaKey.reincarnate, in: databases.meta),
                try MetaKey.projectionKeys(in: databases.meta, txn).isEmpty,
                try txn.value(forKey: ProjectionStore.sealingKey, in: databases.meta) == sealing.projectionTag
            else { return nil }
            // The head, the projections' last applied entry and the origins' numbers.
            let state = try WriterState.load(identity: identity, databases: databases, in: txn)
            guard state.projected == state.head,
                identity.layout != .compact || state.origins.number(of: identity.originID) != nil
            else { return nil }
            let projections = try factory(companion).orderedByConsumption()
            let names = Set(projections.map(\.name))
            let recorded = try MetaKey.projectionKeys(in: databases.projectionVersions, txn)
            guard names.count == projections.count,
                recorded.allSatisfy({ names.contains(MetaKey.projectionName(of: $0)) }),
                try stale(projections, databases, in: txn).isEmpty,
                try SealingRecord.reconcile(
                    sealing,
                    databases,
                    in: txn,
                    head: state.head,
                    layout: identity.layout,
                    projections: projections,
                    path: path
                ) == nil
            else { return nil }
            let dirty: Bool
            switch try txn.value(forKey: ProjectionStore.stateKey, in: databases.meta).flatMap(
                ProjectionStore.State.init(bytes:)
            ) {
            case .clean: dirty = false
            case .dirty(let boot) where boot == ProjectionStore.bootID: dirty = true
            default: return nil
            }
            return .unchanged(
                identity: identity,
                databases: databases,
                projections: projections,
                state: state,
                projectionsDirty: dirty
            )
        }
        return boot ?? nil
    }
}
