package import LMDB

extension EventLog {
    /// A stream of every batch committed from now on, in commit order.
    ///
    /// Unlike ``headChanges()``, which keeps only the newest head, this
    /// stream queues each batch's range (two anchors, a few dozen bytes),
    /// so a subscriber can act once per batch even when it falls behind;
    /// it reads the entries from the log itself, so a slow subscriber never
    /// delays the writer. Batches committed before the call are not
    /// announced: subscribe first, then read what is already there. The
    /// stream ends when the log closes or the consuming task is cancelled.
    ///
    /// ```swift
    /// let batches = log.committedBatches()
    /// var anchor = catchUp(from: savedAnchor)
    /// for await batch in batches where batch.last.seq > anchor.seq {
    ///     anchor = process(try log.entries(after: anchor, limit: batch.count).entries)
    /// }
    /// ```
    public func committedBatches() -> AsyncStream<CommittedBatch> {
        let stream = subscribers.subscribeToBatches { [published] in published.value }
        watchHeadIfReading()
        return stream
    }

    /// Runs `body` in one short read transaction of the store: the log and
    /// every projection database as of one commit.
    package func withReadTransaction<R>(_ body: (borrowing ReadTransaction) throws -> R) throws -> R {
        try read(body)
    }

    /// The sequence number of the last entry `txn` sees (0 when empty).
    package func lastSeq(in txn: borrowing some ReadableTransaction & ~Copyable) throws -> UInt64 {
        try Self.lastSeq(databases, in: txn)
    }

    /// The position up to which the projections have applied the log, as
    /// `txn` sees them: what a query answered from the projections
    /// reflects, and the head it reports. It may trail ``lastSeq(in:)``
    /// for the moment between the log's commit and the projections'.
    package func projectedSeq(in txn: borrowing some ReadableTransaction & ~Copyable) throws -> UInt64 {
        guard let meta = databases.projectionMeta else { return try lastSeq(in: txn) }
        return try ProjectionStore.applied(meta: meta, in: txn)
    }

    /// The sequence number of the last entry `txn` sees (0 when empty).
    static func lastSeq(
        _ databases: LogDatabases,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> UInt64 {
        try txn.withCursor(on: databases.log) { cursor in
            try cursor.last { key, _ in
                guard let seq = UInt64(bigEndianBytes: key) else {
                    throw LogError(.malformedEntry, "the log holds a key of \(key.count) bytes")
                }
                return seq
            }
        } ?? 0
    }

    /// Calls `body` with the entry at `seq` (its payload bytes unowned: they
    /// must not outlive `body`), or returns `nil` when there is none.
    package func withEntry<R>(
        at seq: UInt64,
        in txn: borrowing some ReadableTransaction & ~Copyable,
        _ body: (LogEntry, UnsafeRawBufferPointer?) throws -> R
    ) throws -> R? {
        try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value in
            let decoder = try decoder(readingFrom: txn)
            let stored = try decoder.decode(seq: seq, bytes: value)
            return try decoder.withContents(of: stored, seq: seq, bytes: value, withDigest: true, body)
        }
    }

    /// Calls `body` with the payload of the save at each of `seqs` (in
    /// ascending order), or `nil` for a delete, a purged save or a missing
    /// entry, walking one cursor: consecutive positions cost a step, not a
    /// search. The bytes must not outlive `body`.
    package func withPayloads(
        at seqs: [UInt64],
        in txn: borrowing some ReadableTransaction & ~Copyable,
        _ body: (Int, UnsafeRawBufferPointer?) throws -> Void
    ) throws {
        let decoder = try decoder(readingFrom: txn)
        try txn.withCursor(on: databases.log) { cursor in
            var position: UInt64 = 0
            for (index, seq) in seqs.enumerated() {
                let visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool = { key, value in
                    guard UInt64(bigEndianBytes: key) == seq else { return false }
                    let stored = try decoder.decode(seq: seq, bytes: value)
                    try decoder.withPayload(of: stored, seq: seq, bytes: value) { try body(index, $0) }
                    return true
                }
                let found: Bool?
                if position != 0 && seq == position + 1 {
                    found = try cursor.next(visit)
                } else {
                    found = try cursor.seek(atOrAfter: seq.bigEndianBytes, visit)
                }
                if found != true { try body(index, nil) }
                position = found == true ? seq : 0
            }
        }
    }

    /// The anchor of position `seq` in this log.
    package func anchor(atSeq seq: UInt64) -> Anchor {
        anchor(seq)
    }
}
