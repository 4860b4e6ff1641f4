import Foundation
import LMDB

/// The log's own databases. docs/log-format.md describes their keys and values.
struct LogDatabases: Sendable {
    /// seq (8 bytes, big-endian) → entry bytes; written with `MDB_APPEND`.
    let log: Database
    /// Store identity and bookkeeping, under ASCII keys (``MetaKey``).
    let meta: Database
    /// The version vector: origin id (16 bytes) → highest counter applied (8 bytes).
    let origins: Database
    /// Peer store id (16 bytes) → peer incarnation (8 bytes) ‖ last peer seq applied (8 bytes).
    let checkpoints: Database
    /// Named consumer cursors (UTF-8 name → the consumer's bytes): this
    /// node's own bookkeeping, never replicated, outside the chain.
    let cursors: Database
    /// Node-local records (``LocalRecordKey`` → the caller's bytes), such
    /// as an access log: never replicated, outside the chain and the digest.
    /// `nil` in a store opened for reading that no writer of this version
    /// has opened yet.
    let local: Database?
    /// Format 2's origin numbers: number (4 bytes, big-endian, dense from
    /// 1) → origin id (16 bytes). `nil` in a store opened for reading that
    /// no writer of this version has opened yet.
    let originNumbers: Database?
    /// The projections' own `meta` (in `projections.mdb`): the last entry
    /// they applied and each one's version. `nil` for a store read in the
    /// layout of earlier versions, its projections beside the log.
    var projectionMeta: Database?

    /// Where the projections' versions are recorded.
    var projectionVersions: Database { projectionMeta ?? meta }

    static let names = ["log", "meta", "origins", "checkpoints", "cursors", "local", "origin-numbers"]

    /// The version vector as stored in `origins`.
    func versionVector<Transaction: ReadableTransaction & ~Copyable>(
        in txn: borrowing Transaction
    ) throws -> [StoreID: UInt64] {
        var vector: [StoreID: UInt64] = [:]
        try txn.withCursor(on: origins) { cursor in
            try cursor.scan { key, value in
                guard key.count == 16, let counter = UInt64(bigEndianBytes: value) else {
                    throw LogError(.unsupportedFormat, "the version vector holds a damaged row")
                }
                vector[StoreID(UUID(loadingFrom: key, at: 0))] = counter
                return true
            }
        }
        return vector
    }

    /// Opens the log's databases: creating them in a write transaction;
    /// in a read transaction, failing with `unsupportedFormat` if one is
    /// missing.
    init(in txn: borrowing DatabaseOpener) throws {
        func open(_ name: String) throws -> Database {
            guard let database = try txn.database(named: name) else {
                throw LogError(.unsupportedFormat, "the store has no \(name) database; it was not written by Anchorage")
            }
            return database
        }
        log = try open("log")
        meta = try open("meta")
        origins = try open("origins")
        checkpoints = try open("checkpoints")
        cursors = try open("cursors")
        local = try txn.database(named: "local")
        originNumbers = try txn.database(named: "origin-numbers")
    }
}

/// Keys of the `meta` database.
enum MetaKey {
    /// The log format version (4 bytes, big-endian).
    static let format = Array("format".utf8)
    /// The store id (16 bytes).
    static let store = Array("store".utf8)
    /// The incarnation (8 bytes, big-endian).
    static let incarnation = Array("incarnation".utf8)
    /// The origin id this incarnation writes its own entries under (16 bytes).
    static let origin = Array("origin".utf8)
    /// Present in a backup copy: its first open starts a new incarnation.
    static let reincarnate = Array("reincarnate".utf8)

    /// The recorded version of a projection (4 bytes, big-endian).
    static func projection(_ name: String) -> [UInt8] {
        Array("projection/\(name)".utf8)
    }

    /// The projection a ``projection(_:)`` key names.
    static func projectionName(of key: [UInt8]) -> String {
        String(decoding: key.dropFirst(projection("").count), as: UTF8.self)
    }

    /// The ``projection(_:)`` keys `database` holds: the projections whose
    /// versions it records.
    static func projectionKeys(
        in database: Database,
        _ txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [[UInt8]] {
        let prefix = projection("")
        var keys: [[UInt8]] = []
        try txn.withCursor(on: database) { cursor in
            try cursor.scan(from: prefix) { key, _ in
                guard key.starts(with: prefix) else { return false }
                keys.append(Array(key))
                return true
            }
        }
        return keys
    }
}

/// Who this store is, fixed for as long as it is open.
struct StoreIdentity: Sendable, Hashable {
    /// The store's permanent id; anchors name it.
    let storeID: StoreID
    /// Changes when the store is restored from a backup; anchors name it.
    let incarnation: UInt64
    /// The origin of entries created here during this incarnation. The first
    /// incarnation's origin is the store id; each later one gets a new
    /// origin, so a restored store never reuses a dot it handed out before.
    let originID: StoreID
    /// How the store lays out its entries: log format 1 or 2.
    let layout: EntryLayout
}
