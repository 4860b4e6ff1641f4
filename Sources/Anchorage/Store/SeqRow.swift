import AnchorageModel
import Foundation
import LMDB

/// A row of the type/seq index: what the entry at that position means for
/// anchored queries now, so they read only the entries they report.
///
/// Layout: status (1) ‖ uuid (16) ‖ for deletes and revealed saves, the seq
/// of the object's save (8; 0 when the store never saw it).
///
/// Keys are kind (4) ‖ seq (8) for the entry's own row, and kind ‖ seq ‖ n
/// (1) for what the entry did to other objects (a save that outranks a
/// visible object by its sync version hides it; deleting that save reveals
/// the next one): merge rules that make the visible state the same on every
/// peer, whatever order their entries arrived in.
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
        /// An earlier save that became visible at this position, because
        /// the object that outranked it was deleted: reported as added
        /// (its payload is at `savedAt`).
        case revealedSave = 5

        /// Whether anchored queries report the row.
        var isReported: Bool { self == .visibleSave || self == .delete || self == .revealedSave }

        /// Whether the row carries the seq of a save.
        var pointsAtSave: Bool { self == .delete || self == .revealedSave }
    }

    var status: Status
    var id: UUID
    var savedAt: UInt64 = 0

    var bytes: [UInt8] {
        withBytes { Array($0) }
    }

    /// Calls `body` with the row's bytes in a stack buffer.
    @inline(__always)
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 25, alignment: 8) { buffer in
            buffer.storeBytes(of: status.rawValue, toByteOffset: 0, as: UInt8.self)
            withUnsafeBytes(of: id.uuid) {
                UnsafeMutableRawBufferPointer(rebasing: buffer[1..<17]).copyMemory(from: $0)
            }
            guard status.pointsAtSave else { return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<17])) }
            buffer.storeBytes(of: savedAt.bigEndian, toByteOffset: 17, as: UInt64.self)
            return try body(UnsafeRawBufferPointer(buffer))
        }
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
        self.savedAt = status.pointsAtSave && bytes.count >= 25 ? bytes.uint64(at: 17) : 0
    }
}
