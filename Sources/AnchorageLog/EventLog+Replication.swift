import Foundation
import LMDB

extension EventLog {
    /// What one ``readForReplication(after:maxEntries:maxBytes:skipping:_:)``
    /// covered.
    public struct ReplicationRead: Sendable, Hashable {
        /// The last position examined: a peer's checkpoint may move here,
        /// even past entries it was not sent because it holds them already.
        public let through: UInt64
        /// Whether entries remain after `through`.
        public let hasMore: Bool
        /// This log's head when the read began.
        public let head: UInt64
        /// Entries handed to the body.
        public let sent: Int
    }

    /// The most positions one replication read examines, sent or skipped.
    public static let replicationScanBudget = 262_144

    /// Reads the entries after position `seq` for a peer in one short read
    /// transaction: each entry's exchange form (docs/log-format.md; a
    /// format-1 store's bytes verbatim) and the link of the entry before
    /// it, so the peer can check the hash chain on arrival. Entries whose dot `covered` (the peer's
    /// version vector) already holds are skipped; the read stops after
    /// `maxEntries` entries or once `maxBytes` are reached (at least one
    /// entry is sent however large it is).
    ///
    /// ```swift
    /// let read = try log.readForReplication(after: since, maxEntries: 5_000,
    ///                                       maxBytes: 8 << 20, skipping: peerVector) { seq, previous, bytes in
    ///     batch.append(seq: seq, previousLink: previous, entry: bytes)
    /// }
    /// ```
    ///
    /// - Throws: ``LogError`` ``LogError/Code/anchorAhead`` when `seq` is past
    ///   the head, ``LogError/Code/malformedEntry`` for a damaged entry.
    public func readForReplication(
        after seq: UInt64,
        maxEntries: Int,
        maxBytes: Int,
        skipping covered: [StoreID: UInt64],
        _ body: (_ seq: UInt64, _ previousLink: EntryDigest, _ entry: UnsafeRawBufferPointer) throws -> Void
    ) throws -> ReplicationRead {
        guard maxEntries >= 1, maxBytes >= 1 else {
            throw LogError(.invalidArgument, "a replication read needs room for at least one entry")
        }
        return try read { txn in
            let head = try lastSeq(in: txn)
            guard seq <= head else {
                throw LogError(
                    .anchorAhead,
                    "the peer asked for entries after \(seq) but this log ends at \(head); its checkpoint is from "
                        + "another incarnation of this store"
                )
            }
            let decoder = try decoder(in: txn)
            var previous = try LogChain.link(at: seq, decoder: decoder, log: databases.log, in: txn)
            var through = seq
            var sent = 0
            var bytes = 0
            var scanned = 0
            var hasMore = false
            var exchange: [UInt8] = []
            try txn.withCursor(on: databases.log) { cursor in
                try cursor.scan(from: (seq + 1).bigEndianBytes) { key, value in
                    if sent == maxEntries || bytes >= maxBytes || scanned == Self.replicationScanBudget {
                        hasMore = true
                        return false
                    }
                    guard let position = UInt64(bigEndianBytes: key) else {
                        throw LogError(.malformedEntry, "the log holds a key of \(key.count) bytes after \(through)")
                    }
                    let stored = try decoder.decode(seq: position, bytes: value)
                    scanned += 1
                    let sends = covered[stored.dot.origin, default: 0] < stored.dot.counter
                    let link: EntryDigest
                    // What the peer receives: the exchange form's size.
                    let sentSize = ExchangeLayout.size(regionCount: value.count - stored.regionStart)
                    if decoder.layout == .exchange {
                        // Format 1 stores the exchange form: sent verbatim.
                        link = stored.storedLink ?? .zero
                        if sends { try body(position, previous, value) }
                    } else {
                        let header = stored.header(in: value)
                        link = stored.storedLink ?? EntryFormat.link(previous: previous, header: header)
                        if sends {
                            let region = UnsafeRawBufferPointer(rebasing: value[stored.regionStart...])
                            exchange.removeAll(keepingCapacity: true)
                            exchange.append(
                                contentsOf: repeatElement(0, count: ExchangeLayout.size(regionCount: region.count))
                            )
                            exchange.withUnsafeMutableBytes { buffer in
                                ExchangeLayout.write(header, link: link, salt: nil, payload: region, into: buffer)
                            }
                            try exchange.withUnsafeBytes { try body(position, previous, $0) }
                        }
                    }
                    if sends {
                        sent += 1
                        bytes += sentSize
                    }
                    previous = link
                    through = position
                    return true
                }
            }
            return ReplicationRead(through: through, hasMore: hasMore, head: head, sent: sent)
        }
    }
}

extension LogEntry {
    /// Decodes an entry's stored bytes received from a peer, checking their
    /// structure, that the payload matches its digest, and that the link
    /// follows from `previousLink`: damage in transit is caught before
    /// anything is applied.
    ///
    /// ```swift
    /// let entry = try LogEntry(seq: 7, encoded: bytes, previousLink: previous)
    /// ```
    /// - Throws: ``LogError`` ``LogError/Code/malformedEntry``; never traps.
    public init(seq: UInt64, encoded bytes: UnsafeRawBufferPointer, previousLink: EntryDigest) throws(LogError) {
        let stored = try ExchangeLayout.decode(seq: seq, bytes: bytes)
        if stored.hasRegion, let digest = stored.storedDigest,
            EntryDigest.of(UnsafeRawBufferPointer(rebasing: bytes[stored.regionStart...])) != digest
        {
            throw LogError.malformedEntry(seq, "its payload does not match its digest")
        }
        guard EntryFormat.link(previous: previousLink, header: stored.header(in: bytes)) == stored.storedLink else {
            throw LogError.malformedEntry(seq, "its hash link does not follow from the entry before it")
        }
        self = stored.entryWithPayload(seq: seq, in: bytes)
    }
}
