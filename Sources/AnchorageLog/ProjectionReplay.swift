import LMDB

/// Rebuilds projections by replaying the log into their emptied databases.
enum ProjectionReplay {
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
        }
        var count = 0
        try txn.withCursor(on: databases.log) { cursor in
            try cursor.scan { key, value in
                guard let seq = UInt64(bigEndianBytes: key) else {
                    throw LogError(.malformedEntry, "the log holds a key of \(key.count) bytes; keys are 8 bytes")
                }
                let entry = try EntryFormat.decode(seq: seq, bytes: value)
                for projection in projections { try projection.apply(entry, in: txn) }
                count += 1
                return true
            }
        }
        return count
    }
}
