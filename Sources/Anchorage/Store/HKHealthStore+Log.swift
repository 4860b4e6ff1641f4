public import AnchorageLog

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
    public func committedBatches() throws -> AsyncStream<CommittedBatch> {
        try openEngine().log.committedBatches()
    }

    /// The position `anchor` stands for in this store, for comparing anchors
    /// with ``committedBatches()``.
    ///
    /// - Throws: `errorInvalidArgument` for an anchor of another store or an
    ///   earlier incarnation (AQ-11).
    public func position(of anchor: HKQueryAnchor) throws -> UInt64 {
        try anchor.position(in: openEngine())
    }
}

extension HKObjectType {
    /// Every sample type Anchorage knows: the types a change feed follows
    /// when it names none. (An Anchorage addition.)
    public static var allSampleTypes: [HKSampleType] {
        TypeCatalog.allTypes.compactMap { $0 as? HKSampleType }
    }
}
