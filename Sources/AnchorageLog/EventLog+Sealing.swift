import Foundation
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

    /// What the log's `meta` records of the key the projections are sealed
    /// under (``ProjectionStore/sealingKey``); `nil` when they are not.
    var projectionTag: [UInt8]? { sealer?.projections.tag }
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
        // A version this store re-sealed away from (`rekey`): the peer
        // re-seals too, and sends the entry again under the current one,
        // so every copy ends with the same bytes and no old version left.
        let version = envelope.withUnsafeBytes { SealedEnvelope.keyVersion(of: $0) }
        if version < sealer.currentVersion {
            throw LogError(
                .wrongKey,
                "entry \(entry.dot) is sealed under version \(version) of data key \(sealer.keyID), which this store "
                    + "re-sealed under version \(sealer.currentVersion); the sending copy must be re-sealed too (keys "
                    + "rekey) before it sends it; nothing of the batch was applied",
                seq: entry.seq
            )
        }
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
