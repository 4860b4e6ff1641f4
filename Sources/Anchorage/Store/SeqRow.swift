import Foundation
import LMDB

/// A row of the type/seq index: what the entry at that position means for
/// anchored queries now, so they read only the entries they report.
///
/// Layout: status (1) ‖ uuid (16) ‖ for deletes, the seq of the deleted
/// object's save (8; 0 when the store never saw it).
struct SeqRow: Hashable, Sendable {
    enum Status: UInt8 {
        /// A save whose object is visible.
        case visibleSave = 1
        /// A save whose object was deleted, or a repeated save of a live id.
        case hiddenSave = 2
        /// The first delete of an object: reported as a deletion.
        case delete = 3
        /// A delete of an object already deleted: nothing to report.
        case ignoredDelete = 4
    }

    var status: Status
    var id: UUID
    var savedAt: UInt64 = 0

    var bytes: [UInt8] {
        var bytes = [status.rawValue] + id.indexBytes
        if status == .delete { bytes += savedAt.bigEndianBytes }
        return bytes
    }

    init(status: Status, id: UUID, savedAt: UInt64 = 0) {
        self.status = status
        self.id = id
        self.savedAt = savedAt
    }

    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 17, let status = Status(rawValue: bytes[0]),
            let id = UUID(indexBytes: UnsafeRawBufferPointer(rebasing: bytes[1..<17]))
        else { return nil }
        self.status = status
        self.id = id
        self.savedAt = status == .delete && bytes.count >= 25 ? bytes.uint64(at: 17) : 0
    }
}
