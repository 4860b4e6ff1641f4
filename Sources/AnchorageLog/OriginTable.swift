import Foundation
import LMDB
import Synchronization

/// A format-2 store's origin numbers: number n (from 1) names `ids[n - 1]`.
/// Entries store the 4-byte number instead of the 16-byte origin id; the
/// `origin-numbers` database keeps the rows, which never change once
/// committed.
struct OriginTable: Sendable, Hashable {
    private(set) var ids: [StoreID] = []
    private var numbers: [StoreID: UInt32] = [:]
    /// The origin numbered last by ``number(registering:in:txn:)``: runs of
    /// one origin skip the lookup. A memo, not part of the value.
    private var last: (origin: StoreID, number: UInt32)?

    static func == (lhs: OriginTable, rhs: OriginTable) -> Bool { lhs.ids == rhs.ids }

    func hash(into hasher: inout Hasher) { hasher.combine(ids) }

    /// The origin id numbered `number`, or `nil` when there is none.
    @inline(__always)
    func id(_ number: UInt32) -> StoreID? {
        number >= 1 && Int(number) <= ids.count ? ids[Int(number) - 1] : nil
    }

    /// The number of `origin`, or `nil` when it has none yet.
    func number(of origin: StoreID) -> UInt32? {
        numbers[origin]
    }

    /// How many origins are numbered.
    var count: Int { ids.count }

    /// Numbers `origin` next and returns its number.
    mutating func append(_ origin: StoreID) -> UInt32 {
        ids.append(origin)
        let number = UInt32(ids.count)
        numbers[origin] = number
        return number
    }

    /// The number of `origin`, numbering it and writing its row in `txn`
    /// when it has none.
    mutating func number(
        registering origin: StoreID,
        in database: Database,
        txn: borrowing WriteTransaction
    ) throws -> UInt32 {
        if let last, last.origin == origin { return last.number }
        let number: UInt32
        if let known = numbers[origin] {
            number = known
        } else {
            number = append(origin)
            try txn.put(origin.uuid.bytes, forKey: number.bigEndianBytes, in: database)
        }
        last = (origin, number)
        return number
    }

    /// Adds the rows of `database` after the ones already held.
    mutating func load(
        from database: Database,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws {
        let stored = try txn.statistics(of: database).entries
        guard stored > ids.count else { return }
        try txn.withCursor(on: database) { cursor in
            try cursor.scan(from: UInt32(ids.count + 1).bigEndianBytes) { key, value in
                guard key.count == 4, value.count == 16,
                    UInt32(bigEndian: key.loadUnaligned(as: UInt32.self)) == UInt32(ids.count + 1)
                else {
                    throw LogError(.unsupportedFormat, "the origin-numbers database holds a damaged row")
                }
                let origin = StoreID(UUID(loadingFrom: value, at: 0))
                guard numbers[origin] == nil else {
                    throw LogError(.unsupportedFormat, "the origin-numbers database numbers \(origin) twice")
                }
                _ = append(origin)
                return true
            }
        }
    }
}

/// The origin numbers a store has committed, shared by its readers: each
/// read transaction adds the rows committed since the last one looked.
///
/// Only rows read in a read transaction (committed for good) are kept; a
/// write transaction's own rows stay with the writer until they commit, and
/// the writer then ``publish(_:)``es them.
final class OriginNumbers: Sendable {
    private let committed = Mutex(OriginTable())
    let database: Database?

    init(database: Database?, table: OriginTable = OriginTable()) {
        self.database = database
        committed.withLock { $0 = table }
    }

    /// The table as of `txn`, a read transaction: kept for the next reader.
    func table(in txn: borrowing ReadTransaction) throws -> OriginTable {
        var table = committed.withLock { $0 }
        guard let database else { return table }
        let before = table.count
        try table.load(from: database, in: txn)
        if table.count > before {
            let grown = table
            committed.withLock { if $0.count < grown.count { $0 = grown } }
        }
        return table
    }

    /// The table as of `txn`, which may be a write transaction: the rows it
    /// adds are not kept, as the transaction may yet be abandoned.
    func table(readingFrom txn: borrowing some ReadableTransaction & ~Copyable) throws -> OriginTable {
        var table = committed.withLock { $0 }
        if let database { try table.load(from: database, in: txn) }
        return table
    }

    /// Records a table the writer has committed.
    func publish(_ table: OriginTable) {
        committed.withLock { if $0.count < table.count { $0 = table } }
    }
}
