/// What the writer knows about the log's end, kept in memory so appending
/// needs no lookups. Only the writer thread touches it; a commit works on a
/// copy and publishes it once the transaction is durable.
struct WriterState: Sendable {
    /// The last sequence number (0 for an empty log).
    var head: UInt64
    /// The link of the entry at `head` (zero for an empty log).
    var lastLink: EntryDigest
    /// The highest counter applied per origin, except this store's own.
    var versionVector: [StoreID: UInt64]
    /// The highest counter of this incarnation's own origin.
    var ownCounter: UInt64

    /// The counter applied for `origin`.
    func counter(of origin: StoreID, own: StoreID) -> UInt64 {
        origin == own ? ownCounter : versionVector[origin, default: 0]
    }
}

/// Events ready for the writer: checked, stamped and digested by the
/// caller's task, so the writer thread only sequences, links and stores them.
struct PreparedEvents: Sendable {
    let events: [LogEvent]
    /// The payload digest of each event (zero for deletes).
    let digests: [EntryDigest]
    /// The creation time shared by the batch, ns since 1970.
    let timestamp: Int64
}

/// One caller's batch, all-or-nothing.
enum WriteWork: Sendable {
    /// Local events: the log assigns dots from its own origin.
    case append(PreparedEvents)
    /// Entries from a peer, keeping their dots; covered ones are skipped.
    case apply([LogEntry], checkpoint: Anchor?)
    /// Maintenance inside the write transaction (projection rebuilds).
    case rebuildProjections
}

/// What a batch produced.
enum WriteOutcome: Sendable {
    case appended([Anchor])
    case applied(ApplyResult)
    case rebuilt(entries: Int)
}
