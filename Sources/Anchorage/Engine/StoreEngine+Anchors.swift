import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension StoreEngine {
    /// The anchor of position `seq`.
    func queryAnchor(_ seq: UInt64) -> HKQueryAnchor {
        HKQueryAnchor(log.anchor(atSeq: seq))
    }

    /// The anchor at `seq` of a change read that began after `start`: a
    /// fleet copy's (or one resumed from a vector) also carries what the
    /// consumer has seen as a version vector, valid on every copy: `covered`
    /// (everything at or before `start`) and the entries after `start`
    /// through `seq`.
    func queryAnchor(
        _ seq: UInt64,
        after start: UInt64,
        covered: [StoreID: UInt64]?,
        in txn: borrowing ReadTransaction
    ) throws -> HKQueryAnchor {
        // One lookup, no decoding: this runs for every page of every feed.
        let fleetCopy = try index.settingSeq(HealthIndex.fleetEpochSetting, in: txn) != nil
        guard covered != nil || fleetCopy else { return queryAnchor(seq) }
        var vector = covered ?? [:]
        if start == 0 && covered == nil {
            vector = try log.dots(after: 0, through: seq, in: txn)
        } else {
            for (origin, counter) in try log.dots(after: start, through: seq, in: txn) {
                vector[origin] = max(vector[origin, default: 0], counter)
            }
        }
        return HKQueryAnchor(log.anchor(atSeq: seq), vector: vector)
    }

    /// The log's last position the indices and views reflect as `txn` sees
    /// them: the head every answer built from them reports.
    func head(in txn: borrowing some ReadableTransaction & ~Copyable) throws -> UInt64 {
        try log.projectedSeq(in: txn)
    }
}
