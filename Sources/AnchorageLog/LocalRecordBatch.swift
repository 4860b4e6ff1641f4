import Foundation
import LMDB

/// Records to append to the `local` database in one write transaction,
/// with the retention that prunes it.
struct LocalRecordBatch: Sendable {
    let values: [[UInt8]]
    let time: Date
    let retention: LocalRecordRetention

    /// The most older records one append removes beyond the ones it adds:
    /// pruning catches up with a shortened retention a little at a time,
    /// so no append costs more than a bounded amount.
    static let extraPruning = 256

    /// Appends the records after the last key and prunes; returns their keys.
    func store(in databases: LogDatabases, txn: borrowing WriteTransaction) throws -> [LocalRecordKey] {
        guard let local = databases.local else {
            throw LogError(.readOnly, "the store has no local-record database yet; a writer must open it first")
        }
        let last: LocalRecordKey? = try txn.withCursor(on: local) { cursor in
            try cursor.last { key, _ in LocalRecordKey(bytes: key) } ?? nil
        }
        let now = LocalRecordKey.milliseconds(time)
        var milliseconds = max(now, last?.milliseconds ?? 0)
        var number = last.map { $0.number &+ 1 } ?? 0
        var keys: [LocalRecordKey] = []
        for value in values {
            let key = LocalRecordKey(milliseconds: milliseconds, number: number)
            try txn.put(value, forKey: key.bytes, in: local, options: .append)
            keys.append(key)
            number &+= 1
            milliseconds = key.milliseconds
        }
        try prune(local, now: now, budget: values.count + Self.extraPruning, txn: txn)
        return keys
    }

    /// Removes up to `budget` of the oldest records that are too old or
    /// beyond the count.
    private func prune(_ local: Database, now: UInt64, budget: Int, txn: borrowing WriteTransaction) throws {
        var excess = 0
        if let maximumCount = retention.maximumCount {
            excess = max(0, try txn.statistics(of: local).entries - max(maximumCount, 0))
        }
        var cutoff: UInt64 = 0
        if let maximumAge = retention.maximumAge {
            let age = UInt64(max(0, maximumAge.components.seconds)) &* 1_000
            cutoff = now > age ? now - age : 0
        }
        var doomed: [[UInt8]] = []
        try txn.withCursor(on: local) { cursor in
            try cursor.scan { key, _ in
                guard doomed.count < budget, let parsed = LocalRecordKey(bytes: key) else { return false }
                guard doomed.count < excess || parsed.milliseconds < cutoff else { return false }
                doomed.append(Array(key))
                return true
            }
        }
        for key in doomed { _ = try txn.removeValue(forKey: key, in: local) }
    }
}
