import Foundation
import LMDB

/// What `meta/sealing` records: key id (16 bytes), then for each key
/// version a store was sealed under, the version (2 bytes, big-endian) and
/// its key check (16 bytes).
struct SealingRecord: Hashable {
    var keyID: KeyID
    var checks: [UInt16: [UInt8]]

    static let key = Array("sealing".utf8)

    init(keyID: KeyID, checks: [UInt16: [UInt8]]) {
        self.keyID = keyID
        self.checks = checks
    }

    init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= 16, (bytes.count - 16) % 18 == 0 else { return nil }
        keyID = KeyID(UUID(loadingFrom: bytes, at: 0))
        checks = [:]
        var offset = 16
        while offset < bytes.count {
            let version = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
            checks[version] = Array(bytes[offset + 2..<offset + 18])
            offset += 18
        }
    }

    var bytes: [UInt8] {
        var bytes = keyID.uuid.bytes
        for version in checks.keys.sorted() {
            bytes += [UInt8(version >> 8), UInt8(version & 0xFF)]
            bytes += checks[version]!
        }
        return bytes
    }

    /// The store's record, `nil` for a store that is not sealed.
    static func read(
        _ databases: LogDatabases,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> SealingRecord? {
        let found = try txn.withValue(forKey: key, in: databases.meta) { value -> SealingRecord? in
            guard let record = SealingRecord(bytes: value) else {
                throw LogError(.unsupportedFormat, "the store's sealing record is damaged (\(value.count) bytes)")
            }
            return record
        }
        return found ?? nil
    }

    /// Checks an open's sealing against the store's record. Returns the
    /// record the store must hold after the open when it differs from
    /// `recorded` (a store becoming sealed, a key version new to it), or
    /// `nil` when nothing changes.
    static func reconcile(
        _ sealing: StoreSealing,
        recorded: SealingRecord?,
        holdsEntries: Bool,
        layout: EntryLayout,
        hasProjections: Bool,
        path: String
    ) throws(LogError) -> SealingRecord? {
        switch (sealing, recorded) {
        case (.off, nil):
            return nil
        case (.off, let record?):
            throw LogError(
                .keyUnavailable,
                "the store at \(path) is sealed under data key \(record.keyID); open it with that key (or keyless, "
                    + "to store and verify its entries without reading them)"
            )
        case (.keyless(let id), let record):
            guard !hasProjections else {
                throw LogError(
                    .invalidArgument,
                    "a store opened without its key keeps no projections; open it with none"
                )
            }
            if let record {
                guard record.keyID == id else { throw wrongKeyID(record.keyID, given: id, path: path) }
                return nil
            }
            guard !holdsEntries else { throw unsealedStore(path) }
            return SealingRecord(keyID: id, checks: [:])
        case (.keys(let sealer), let record):
            guard layout == .compact else {
                throw LogError(
                    .unsupportedFormat,
                    "the store at \(path) is in log format 1; migrate it (anchorage migrate) before sealing it"
                )
            }
            guard let record else {
                guard !holdsEntries else { throw unsealedStore(path) }
                return SealingRecord(keyID: sealer.keyID, checks: sealer.checks)
            }
            guard record.keyID == sealer.keyID else { throw wrongKeyID(record.keyID, given: sealer.keyID, path: path) }
            var updated = record
            for (version, check) in sealer.checks {
                if let known = record.checks[version] {
                    guard known == check else {
                        throw LogError(
                            .wrongKey,
                            "the data key given for the store at \(path) (key \(record.keyID), version \(version)) is "
                                + "not the one its entries were sealed under; find the right key (the key provider "
                                + "that wrapped it) rather than a new one"
                        )
                    }
                } else {
                    updated.checks[version] = check
                }
            }
            return updated == record ? nil : updated
        }
    }

    /// Reads the store's record and checks an open's sealing against it
    /// (``reconcile(_:recorded:holdsEntries:layout:hasProjections:path:)``).
    static func reconcile(
        _ sealing: StoreSealing,
        _ databases: LogDatabases,
        in txn: borrowing some ReadableTransaction & ~Copyable,
        head: UInt64,
        layout: EntryLayout,
        projections: [any Projection],
        path: String
    ) throws -> SealingRecord? {
        try reconcile(
            sealing,
            recorded: try read(databases, in: txn),
            holdsEntries: head > 0,
            layout: layout,
            hasProjections: !projections.isEmpty,
            path: path
        )
    }

    private static func wrongKeyID(_ recorded: KeyID, given: KeyID, path: String) -> LogError {
        LogError(
            .wrongKey,
            "the store at \(path) is sealed under data key \(recorded), not \(given); open it with its own key"
        )
    }

    private static func unsealedStore(_ path: String) -> LogError {
        LogError(
            .unsealedEntry,
            "the store at \(path) holds entries that are not sealed; sealing an existing store is an explicit step "
                + "(anchorage keys seal), not a side effect of opening it with a key"
        )
    }
}
