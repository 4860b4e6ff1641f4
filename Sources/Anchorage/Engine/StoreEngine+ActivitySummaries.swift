import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension StoreEngine {
    /// The stored summary of `day`, if any.
    func activitySummary(
        on day: ActivityDay,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> ActivitySummaryRecord? {
        guard
            let seq = try txn.withValue(forKey: HealthIndex.activityKey(day), in: index.settings, { $0.uint64(at: 0) })
        else { return nil }
        return try activitySummaryRecord(at: seq, in: txn)
    }

    /// The stored summaries from `first` through `last`, in day order.
    func activitySummaries(
        from first: ActivityDay?,
        through last: ActivityDay?,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [ActivitySummaryRecord] {
        var seqs: [UInt64] = []
        let prefix = HealthIndex.activityPrefix
        let start = first.map(HealthIndex.activityKey) ?? prefix
        let end = last.map(HealthIndex.activityKey)
        try txn.withCursor(on: index.settings) { cursor in
            try cursor.scan(from: start) { key, value in
                guard key.count == prefix.count + 4, key.starts(with: prefix) else { return false }
                if let end, !key.lexicographicallyPrecedes(end), !key.elementsEqual(end) { return false }
                seqs.append(value.uint64(at: 0))
                return true
            }
        }
        return try seqs.compactMap { seq in try activitySummaryRecord(at: seq, in: txn) }
    }

    /// The summary saved by the entry at `seq`, if it is one.
    func activitySummaryRecord(
        at seq: UInt64,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> ActivitySummaryRecord? {
        try log.withEntry(at: seq, in: txn) { _, payload in payload.flatMap(ActivitySummaryRecord.decoded) } ?? nil
    }
}
