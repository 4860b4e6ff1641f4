public import AnchorageLog
import AnchorageModel
import LMDB

extension HKHealthStore {
    /// The store's position now: the anchor of its last committed entry.
    /// An anchored query from it reports only later changes.
    ///
    /// ```swift
    /// let now = try store.currentAnchor()
    /// ```
    public func currentAnchor() throws -> HKQueryAnchor {
        let engine = try openEngine()
        let head = try engine.read { txn in try engine.head(in: txn) }
        return engine.queryAnchor(head)
    }

    /// One announcement per batch committed from now on (a save, a delete,
    /// a replicated batch), with the anchors it spans: a wake-up for
    /// consumers that then pull from their own anchor, such as the node's
    /// change feed. It carries no data, so it reveals no health value; the
    /// stream ends when the store closes or the consuming task is cancelled.
    ///
    /// ```swift
    /// for await batch in try store.committedBatches() where batch.last.seq > delivered { pull() }
    /// ```
    package func committedBatches() throws -> AsyncStream<CommittedBatch> {
        try openEngine().log.committedBatches()
    }

    /// The position `anchor` stands for in this store, for comparing anchors
    /// with ``committedBatches()``: for an anchor another copy of a fleet's
    /// store issued (it carries a version vector), where a read from it
    /// resumes here.
    ///
    /// - Throws: `errorInvalidArgument` for an anchor of another store
    ///   without a vector, an earlier incarnation, or past the end of this
    ///   store's log (AQ-11).
    package func position(of anchor: HKQueryAnchor) throws -> UInt64 {
        let engine = try openEngine()
        return try engine.read { txn in try anchor.resume(in: engine, head: engine.head(in: txn), txn: txn).start }
    }
}

extension HKHealthStore {
    /// The log's head as an anchor that carries the version vector of
    /// every entry up to it: a change-feed resume point valid on every copy
    /// of the store (docs/fleet.md, "Anchors that survive a failover"), as
    /// a fleet's store-updates feed publishes it. Owner only.
    package func portableHeadAnchor() throws -> String {
        let (head, vector) = try eventLog().headWithVersionVector()
        return HKQueryAnchor(head, vector: vector).stringValue
    }
}

extension HKHealthStore {
    /// The store's event log, for replication, backup and audit: entries
    /// travel between peers verbatim, below the health model. Owner only,
    /// since the log holds every app's data. (An Anchorage addition.)
    ///
    /// ```swift
    /// let replicator = PeerReplicator(log: try owner.eventLog(), peer: transport)
    /// ```
    ///
    /// - Throws: `errorAuthorizationDenied` for an app's handle;
    ///   `errorDatabaseInaccessible` when the store is closed.
    public func eventLog() throws -> EventLog {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner reaches its event log")
        }
        return try openEngine().log
    }

    /// How many times two different saves of one object id were seen (a
    /// bug or a forgery on some peer); the smaller dot's save is the one
    /// shown. Counted since the indices were last built. Owner only.
    public func replicationConflictCount() throws -> Int {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner reads replication conflicts")
        }
        let engine = try openEngine()
        return try engine.read { txn in try txn.statistics(of: engine.index.conflicts).entries }
    }

    /// The bytes of the statistics views' pages (their sample rows, long
    /// samples, bucket rows and the rest) and how many rows they hold: what
    /// the bench reports per sample.
    @_spi(Benchmarks) public func statisticsViewsFootprint() throws -> (bytes: Int, rows: Int) {
        let engine = try openEngine()
        return try engine.read { txn in
            try engine.views.all.reduce(into: (0, 0)) { total, database in
                let statistics = try txn.statistics(of: database)
                total.0 += statistics.pages * statistics.pageSize
                total.1 += statistics.entries
            }
        }
    }
}

extension HKObjectType {
    /// Every sample type Anchorage knows: the types a change feed follows
    /// when it names none — quantities, categories, correlations and
    /// workouts, and routes, heartbeat series, electrocardiograms,
    /// audiograms, vision prescriptions, states of mind, assessments,
    /// clinical records and medication dose events. (An Anchorage addition.)
    public static var allSampleTypes: [HKSampleType] { everySampleType }

    private static let everySampleType: [HKSampleType] = TypeCatalog.knownTypes.compactMap { $0 as? HKSampleType }
}
