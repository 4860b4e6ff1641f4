import AnchorageLog
import AnchorageModel
import Foundation
import LMDB

/// Entry kinds the store uses for records that are not samples. Sample
/// kinds are their type's code (quantity 1001…, category 2001…,
/// correlation 3001…, workout 4001, series and the other sample kinds 7001…).
enum StoreKind {
    /// An authorization request or decision (section 7).
    static let authorization: EntryKind = 9001
    /// The person's characteristics, set by the owner (OBJ-29).
    static let characteristics: EntryKind = 9002
    /// Links between a container (a workout, a correlation) and samples
    /// (OBJ-24, OBJ-33).
    static let link: EntryKind = 9003
    /// A quantity type's source priority list, set by the owner (ST-27).
    static let sourcePriority: EntryKind = 9004
    /// The units the person prefers to see quantities in, set by the owner.
    static let preferredUnits: EntryKind = 9005
    /// A workout effort score related to (or unrelated from) a workout.
    static let effort: EntryKind = 9006
    /// A fleet epoch a newly placed or promoted primary began (``FleetEpoch``).
    static let fleetEpoch: EntryKind = 9007
    /// A day's activity summary (the activity summary type's code).
    static let activitySummary = EntryKind(rawValue: TypeCatalog.activitySummary.kindCode)
    /// A person's medication (the user-annotated medication type's code):
    /// not a sample, one visible per medication concept.
    static let userAnnotatedMedication = EntryKind(rawValue: TypeCatalog.userAnnotatedMedication.kindCode)

    /// Whether `kind` is a sample type's kind.
    static func isSample(_ kind: EntryKind) -> Bool {
        kind.rawValue >= 1000 && kind.rawValue < 5000
            || kind.rawValue > 7000 && kind.rawValue < 8000 && kind != userAnnotatedMedication
    }
}

/// Byte encodings of index keys: big-endian, so LMDB's order is numeric order.
enum IndexKey {
    /// An order-preserving 8-byte encoding of a date: the IEEE bits of its
    /// reference-date interval with the sign flipped (negative values: all
    /// bits flipped), so byte order equals date order for every date.
    static func date(_ date: Date) -> UInt64 {
        let bits = date.timeIntervalSinceReferenceDate.bitPattern
        return bits & (1 << 63) == 0 ? bits | (1 << 63) : ~bits
    }

    /// The reference-date seconds of a key made by ``date(_:)``.
    static func seconds(fromDateKey key: UInt64) -> Double {
        Double(bitPattern: key & (1 << 63) != 0 ? key & ~(1 << 63) : ~key)
    }

    /// The smallest date key.
    static let minimumDate: UInt64 = 0

    /// `kind ‖ a ‖ b`, the layout of the type/time and type/seq indices.
    static func kindKey(_ kind: EntryKind, _ a: UInt64, _ b: UInt64? = nil) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(20)
        withUnsafeBytes(of: kind.rawValue.bigEndian) { key.append(contentsOf: $0) }
        withUnsafeBytes(of: a.bigEndian) { key.append(contentsOf: $0) }
        if let b { withUnsafeBytes(of: b.bigEndian) { key.append(contentsOf: $0) } }
        return key
    }

    /// Calls `body` with `kind ‖ a ‖ b` in a stack buffer (no allocation).
    @inline(__always)
    static func withKindKey<R>(
        _ kind: EntryKind,
        _ a: UInt64,
        _ b: UInt64? = nil,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 20, alignment: 8) { buffer in
            buffer.storeBytes(of: kind.rawValue.bigEndian, toByteOffset: 0, as: UInt32.self)
            buffer.storeBytes(of: a.bigEndian, toByteOffset: 4, as: UInt64.self)
            if let b { buffer.storeBytes(of: b.bigEndian, toByteOffset: 12, as: UInt64.self) }
            return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<(b == nil ? 12 : 20)]))
        }
    }

    /// `kind ‖ tier ‖ start ‖ seq`, the layout of the type/time index
    /// (``DurationTier``); without `seq`, the 13-byte prefix of a scan.
    @inline(__always)
    static func withTimeKey<R>(
        _ kind: EntryKind,
        _ tier: UInt8,
        _ start: UInt64,
        _ seq: UInt64? = nil,
        _ body: (UnsafeRawBufferPointer) throws -> R
    ) rethrows -> R {
        try withUnsafeTemporaryAllocation(byteCount: 21, alignment: 8) { buffer in
            buffer.storeBytes(of: kind.rawValue.bigEndian, toByteOffset: 0, as: UInt32.self)
            buffer[4] = tier
            buffer.storeBytes(of: start.bigEndian, toByteOffset: 5, as: UInt64.self)
            if let seq { buffer.storeBytes(of: seq.bigEndian, toByteOffset: 13, as: UInt64.self) }
            return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<(seq == nil ? 13 : 21)]))
        }
    }

    /// Two uuids, for pair tables (correlation members, workout links).
    static func pair(_ a: UUID, _ b: UUID) -> [UInt8] {
        a.indexBytes + b.indexBytes
    }
}

extension UUID {
    /// The 16 bytes of the uuid.
    var indexBytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }

    /// A uuid from 16 bytes.
    init?(indexBytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 16 else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[..<16])) }
        self.init(uuid: raw)
    }
}

extension UnsafeRawBufferPointer {
    /// The big-endian `UInt64` at `offset`.
    func uint64(at offset: Int) -> UInt64 {
        UInt64(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The big-endian `UInt32` at `offset`.
    func uint32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

/// Samples grouped by how long they last, in the type/time index: a search
/// for the samples overlapping a range starts each group's scan at most its
/// longest duration before the range, so one long sample never makes every
/// search of its type read from the start of time.
enum DurationTier {
    /// The longest duration of each tier but the last, in seconds: 15
    /// minutes, 4 hours, a day, a week, 31 days, 366 days.
    static let bounds: [Double] = [900, 14_400, 86_400, 604_800, 2_678_400, 31_622_400]
    /// How many tiers there are; the last has no bound.
    static let count = bounds.count + 1

    /// The tier of a sample from `start` to `end` (date keys).
    static func of(start: UInt64, end: UInt64) -> UInt8 {
        let duration = IndexKey.seconds(fromDateKey: end) - IndexKey.seconds(fromDateKey: start)
        return UInt8(bounds.firstIndex { duration <= $0 } ?? bounds.count)
    }
}
