import Foundation
import LMDB

extension EventLog {
    /// The most entries one ``entries(after:limit:kinds:)`` call examines
    /// when filtering by kind, so that a rare kind cannot make one read
    /// transaction scan the whole log.
    public static let scanBudget = 65_536

    /// The most bytes a page reserves up front for its payloads.
    static let pageReservation = 16 << 20

    /// Reads up to `limit` entries after `anchor` (from the start when `nil`),
    /// optionally only those of `kinds`, in one short read transaction.
    ///
    /// Resume from the page's ``LogPage/next``; every entry is returned
    /// exactly once, in order, whatever the page sizes:
    ///
    /// ```swift
    /// var anchor: Anchor? = nil
    /// repeat {
    ///     let page = try log.entries(after: anchor, limit: 1_000, kinds: [stepCount])
    ///     page.entries.forEach(process)
    ///     anchor = page.next
    /// } while page.hasMore
    /// ```
    ///
    /// - Throws: ``LogError``: ``LogError/Code/foreignAnchor``,
    ///   ``LogError/Code/staleAnchor`` or ``LogError/Code/anchorAhead`` for
    ///   an anchor this log did not issue (start over with `nil`),
    ///   ``LogError/Code/invalidArgument`` for a limit below 1,
    ///   ``LogError/Code/malformedEntry`` for a damaged entry.
    public func entries(after anchor: Anchor?, limit: Int, kinds: Set<EntryKind>? = nil) throws -> LogPage {
        guard limit >= 1 else {
            throw LogError(.invalidArgument, "the page limit is \(limit); it must be at least 1")
        }
        let start = try position(of: anchor)
        let filter = kinds
        return try read { txn in
            let decoder = try decoder(in: txn)
            var entries: [LogEntry] = []
            entries.reserveCapacity(min(limit, 4_096))
            // Payloads of the page go into one shared buffer: one allocation
            // per page instead of one per entry.
            var storage: [UInt8] = []
            var ranges: [(index: Int, range: Range<Int>)] = []
            var last = start
            var scanned = 0
            var hasMore = false
            try txn.withCursor(on: databases.log) { cursor in
                try withUnsafeBytes(of: (start + 1).bigEndian) { startKey in
                    try cursor.scan(from: startKey) { key, value in
                        if entries.count == limit || scanned == Self.scanBudget {
                            hasMore = true
                            return false
                        }
                        guard let seq = UInt64(bigEndianBytes: key) else {
                            throw LogError(.malformedEntry, "the log holds a key of \(key.count) bytes after \(last)")
                        }
                        scanned += 1
                        last = seq
                        // The kind filters an entry before it is decoded,
                        // except a sealed one's, which its envelope holds.
                        let sealed = value.first == EntryFormat.sealedVersion
                        if let filter, !sealed {
                            guard let kind = decoder.layout.kind(of: value) else {
                                throw LogError.malformedEntry(seq, "it is shorter than its header")
                            }
                            guard filter.contains(kind) else { return true }
                        }
                        let stored = try decoder.decode(seq: seq, bytes: value)
                        try decoder.withContents(of: stored, seq: seq, bytes: value) { entry, payload in
                            if sealed, let filter, !filter.contains(entry.kind) { return }
                            if let payload {
                                if storage.isEmpty {
                                    // A guess from the first payload, bounded so a huge limit
                                    // or payload neither overflows nor reserves gigabytes.
                                    let guess = Swift.min(limit, 4_096) * (payload.count + 16)
                                    storage.reserveCapacity(Swift.min(guess, Self.pageReservation))
                                }
                                ranges.append((entries.count, storage.count..<storage.count + payload.count))
                                storage.append(contentsOf: payload)
                            }
                            entries.append(entry)
                        }
                        return true
                    }
                }
            }
            for (index, range) in ranges {
                entries[index].payload = EntryPayload(storage: storage, range: range)
            }
            return LogPage(entries: entries, next: self.anchor(last), hasMore: hasMore)
        }
    }

    /// The sequence number an anchor stands for, after checking that this
    /// log issued it; 0 for `nil`.
    package func position(of anchor: Anchor?) throws(LogError) -> UInt64 {
        guard let anchor else { return 0 }
        guard anchor.storeID == storeID else {
            throw LogError(
                .foreignAnchor,
                "the anchor belongs to store \(anchor.storeID), not to this store (\(storeID)); start over without an anchor"
            )
        }
        guard anchor.incarnation == incarnation else {
            throw LogError(
                .staleAnchor,
                "the anchor comes from an earlier incarnation of store \(storeID), before it was restored from a backup; "
                    + "start over without an anchor"
            )
        }
        let head = headSeq
        guard anchor.seq <= head else {
            throw LogError(
                .anchorAhead,
                "the anchor points at entry \(anchor.seq) but this log ends at \(head); start over without an anchor"
            )
        }
        return anchor.seq
    }

    /// The version vector: for each origin, the highest counter this log holds.
    ///
    /// ```swift
    /// let vector = try log.versionVector()
    /// let missing = peerVector.filter { vector[$0.key, default: 0] < $0.value }
    /// ```
    public func versionVector() throws -> [StoreID: UInt64] {
        try read { txn in try databases.versionVector(in: txn) }
    }

    /// The last entry's anchor and the version vector as one read sees
    /// them: together a resume point valid on every copy of a store (the
    /// vector covers exactly the entries up to the anchor).
    ///
    /// ```swift
    /// let (head, vector) = try log.headWithVersionVector()
    /// ```
    package func headWithVersionVector() throws -> (head: Anchor, vector: [StoreID: UInt64]) {
        try read { txn in (anchor(try Self.lastSeq(databases, in: txn)), try databases.versionVector(in: txn)) }
    }

    /// The anchor of `peer`'s log recorded by the last ``apply(_:checkpoint:)``
    /// from that peer, or `nil`.
    public func checkpoint(for peer: StoreID) throws -> Anchor? {
        try read { txn in
            try txn.withValue(forKey: peer.uuid.bytes, in: databases.checkpoints) { value in
                guard value.count == 16 else {
                    throw LogError(.unsupportedFormat, "the checkpoint of peer \(peer) is damaged")
                }
                return Anchor(
                    storeID: peer,
                    incarnation: UInt64(bigEndian: value.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                    seq: UInt64(bigEndian: value.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                )
            }
        }
    }

    /// A stream of this log's head: the current head first, then the new
    /// head after each commit that appended entries.
    ///
    /// The stream keeps only the newest head, so a slow subscriber skips
    /// intermediate ones and never delays the writer; read the entries
    /// from your own anchor when it fires. It ends when the log closes or
    /// the consuming task is cancelled.
    ///
    /// ```swift
    /// for await head in log.headChanges() {
    ///     let page = try log.entries(after: myAnchor, limit: 1_000)
    ///     …
    /// }
    /// ```
    public func headChanges() -> AsyncStream<Anchor> {
        let stream = subscribers.subscribe { self.head }
        watchHeadIfReading()
        return stream
    }
}
