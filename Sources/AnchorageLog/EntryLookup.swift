import Foundation
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
    /// Opens sealed entries: the store's key, which the log attaches to
    /// its environment.
    private let sealer: EntrySealer?
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
        databases = try LogDatabases(in: txn.environmentOpener)
        sealer = txn.userContext as? EntrySealer
    }

    /// The store's layout, read once.
    private func layout(in txn: borrowing some ReadableTransaction & ~Copyable) throws -> EntryLayout {
        if let known = self.layout.layout { return known }
        guard let format = try txn.value(forKey: MetaKey.format, in: databases.meta),
            let version = UInt32(bigEndianBytes: format), let found = EntryLayout(format: version)
        else {
            throw LogError(.unsupportedFormat, "the store's format record is missing or unknown")
        }
        self.layout.layout = found
        return found
    }

    /// Decodes the entry stored as `bytes`. In format 2 its origin number is
    /// resolved with one read of its own row in `txn` (committed or the
    /// transaction's own), not by loading the whole table.
    private func decode(
        seq: UInt64,
        bytes: UnsafeRawBufferPointer,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> StoredEntry {
        guard try layout(in: txn) == .compact else { return try ExchangeLayout.decode(seq: seq, bytes: bytes) }
        var origin: StoreID?
        if let number = CompactLayout.originNumber(of: bytes), let numbers = databases.originNumbers {
            origin =
                try txn.withValue(forKey: number.bigEndianBytes, in: numbers) { row in
                    row.count == 16 ? StoreID(UUID(loadingFrom: row, at: 0)) : nil
                } ?? nil
        }
        return try CompactLayout.decode(seq: seq, bytes: bytes, origin: { _ in origin })
    }

    /// The entry at `seq` without its payload, or `nil` when there is none.
    package func entry(
        at seq: UInt64,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> LogEntry? {
        try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value in
            let stored = try decode(seq: seq, bytes: value, in: txn)
            return try contentsDecoder.withContents(of: stored, seq: seq, bytes: value, withDigest: true) { entry, _ in
                entry
            }
        }
    }

    /// Calls `body` with the entry at `seq` and its payload (`nil` for a
    /// delete or a purged save); the bytes must not outlive `body`.
    package func withEntry<R>(
        at seq: UInt64,
        in txn: borrowing some ReadableTransaction & ~Copyable,
        _ body: (LogEntry, UnsafeRawBufferPointer?) throws -> R
    ) throws -> R? {
        try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value in
            let stored = try decode(seq: seq, bytes: value, in: txn)
            return try contentsDecoder.withContents(of: stored, seq: seq, bytes: value, withDigest: true, body)
        }
    }

    /// Opens sealed entries already decoded (the layout and origins play no
    /// part in that).
    private var contentsDecoder: EntryDecoder {
        EntryDecoder(layout: .compact, origins: OriginTable(), sealer: sealer)
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
