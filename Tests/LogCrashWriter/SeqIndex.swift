import AnchorageLog
import Foundation
import LMDB

/// The crash writer's projection: each entry's id under its sequence
/// number. A store killed between the log's commit and the projections'
/// must come back with one row per entry, equal to a replay.
struct SeqIndex: Projection {
    let bySeq: Database

    init(in txn: borrowing DatabaseOpener) throws {
        bySeq = try txn.database(named: "crash.bySeq")!
    }

    var name: String { "crash-seq-index" }
    var version: Int { 1 }
    var databases: [Database] { [bySeq] }

    func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        for entry in entries {
            try txn.put(
                withUnsafeBytes(of: entry.id.uuid) { Array($0) },
                forKey: entry.seq.bigEndianBytes,
                in: bySeq,
                options: .append
            )
        }
    }
}

/// Where `check` keeps the projection its factory made.
final class SeqIndexBox: @unchecked Sendable {
    var index: SeqIndex?
}
