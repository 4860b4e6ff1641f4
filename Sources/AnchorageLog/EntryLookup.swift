package import LMDB
import Synchronization

/// Reads entries of the log inside a projection's write transaction, for
/// projections whose rules compare an incoming entry with an earlier one
/// (which of two saves of one id wins, which grant is the latest).
///
/// ```swift
/// let lookup = try EntryLookup(in: txn)   // in the projection factory
/// let earlier = try lookup.entry(at: record.saveSeq, in: txn)
/// ```
package struct EntryLookup: Sendable {
    private let databases: LogDatabases
    /// The store's layout, read from `meta` at the first lookup (a store's
    /// format changes only while it is closed).
    private let layout = LayoutMemo()

    /// Holds the layout once read.
    private final class LayoutMemo: Sendable {
        private let value = Mutex<EntryLayout?>(nil)
        var layout: EntryLayout? {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    /// Opens the log's databases in the transaction that opens the projections.
    package init(in txn: borrowing DatabaseOpener) throws {
        databases = try LogDatabases(in: txn)
    }

    /// The decoder for `txn`, whose own origin numbers it sees.
    private func decoder(in txn: borrowing some ReadableTransaction & ~Copyable) throws -> EntryDecoder {
        let layout: EntryLayout
        if let known = self.layout.layout {
            layout = known
        } else {
            guard let format = try txn.value(forKey: MetaKey.format, in: databases.meta),
                let version = UInt32(bigEndianBytes: format), let found = EntryLayout(format: version)
            else {
                throw LogError(.unsupportedFormat, "the store's format record is missing or unknown")
            }
            layout = found
            self.layout.layout = found
        }
        var origins = OriginTable()
        if layout == .compact, let numbers = databases.originNumbers { try origins.load(from: numbers, in: txn) }
        return EntryDecoder(layout: layout, origins: origins)
    }

    /// The entry at `seq` without its payload, or `nil` when there is none.
    package func entry(
        at seq: UInt64,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> LogEntry? {
        let decoder = try decoder(in: txn)
        return try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value in
            try decoder.decode(seq: seq, bytes: value).entryWithDigest(seq: seq, in: value)
        }
    }

    /// Calls `body` with the entry at `seq` and its payload (`nil` for a
    /// delete or a purged save); the bytes must not outlive `body`.
    package func withEntry<R>(
        at seq: UInt64,
        in txn: borrowing some ReadableTransaction & ~Copyable,
        _ body: (LogEntry, UnsafeRawBufferPointer?) throws -> R
    ) throws -> R? {
        let decoder = try decoder(in: txn)
        return try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value in
            let stored = try decoder.decode(seq: seq, bytes: value)
            return try body(stored.entryWithDigest(seq: seq, in: value), stored.payload(in: value))
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
