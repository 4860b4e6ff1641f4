public import Foundation
import LMDB

extension EventLog {
    /// Whether a store seals its entries, and with what.
    ///
    /// A sealed store records its key id and, for every key version it
    /// was given, a 16-byte key check (never a key) in `meta/sealing`; an
    /// open with another key fails at once with ``LogError/Code/wrongKey``.
    ///
    /// ```swift
    /// configuration.sealing = .sealed([DataKey.generate()])
    /// ```
    public enum Sealing: Sendable {
        /// Entries are stored as they are (the default). A sealed store
        /// refuses this open with ``LogError/Code/keyUnavailable``.
        case off
        /// Entries appended are sealed under the highest version of these
        /// keys (versions of one key id); entries of every given version
        /// open. A new store, or an empty one, becomes sealed; a store
        /// holding unsealed entries refuses it (``LogError/Code/unsealedEntry``).
        case sealed([DataKey])
        /// The store is sealed under this key id, and this node does not
        /// hold the key (a relay, a backup peer): it stores, forwards,
        /// verifies and purges entries, never opens one; it cannot append,
        /// and keeps no projections.
        case keyless(KeyID)

        /// The key id, when there is one.
        public var keyID: KeyID? {
            switch self {
            case .off: nil
            case .sealed(let keys): keys.first?.id
            case .keyless(let id): id
            }
        }
    }
}

/// How an open store seals: the resolved form of ``EventLog/Sealing``.
enum StoreSealing: Sendable {
    case off
    case keys(EntrySealer)
    case keyless(KeyID)

    /// Resolves a configuration's sealing (checks the keys given).
    init(_ sealing: EventLog.Sealing) throws(LogError) {
        switch sealing {
        case .off: self = .off
        case .sealed(let keys): self = .keys(try EntrySealer(keys: keys))
        case .keyless(let id): self = .keyless(id)
        }
    }

    var sealer: EntrySealer? {
        if case .keys(let sealer) = self { return sealer }
        return nil
    }

    var keyID: KeyID? {
        switch self {
        case .off: nil
        case .keys(let sealer): sealer.keyID
        case .keyless(let id): id
        }
    }

    var isSealed: Bool { keyID != nil }
}

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

extension EventLog {
    /// The key id the store is sealed under; `nil` for a store that does
    /// not seal.
    public var sealingKeyID: KeyID? { sealing.keyID }

    /// Refuses entries from a peer that do not match the store's sealing:
    /// plaintext entries in a sealed store, sealed ones in a store that
    /// holds no key id.
    func checkSealing(of entries: [LogEntry]) throws(LogError) {
        let sealed = sealing.isSealed
        for entry in entries where entry.isSealed != sealed {
            if sealed {
                throw LogError(
                    .unsealedEntry,
                    "entry \(entry.dot) is not sealed, and this store (\(storeID)) accepts only entries sealed under "
                        + "data key \(sealing.keyID!); nothing of the batch was applied",
                    seq: entry.seq
                )
            }
            throw LogError(
                .keyUnavailable,
                "entry \(entry.dot) is sealed, and this store (\(storeID)) is not; open it sealed under the entry's "
                    + "data key (or keyless) to receive it; nothing of the batch was applied",
                seq: entry.seq
            )
        }
    }

    /// A sealed entry from a peer with its digest computed (and checked
    /// against the one it came with) and, when the store holds the key,
    /// opened: its envelope authenticated and bound to its dot.
    static func sealedDigested(_ entry: LogEntry, sealer: EntrySealer?) throws(LogError) -> LogEntry {
        var entry = entry
        guard let envelope = entry.envelope else { return entry }
        let digest = EntryDigest.of(envelope)
        if let stored = entry.storedDigest, stored != digest {
            throw LogError(
                .invalidEvent,
                "entry \(entry.dot) is damaged: its sealed envelope does not match its digest",
                seq: entry.seq
            )
        }
        if let fault = envelope.withUnsafeBytes({ SealedEnvelope.structuralFault(of: $0) }) {
            throw LogError(.invalidEvent, "entry \(entry.dot) is damaged: \(fault)", seq: entry.seq)
        }
        entry.storedDigest = digest
        guard let sealer else { return entry }
        let opened = try envelope.withUnsafeBytes { region in
            Result { () throws(LogError) in
                try sealer.open(region, operation: entry.operation, dot: entry.dot, seq: entry.seq)
            }
        }.get()
        var result = LogEntry(opened: opened, sealed: entry)
        if entry.operation == .save { result.payload = EntryPayload(opened.payload) }
        return result
    }
}

extension EventLog {
    /// The key id the store in `directory` is sealed under, read without
    /// opening it as a log (nothing is written): `nil` for a store that
    /// does not seal. For tools that must choose how to open a store, such
    /// as an audit without the key.
    ///
    /// ```swift
    /// if let id = try EventLog.sealingKeyID(at: directory) { configuration.sealing = .keyless(id) }
    /// ```
    ///
    /// - Throws: ``LogError`` `noStore` when `directory` holds no store;
    ///   `LMDBError` when it cannot be read.
    public static func sealingKeyID(at directory: URL) throws -> KeyID? {
        let path = directory.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw LogError(.noStore, "there is no store at \(path)")
        }
        let readerLock = try ReaderLock(directory: path, exclusive: false)
        defer { withExtendedLifetime(readerLock) {} }
        var options = environmentConfiguration(Configuration())
        options.options.insert(.readOnly)
        let environment = try Environment(path: path, configuration: options)
        return try environment.read { txn in
            guard let meta = try txn.opener.database(named: "meta") else { return nil }
            let found = try txn.withValue(forKey: SealingRecord.key, in: meta) { value in
                SealingRecord(bytes: value)?.keyID
            }
            return found ?? nil
        }
    }
}

extension EventLog {
    /// Verifies the store in `directory` without opening it as a log (so
    /// without taking part in its life: a backup copy that was never
    /// opened stays as it is): the same checks as ``verify(progress:)``;
    /// with ``Sealing/sealed(_:)`` keys, every envelope is opened too. For
    /// auditors, with or without the key.
    ///
    /// ```swift
    /// let report = try EventLog.verify(at: backup, sealing: .keyless(keyID))
    /// ```
    public static func verify(
        at directory: URL,
        sealing: Sealing = .off,
        progress: ((Int) -> Void)? = nil
    ) throws -> VerificationReport {
        let path = directory.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw LogError(.noStore, "there is no store at \(path)")
        }
        let sealer = try StoreSealing(sealing).sealer
        let readerLock = try ReaderLock(directory: path, exclusive: false)
        defer { withExtendedLifetime(readerLock) {} }
        var options = environmentConfiguration(Configuration())
        options.options.insert(.readOnly)
        let environment = try Environment(path: path, configuration: options)
        return try environment.read { txn in
            guard try txn.opener.database(named: "meta") != nil else {
                throw LogError(.noStore, "the store at \(path) holds nothing yet")
            }
            let databases = try LogDatabases(in: txn.opener)
            guard let identity = try readIdentity(databases, in: txn) else {
                throw LogError(.noStore, "the store at \(path) was never written")
            }
            var origins = OriginTable()
            if identity.layout == .compact, let numbers = databases.originNumbers {
                try origins.load(from: numbers, in: txn)
            }
            let decoder = EntryDecoder(layout: identity.layout, origins: origins, sealer: sealer)
            return try verify(databases, decoder: decoder, in: txn, progress: progress)
        }
    }
}
