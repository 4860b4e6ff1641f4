import AnchorageLog
import Foundation
import LMDB

/// Activity summaries in the index: `hk.settings` rows keyed `activity` ‖
/// the day (4 bytes, ``ActivityDay/keyBytes``), holding the seq of the
/// entry whose summary is visible for that day.
extension HealthIndex {
    static let activityPrefix = Array("activity".utf8)

    /// The settings key of `day`.
    static func activityKey(_ day: ActivityDay) -> [UInt8] {
        activityPrefix + day.keyBytes
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
        if let seq = try txn.withValue(forKey: key, in: settings, { $0.uint64(at: 0) }),
            let current = try lookup.entry(at: seq, in: txn), !entry.isLater(than: current)
        {
            return
        }
        try txn.put(entry.seq.bigEndianBytes, forKey: key, in: settings)
    }
}
