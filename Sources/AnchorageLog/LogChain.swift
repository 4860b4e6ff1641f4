import Foundation
import LMDB

/// Finds hash-chain links in a log whose layout may keep them only at
/// intervals (log format 2).
enum LogChain {
    /// The link of the entry at `seq` (zero for 0): the stored one, or one
    /// recomputed from the nearest stored link before it.
    ///
    /// - Throws: ``LogError/Code/malformedEntry`` when an entry on the way
    ///   is damaged or the log has no entry at `seq`.
    static func link(
        at seq: UInt64,
        decoder: EntryDecoder,
        log: Database,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> EntryDigest {
        guard seq > 0 else { return .zero }
        var headers: [EntryFormat.Header] = []
        var start = EntryDigest.zero
        var expected = seq
        var complete = false
        try txn.withCursor(on: log) { cursor in
            try cursor.scanReversed(from: seq.bigEndianBytes) { key, value in
                guard let found = UInt64(bigEndianBytes: key), found == expected else {
                    throw LogError.malformedEntry(expected, "it is missing from the log")
                }
                let stored = try decoder.decode(seq: found, bytes: value)
                if let link = stored.storedLink {
                    start = link
                    complete = true
                    return false
                }
                headers.append(stored.header(in: value))
                expected -= 1
                complete = expected == 0
                return !complete
            }
        }
        guard complete else {
            throw LogError.malformedEntry(expected, "it is missing from the log")
        }
        var link = start
        for header in headers.reversed() {
            link = EntryFormat.link(previous: link, header: header)
        }
        return link
    }
}

extension EventLog {
    /// The hash-chain link of the entry at `seq` (zero for 0), as
    /// docs/log-format.md defines it: stored with the entry, or recomputed
    /// from the nearest link stored before it.
    ///
    /// ```swift
    /// var link = try log.link(at: since)
    /// for entry in page.entries { link = entry.link(after: link) }
    /// ```
    ///
    /// - Throws: ``LogError/Code/anchorAhead`` for a position past the head,
    ///   ``LogError/Code/malformedEntry`` for a damaged entry.
    public func link(at seq: UInt64) throws -> EntryDigest {
        try read { txn in
            let head = try lastSeq(in: txn)
            guard seq <= head else {
                throw LogError(.anchorAhead, "there is no entry \(seq): this log ends at \(head)")
            }
            return try LogChain.link(at: seq, decoder: try decoder(in: txn), log: databases.log, in: txn)
        }
    }

    /// The layout and origin numbers to decode the entries `txn` sees.
    func decoder(in txn: borrowing ReadTransaction) throws -> EntryDecoder {
        EntryDecoder(
            layout: layout,
            origins: layout == .compact ? try origins.table(in: txn) : OriginTable(),
            sealer: sealing.sealer
        )
    }

    /// The decoder for any transaction, a write transaction's own origin
    /// numbers included.
    func decoder(readingFrom txn: borrowing some ReadableTransaction & ~Copyable) throws -> EntryDecoder {
        EntryDecoder(
            layout: layout,
            origins: layout == .compact ? try origins.table(readingFrom: txn) : OriginTable(),
            sealer: sealing.sealer
        )
    }
}

extension EntryDecoder {
    /// The decoder for a write transaction, with the origin numbers it sees
    /// (committed or its own).
    init(_ layout: EntryLayout, databases: LogDatabases, inWrite txn: borrowing WriteTransaction) throws {
        var origins = OriginTable()
        if layout == .compact, let numbers = databases.originNumbers { try origins.load(from: numbers, in: txn) }
        self.init(layout: layout, origins: origins)
    }
}
