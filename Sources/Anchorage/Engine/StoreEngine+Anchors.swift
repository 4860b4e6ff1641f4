import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

extension StoreEngine {
    /// The anchor of position `seq`.
    func queryAnchor(_ seq: UInt64) -> HKQueryAnchor {
        HKQueryAnchor(log.anchor(atSeq: seq))
    }

    /// The log's last position as `txn` sees it, as an ``HKError``.
    func head(in txn: borrowing some ReadableTransaction & ~Copyable) throws -> UInt64 {
        try log.lastSeq(in: txn)
    }
}
