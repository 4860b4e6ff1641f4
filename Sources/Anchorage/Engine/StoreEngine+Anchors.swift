import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension StoreEngine {
    /// The anchor of position `seq`.
    func queryAnchor(_ seq: UInt64) -> HKQueryAnchor {
        HKQueryAnchor(log.anchor(atSeq: seq))
    }

    /// The log's last position the indices and views reflect as `txn` sees
    /// them: the head every answer built from them reports.
    func head(in txn: borrowing some ReadableTransaction & ~Copyable) throws -> UInt64 {
        try log.projectedSeq(in: txn)
    }
}
