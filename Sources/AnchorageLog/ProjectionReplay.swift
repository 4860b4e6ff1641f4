import LMDB

/// Rebuilds projections by replaying the log into their emptied databases.
enum ProjectionReplay {
    /// Entries handed to the projections at once during a replay.
    static let chunkSize = 1_024

    /// Empties every database of `projections` and applies each entry of the
    /// log to them in order; returns the number of entries replayed.
    static func rebuild(
        _ projections: [any Projection],
        databases: LogDatabases,
        in txn: borrowing WriteTransaction
    ) throws -> Int {
        guard !projections.isEmpty else { return 0 }
        for projection in projections {
            for database in projection.databases { try txn.removeAll(in: database) }
            projection.transactionWillBegin()
        }
        var count = 0
        var chunk: [LogEntry] = []
        chunk.reserveCapacity(chunkSize)
        try txn.withCursor(on: databases.log) { cursor in
            try cursor.scan { key, value in
                guard let seq = UInt64(bigEndianBytes: key) else {
                    throw LogError(.malformedEntry, "the log holds a key of \(key.count) bytes; keys are 8 bytes")
                }
                chunk.append(try EntryFormat.decode(seq: seq, bytes: value))
                if chunk.count == chunkSize {
                    for projection in projections {
                        try projection.apply(chunk, in: txn)
                        try projection.finish(in: txn)
                    }
                    chunk.removeAll(keepingCapacity: true)
                }
                count += 1
                return true
            }
        }
        for projection in projections where !chunk.isEmpty {
            try projection.apply(chunk, in: txn)
            try projection.finish(in: txn)
        }
        return count
    }
}
