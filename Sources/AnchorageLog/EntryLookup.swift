package import LMDB

/// Reads entries of the log inside a projection's write transaction, for
/// projections whose rules compare an incoming entry with an earlier one
/// (which of two saves of one id wins, which grant is the latest).
///
/// ```swift
/// let lookup = try EntryLookup(in: txn)   // in the projection factory
/// let earlier = try lookup.entry(at: record.saveSeq, in: txn)
/// ```
package struct EntryLookup: Sendable {
    private let log: Database

    /// Opens the log's database in the transaction that opens the projections.
    package init(in txn: borrowing DatabaseOpener) throws {
        log = try LogDatabases(in: txn).log
    }

    init(log: Database) {
        self.log = log
    }

    /// The entry at `seq` without its payload, or `nil` when there is none.
    package func entry(
        at seq: UInt64,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> LogEntry? {
        try txn.withValue(forKey: seq.bigEndianBytes, in: log) { value in
            try EntryFormat.decodeWithoutPayload(seq: seq, bytes: value)
        }
    }

    /// Calls `body` with the entry at `seq` and its payload (`nil` for a
    /// delete or a purged save); the bytes must not outlive `body`.
    package func withEntry<R>(
        at seq: UInt64,
        in txn: borrowing some ReadableTransaction & ~Copyable,
        _ body: (LogEntry, UnsafeRawBufferPointer?) throws -> R
    ) throws -> R? {
        try txn.withValue(forKey: seq.bigEndianBytes, in: log) { value in
            let entry = try EntryFormat.decodeWithoutPayload(seq: seq, bytes: value)
            let payload =
                entry.operation == .save && !EntryFormat.isPurged(value) ? EntryFormat.payloadBytes(of: value) : nil
            return try body(entry, payload)
        }
    }
}

extension LogEntry {
    /// Orders entries for last-writer-wins rules that must give the same
    /// answer on every peer, whatever order the entries arrived in: origin
    /// time first, then dot.
    package func isLater(than other: LogEntry) -> Bool {
        timestamp != other.timestamp ? timestamp > other.timestamp : other.dot < dot
    }
}
