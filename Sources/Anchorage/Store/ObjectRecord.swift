import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// A row of the object index: what the store knows of one uuid without
/// reading the log (OBJ-1, OBJ-26, OBJ-34).
///
/// Layout: state (1) ‖ kind (4) ‖ save seq (8) ‖ delete seq (8) ‖ start key
/// (8) ‖ end key (8) ‖ sync key length (1: 0 or 32) ‖ reported seq (8) ‖
/// reported n (1) ‖ sync key ‖ source bundle identifier (UTF-8, rest).
struct ObjectRecord: Hashable, Sendable {
    enum State: UInt8 {
        /// Saved and not deleted: visible.
        case live = 1
        /// Deleted (a tombstone); stays deleted whatever arrives later.
        case deleted = 2
        /// Saved and not deleted, but hidden by another object of the same
        /// source and sync identifier with a higher version (or the same
        /// version and a smaller dot): two peers replaced one object
        /// concurrently. It becomes visible again if the winner is deleted.
        case superseded = 3
    }

    var state: State
    var kind: EntryKind
    /// The entry that saved the object; 0 when only its deletion is known.
    var saveSeq: UInt64
    /// The entry that deleted it; 0 while live.
    var deleteSeq: UInt64
    var startKey: UInt64
    var endKey: UInt64
    /// Who saved it; empty when only its deletion is known.
    var source: String
    /// The key of its row in the sync identifier index, if it has one.
    var syncKey: [UInt8] = []
    /// Where the type/seq index reports the object now (added or deleted):
    /// the seq of that row and its n (0 for the entry's own row); seq 0
    /// when it is reported nowhere. An object has one reported row at a
    /// time, so a feed read from the start reports it once.
    var reportedSeq: UInt64 = 0
    var reportedSub: UInt8 = 0

    static let fixedSize = 47

    var isLive: Bool { state == .live }

    var bytes: [UInt8] {
        withBytes { Array($0) }
    }

    /// Calls `body` with the row's bytes in a temporary buffer.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var source = source
        return try source.withUTF8 { sourceBytes in
            let count = Self.fixedSize + syncKey.count + sourceBytes.count
            return try withUnsafeTemporaryAllocation(byteCount: count, alignment: 8) { buffer in
                buffer.storeBytes(of: state.rawValue, toByteOffset: 0, as: UInt8.self)
                buffer.storeBytes(of: kind.rawValue.bigEndian, toByteOffset: 1, as: UInt32.self)
                buffer.storeBytes(of: saveSeq.bigEndian, toByteOffset: 5, as: UInt64.self)
                buffer.storeBytes(of: deleteSeq.bigEndian, toByteOffset: 13, as: UInt64.self)
                buffer.storeBytes(of: startKey.bigEndian, toByteOffset: 21, as: UInt64.self)
                buffer.storeBytes(of: endKey.bigEndian, toByteOffset: 29, as: UInt64.self)
                buffer.storeBytes(of: UInt8(syncKey.count), toByteOffset: 37, as: UInt8.self)
                buffer.storeBytes(of: reportedSeq.bigEndian, toByteOffset: 38, as: UInt64.self)
                buffer.storeBytes(of: reportedSub, toByteOffset: 46, as: UInt8.self)
                var offset = Self.fixedSize
                syncKey.withUnsafeBytes {
                    UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + $0.count]).copyMemory(from: $0)
                }
                offset += syncKey.count
                UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]).copyMemory(
                    from: UnsafeRawBufferPointer(sourceBytes)
                )
                return try body(UnsafeRawBufferPointer(buffer))
            }
        }
    }

    /// The fixed fields of a row, without decoding its strings: state,
    /// kind, save seq and start key; `nil` for bytes this version did not
    /// write.
    static func summary(
        _ bytes: UnsafeRawBufferPointer
    ) -> (state: State, kind: EntryKind, saveSeq: UInt64, startKey: UInt64)? {
        guard bytes.count >= fixedSize, let state = State(rawValue: bytes[0]) else { return nil }
        return (state, EntryKind(rawValue: bytes.uint32(at: 1)), bytes.uint64(at: 5), bytes.uint64(at: 21))
    }
}

extension ObjectRecord {
    /// Reads a row; `nil` for bytes this version did not write.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.fixedSize, let state = State(rawValue: bytes[0]) else { return nil }
        self.state = state
        self.kind = EntryKind(rawValue: bytes.uint32(at: 1))
        self.saveSeq = bytes.uint64(at: 5)
        self.deleteSeq = bytes.uint64(at: 13)
        self.startKey = bytes.uint64(at: 21)
        self.endKey = bytes.uint64(at: 29)
        self.reportedSeq = bytes.uint64(at: 38)
        self.reportedSub = bytes[46]
        let syncLength = Int(bytes[37])
        guard syncLength == 0 || syncLength == 32, bytes.count >= Self.fixedSize + syncLength else { return nil }
        self.syncKey = Array(bytes[Self.fixedSize..<Self.fixedSize + syncLength])
        self.source = String(
            decoding: UnsafeRawBufferPointer(rebasing: bytes[(Self.fixedSize + syncLength)...]),
            as: UTF8.self
        )
    }
}
