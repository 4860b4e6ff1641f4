import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// Activity summaries in the index, two kinds of `hk.settings` rows:
///
/// - `activity` ‖ the day (4 bytes, ``ActivityDay/keyBytes``) → the seq of
///   the entry whose summary is visible for that day;
/// - `summary-seq` ‖ that seq (8) → the day: the same rows by position,
///   so a change feed reads the days changed after an anchor in log order.
///   A day has one such row, at the entry that last changed it.
extension HealthIndex {
    static let activityPrefix = Array("activity".utf8)
    static let activitySeqPrefix = Array("summary-seq".utf8)

    /// The settings key of `day`.
    static func activityKey(_ day: ActivityDay) -> [UInt8] {
        activityPrefix + day.keyBytes
    }

    /// The settings key of the visible summary saved at `seq`.
    static func activitySeqKey(_ seq: UInt64) -> [UInt8] {
        activitySeqPrefix + seq.bigEndianBytes
    }

    /// Files a saved summary under its day: the latest by origin time, then
    /// dot, wins on every peer, whatever order entries arrive in. A payload
    /// that is not a valid summary is left out.
    func applyActivitySummary(_ entry: LogEntry, in txn: borrowing WriteTransaction) throws {
        guard entry.operation == .save, let payload = entry.payload,
            let record = payload.withUnsafeBytes({ ActivitySummaryRecord.decoded($0) }),
            let day = ActivityDay(text: record.day)
        else { return }
        let key = Self.activityKey(day)
        if let seq = try txn.withValue(forKey: key, in: settings, { $0.uint64(at: 0) }) {
            if let current = try lookup.entry(at: seq, in: txn), !entry.isLater(than: current) { return }
            _ = try txn.removeValue(forKey: Self.activitySeqKey(seq), in: settings)
        }
        try txn.put(entry.seq.bigEndianBytes, forKey: key, in: settings)
        try txn.put(day.keyBytes, forKey: Self.activitySeqKey(entry.seq), in: settings)
    }
}
