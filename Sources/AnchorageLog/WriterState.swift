import Foundation
import LMDB

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
    /// Format 2's origin numbers, with those this transaction assigned.
    var origins: OriginTable
    /// Whether the entry at `head` stores its link (format 2 stores it on
    /// the last entry of every transaction).
    var headLinked: Bool
    /// The last entry the projections have applied (``head`` but after a
    /// commit of the log whose projections' commit failed).
    var projected: UInt64

    /// Reads the head, the last link and the version vector from the store.
    static func load<Transaction: ReadableTransaction & ~Copyable>(
        identity: StoreIdentity,
        databases: LogDatabases,
        in txn: borrowing Transaction
    ) throws -> WriterState {
        var origins = OriginTable()
        if identity.layout == .compact, let numbers = databases.originNumbers {
            try origins.load(from: numbers, in: txn)
        }
        let decoder = EntryDecoder(layout: identity.layout, origins: origins)
        let last: (UInt64, EntryDigest?)? = try txn.withCursor(on: databases.log) { cursor in
            try cursor.last { key, value in
                guard let seq = UInt64(bigEndianBytes: key) else {
                    throw LogError(.malformedEntry, "the log's last key has \(key.count) bytes; keys are 8 bytes")
                }
                return (seq, try decoder.decode(seq: seq, bytes: value).storedLink)
            }
        }
        var lastLink = last?.1 ?? .zero
        if let (seq, stored) = last, stored == nil {
            // Every transaction links its last entry; recompute it anyway.
            lastLink = try LogChain.link(at: seq, decoder: decoder, log: databases.log, in: txn)
        }
        var versionVector = try databases.versionVector(in: txn)
        let ownCounter = versionVector.removeValue(forKey: identity.originID) ?? 0
        return WriterState(
            head: last?.0 ?? 0,
            lastLink: lastLink,
            versionVector: versionVector,
            ownCounter: ownCounter,
            origins: origins,
            headLinked: last.map { $0.1 != nil } ?? true,
            projected: try databases.projectionMeta.map { try ProjectionStore.applied(meta: $0, in: txn) }
                ?? last?.0 ?? 0
        )
    }

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
    /// Each save's salt, for a store that writes entry version 2; `nil`
    /// for one that writes version 1 (log format 1).
    let salts: [EntrySalt]?
    /// The creation time shared by the batch, ns since 1970.
    let timestamp: Int64
    /// Runs in the write transaction before the entries are stored; throws
    /// to reject the batch.
    let precondition: AppendPrecondition?
}

/// One caller's batch, all-or-nothing.
enum WriteWork: Sendable {
    /// Local events: the log assigns dots from its own origin.
    case append(PreparedEvents)
    /// Entries from a peer, keeping their dots; covered ones are skipped.
    /// With `from`, the batch must start where the stored checkpoint ends.
    case apply([LogEntry], checkpoint: Anchor?, from: UInt64?)
    /// Maintenance inside the write transaction (projection rebuilds).
    case rebuildProjections(progress: (@Sendable (Int) -> Void)?)
    /// Replays the log into the projections, compares, and rolls back.
    case checkProjections
    /// Removes the payloads of the saves at these positions, keeping their
    /// digests.
    case purge([UInt64])
    /// Sets (or, with `nil`, removes) named cursors.
    case setCursors([(name: String, value: [UInt8]?)])
    /// Appends node-local records and prunes what the retention drops.
    case appendLocal(LocalRecordBatch)
}

/// What a batch produced.
enum WriteOutcome: Sendable {
    case appended([Anchor])
    case applied(ApplyResult)
    case rebuilt(entries: Int)
    case purged(Int)
    case cursorsSet
    case localAppended([LocalRecordKey])
}
