public import Foundation
import LMDB

extension EventLog {
    /// What ``rekey(at:keys:configuration:progress:)`` did.
    public struct RekeyReport: Sendable, Hashable {
        /// Entries re-sealed under the newest version (the others already were).
        public let entries: Int
        /// The version every entry is sealed under now.
        public let version: UInt16
        /// The versions no entry uses any more: their keys may be destroyed.
        public let retired: [UInt16]
        /// The data file's size before and after, in bytes.
        public let bytesBefore: Int
        public let bytesAfter: Int
    }

    /// Re-seals every entry of the closed, sealed store in `directory` that
    /// an older version of its data key sealed under the newest of `keys`,
    /// so that the older versions can be destroyed (a data key retired
    /// after a suspected leak, or on a schedule).
    ///
    /// As ``seal(at:keys:configuration:progress:)``: the projections' file
    /// is deleted, the log is verified (every envelope opened) and
    /// rewritten in one LMDB write transaction, with its links recomputed
    /// and `meta/sealing` left naming the newest version only, then the data
    /// file is compacted, so no page keeps an envelope of a retired version.
    /// Each envelope keeps its nonce, so the rewrite is deterministic:
    /// every copy of the store re-sealed under the same key gets the same
    /// bytes. The digests and links change, so the store starts a **new
    /// incarnation** at its next open: anchors taken before are refused
    /// (`staleAnchor`) and consumers read it again from the start.
    ///
    /// ```swift
    /// let report = try EventLog.rekey(at: directory, keys: [version1, version2])
    /// // destroy version 1: report.retired == [1]
    /// ```
    ///
    /// - Throws: ``LogError``: ``LogError/Code/storeInUse`` while the store
    ///   is open; ``LogError/Code/invalidArgument`` for a store that is not
    ///   sealed (seal it first); ``LogError/Code/wrongKey`` for keys of
    ///   another key id, or a version whose key check differs;
    ///   ``LogError/Code/keyUnavailable`` when an entry is sealed under a
    ///   version not given; ``LogError/Code/malformedEntry`` when the log
    ///   does not verify (nothing is changed).
    public static func rekey(
        at directory: URL,
        keys: [DataKey],
        configuration: Configuration = Configuration(),
        progress: ((Int) -> Void)? = nil
    ) throws -> RekeyReport {
        let sealer = try EntrySealer(keys: keys)
        let (result, before, after) = try rewriteClosed(at: directory) { path in
            try rekeyInPlace(path: path, sealer: sealer, configuration: configuration, progress: progress)
        }
        return RekeyReport(
            entries: result.entries,
            version: sealer.currentVersion,
            retired: result.retired,
            bytesBefore: before,
            bytesAfter: after
        )
    }

    /// Verifies the sealed log and re-seals, in one transaction, every
    /// envelope of an older version; returns how many, and the versions
    /// retired.
    private static func rekeyInPlace(
        path: String,
        sealer: EntrySealer,
        configuration: Configuration,
        progress: ((Int) -> Void)?
    ) throws -> (entries: Int, retired: [UInt16]) {
        var options = environmentConfiguration(configuration)
        options.maxDatabases = 64
        let environment = try Environment(path: path, configuration: options)
        return try environment.write { txn in
            let databases = try LogDatabases(in: txn.opener)
            guard let identity = try readIdentity(databases, in: txn), let numbers = databases.originNumbers,
                identity.layout == .compact
            else {
                throw LogError(.noStore, "the store at \(path) was never written, or is in log format 1")
            }
            guard let record = try SealingRecord.read(databases, in: txn) else {
                throw LogError(
                    .invalidArgument,
                    "the store at \(path) is not sealed; seal it (anchorage keys seal) before changing its key"
                )
            }
            guard record.keyID == sealer.keyID else {
                throw LogError(
                    .wrongKey,
                    "the store at \(path) is sealed under data key \(record.keyID), not \(sealer.keyID)"
                )
            }
            for (version, check) in record.checks where sealer.checks[version].map({ $0 != check }) ?? false {
                throw LogError(.wrongKey, "version \(version) of data key \(record.keyID) is not the one given")
            }
            var origins = OriginTable()
            try origins.load(from: numbers, in: txn)
            let decoder = EntryDecoder(layout: .compact, origins: origins, sealer: sealer)
            let report = try verify(databases, decoder: decoder, in: txn)
            if let problem = report.problem {
                throw LogError(
                    .malformedEntry,
                    "the store does not verify, so its key is not changed: \(problem)",
                    seq: problem.seq
                )
            }
            var resealed = 0
            var used: Set<UInt16> = []
            try rewriteEntries(
                through: report.head,
                databases: databases,
                decoder: decoder,
                in: txn,
                progress: progress
            ) {
                seq,
                stored,
                value in
                guard let envelope = stored.envelope(in: value) else {
                    throw LogError.malformedEntry(seq, "a sealed store holds an entry that is not sealed")
                }
                let version = SealedEnvelope.keyVersion(of: envelope)
                used.insert(version)
                guard version != sealer.currentVersion else { return Array(envelope) }
                resealed += 1
                // The same nonce under the new version: deterministic.
                let nonce = EntrySalt(loadingFrom: envelope, at: 4)
                return try sealer.withOpened(envelope, operation: stored.operation, dot: stored.dot, seq: seq) {
                    kind,
                    timestamp,
                    id,
                    payload in
                    sealer.seal(
                        operation: stored.operation,
                        dot: stored.dot,
                        kind: kind,
                        timestamp: timestamp,
                        id: id,
                        payload: stored.operation == .save ? payload : nil,
                        nonce: nonce
                    )
                }
            }
            let current = sealer.currentVersion
            try txn.put(
                SealingRecord(keyID: sealer.keyID, checks: [current: sealer.checks[current]!]).bytes,
                forKey: SealingRecord.key,
                in: databases.meta
            )
            // New digests and links: a new incarnation, so that no anchor
            // taken before is read against them.
            if resealed > 0 { try txn.put([1], forKey: MetaKey.reincarnate, in: databases.meta) }
            try txn.put(ProjectionStore.State.clean.bytes, forKey: ProjectionStore.stateKey, in: databases.meta)
            let check = try verify(databases, decoder: decoder, in: txn)
            if let problem = check.problem {
                throw LogError(.malformedEntry, "re-sealing produced a log that does not verify: \(problem)")
            }
            let retired = Set(record.checks.keys).union(used).subtracting([current]).sorted()
            return (resealed, retired)
        }
    }
}
