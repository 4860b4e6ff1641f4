public import Foundation
import LMDB

/// One page of node-local records, oldest first.
public struct LocalRecordPage: Sendable {
    /// The records, each with its key.
    public var records: [(key: LocalRecordKey, value: [UInt8])]
    /// Where the next page starts (pass it as `after`), or `nil` when the
    /// range holds no more.
    public var next: LocalRecordKey?
}

extension EventLog {
    /// Appends node-local records, such as an access log's entries, and
    /// removes the oldest ones `retention` no longer keeps (a bounded
    /// number per call). The records belong to this node alone: they are
    /// never replicated and are outside the hash chain, the state digest
    /// and the projections. The append waits its turn with the writer's
    /// batches, shares their group commit, and is durable when this returns.
    ///
    /// ```swift
    /// let keys = try await log.appendLocalRecords([Array(json.utf8)], at: Date(), retention: retention)
    /// ```
    ///
    /// A log opened for reading appends them too when its configuration
    /// says ``Configuration/appendsLocalRecordsWhenReading``: in a write
    /// transaction of its own, on the calling thread, after waiting for
    /// LMDB's write lock (held by the writing process only while it
    /// commits).
    ///
    /// - Parameter time: when the records were made; keys never go back, so
    ///   an earlier time than the last record's is recorded at that record's.
    /// - Throws: ``LogError`` `invalidArgument` for a record over 64 KiB,
    ///   `readOnly` for a log opened for reading without
    ///   ``Configuration/appendsLocalRecordsWhenReading``; storage errors.
    @discardableResult
    public func appendLocalRecords(
        _ values: [[UInt8]],
        at time: Date,
        retention: LocalRecordRetention
    ) async throws -> [LocalRecordKey] {
        guard !values.isEmpty else { return [] }
        guard values.allSatisfy({ $0.count <= 65_536 }) else {
            throw LogError(.invalidArgument, "a local record is at most 64 KiB")
        }
        let batch = LocalRecordBatch(values: values, time: time, retention: retention)
        if isReadOnly && configuration.appendsLocalRecordsWhenReading {
            return try store().environment.writeWithoutCompanion { txn in try batch.store(in: databases, txn: txn) }
        }
        let bytes = values.reduce(0) { $0 + $1.count }
        let outcome = try await writing().submit(.appendLocal(batch), entryCount: 0, byteCount: bytes)
        guard case .localAppended(let keys) = outcome else {
            preconditionFailure("appending local records produced \(outcome)")
        }
        return keys
    }

    /// Up to `limit` node-local records after `after` (or from `from`)
    /// and before `to`, oldest first. The cost is bounded by `limit`.
    ///
    /// ```swift
    /// var page = try log.localRecords(after: nil, from: nil, to: nil, limit: 100)
    /// while let next = page.next { page = try log.localRecords(after: next, from: nil, to: nil, limit: 100) }
    /// ```
    public func localRecords(after: LocalRecordKey?, from: Date?, to: Date?, limit: Int) throws -> LocalRecordPage {
        let limit = max(1, limit)
        var start = from.map(LocalRecordKey.init(atOrAfter:)) ?? LocalRecordKey(milliseconds: 0, number: 0)
        if let after, after >= start {
            if after.number < .max {
                start = LocalRecordKey(milliseconds: after.milliseconds, number: after.number + 1)
            } else if after.milliseconds < .max {
                start = LocalRecordKey(milliseconds: after.milliseconds + 1, number: 0)
            } else {
                return LocalRecordPage(records: [], next: nil)
            }
        }
        return try page(from: start, to: to, limit: limit)
    }

    /// Whether `key` could have come from a page of node-local records: it
    /// names a record kept, or one older than every record kept (removed by
    /// retention since). A key inside the kept range that names no record,
    /// or past the newest, was never handed out.
    ///
    /// ```swift
    /// guard try log.isKnownLocalRecordKey(cursor) else { throw … }
    /// ```
    public func isKnownLocalRecordKey(_ key: LocalRecordKey) throws -> Bool {
        try read { txn in
            guard let local = databases.local else { return false }
            if try txn.contains(key: key.bytes, in: local) { return true }
            let oldest = try txn.withCursor(on: local) { cursor in
                try cursor.first { key, _ in LocalRecordKey(bytes: key) }
            }
            // Nothing kept: nothing was ever handed out, since retention
            // never removes the record an append has just added.
            guard let oldest = oldest ?? nil else { return false }
            return key < oldest
        }
    }

    private func page(from start: LocalRecordKey, to: Date?, limit: Int) throws -> LocalRecordPage {
        let end = to.map(LocalRecordKey.init(atOrAfter:))
        return try read { txn in
            guard let local = databases.local else {
                return LocalRecordPage(records: [], next: nil)
            }
            var records: [(key: LocalRecordKey, value: [UInt8])] = []
            var more = false
            try txn.withCursor(on: local) { cursor in
                try cursor.scan(from: start.bytes) { key, value in
                    guard let parsed = LocalRecordKey(bytes: key) else { return true }
                    if let end, parsed >= end { return false }
                    guard records.count < limit else {
                        more = true
                        return false
                    }
                    records.append((parsed, Array(value)))
                    return true
                }
            }
            return LocalRecordPage(records: records, next: more ? records.last?.key : nil)
        }
    }
}
