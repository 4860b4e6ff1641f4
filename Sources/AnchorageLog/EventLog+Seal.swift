import Crypto
public import Foundation
import LMDB

extension EventLog {
    /// What ``seal(at:keys:configuration:progress:)`` did.
    public struct SealReport: Sendable, Hashable {
        /// Entries sealed now (0 when the store was sealed already).
        public let entries: Int
        /// The data file's size before and after, in bytes.
        public let bytesBefore: Int
        public let bytesAfter: Int
    }

    /// Seals every entry of the closed store in `directory` under `keys`
    /// (the highest version), so that nothing of it is left in clear: the
    /// explicit step that turns sealing on for a store that holds entries.
    ///
    /// In order, each step safe to interrupt and the whole safe to run
    /// again (it finishes what an interrupted run began):
    /// 1. the projections' file is deleted (it holds what the entries hold;
    ///    the next open rebuilds it from the sealed log);
    /// 2. in **one LMDB write transaction**, after verifying the log: every
    ///    entry is rewritten as a sealed entry (docs/log-format.md) with
    ///    the same dot, its links recomputed, and `meta/sealing` recorded;
    ///    a crash leaves the store entirely unsealed or entirely sealed;
    /// 3. the data file is compacted (its live pages copied to a new file
    ///    that replaces it by `rename`), so the pages the rewrite freed,
    ///    which still hold the old entries, leave the file.
    ///
    /// The sealing is deterministic, so every copy of a person's store
    /// sealed under the same key gets the same bytes: a version-2 save's
    /// nonce is its salt, any other entry's the first 12 bytes of
    /// SHA-256("anchorage/1/nonce" ‖ origin id ‖ counter). A purged save
    /// keeps its digest and nothing else. Blocks of the old file that the
    /// file system freed may keep old bytes until reused: seal a disk's
    /// stores before it leaves the machine, or encrypt the disk itself.
    ///
    /// - Throws: ``LogError``: ``LogError/Code/storeInUse`` while the store
    ///   is open; ``LogError/Code/unsupportedFormat`` for a format-1 store
    ///   (migrate first); ``LogError/Code/wrongKey`` for a store sealed
    ///   under another key; ``LogError/Code/malformedEntry`` when the log
    ///   does not verify (nothing is changed).
    public static func seal(
        at directory: URL,
        keys: [DataKey],
        configuration: Configuration = Configuration(),
        progress: ((Int) -> Void)? = nil
    ) throws -> SealReport {
        let sealer = try EntrySealer(keys: keys)
        let (entries, before, after) = try rewriteClosed(at: directory) { path in
            try sealInPlace(path: path, sealer: sealer, configuration: configuration, progress: progress)
        }
        return SealReport(entries: entries, bytesBefore: before, bytesAfter: after)
    }

    /// Runs `rewrite` on the closed store in `directory` (given its path),
    /// holding it against writers and readers, after deleting its
    /// projections' file (the next open rebuilds it), then compacts the
    /// data file so the pages the rewrite freed leave it. Returns what
    /// `rewrite` returned and the data file's size before and after.
    static func rewriteClosed<R>(
        at directory: URL,
        _ rewrite: (String) throws -> R
    ) throws -> (R, before: Int, after: Int) {
        let path = directory.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw LogError(.noStore, "there is no store at \(path)")
        }
        let before = fileSize(path + "/data.mdb")
        let result: R
        do {
            let lock = try DirectoryLock(directory: path)
            let readers = try ReaderLock(directory: path, exclusive: true)
            defer { withExtendedLifetime((lock, readers)) {} }
            for file in [ProjectionStore.path(inStore: path), ProjectionStore.path(inStore: path) + "-lock"] {
                try? FileManager.default.removeItem(atPath: file)
            }
            result = try rewrite(path)
        }
        try compact(at: directory)
        return (result, before, fileSize(path + "/data.mdb"))
    }

    /// The nonce of an entry sealed after it was written: a version-2
    /// save's salt, else derived from the dot.
    static func derivedNonce(for dot: Dot) -> EntrySalt {
        var hasher = SHA256()
        hasher.update(data: Array("anchorage/1/nonce".utf8))
        hasher.update(data: dot.origin.uuid.bytes)
        hasher.update(data: dot.counter.bigEndianBytes)
        return Array(hasher.finalize()).withUnsafeBytes { EntrySalt(loadingFrom: $0, at: 0) }
    }

    /// Verifies the log and rewrites every unsealed entry sealed, in one
    /// transaction; returns how many it sealed.
    private static func sealInPlace(
        path: String,
        sealer: EntrySealer,
        configuration: Configuration,
        progress: ((Int) -> Void)?
    ) throws -> Int {
        var options = environmentConfiguration(configuration)
        options.maxDatabases = 64
        let environment = try Environment(path: path, configuration: options)
        return try environment.write { txn -> Int in
            let databases = try LogDatabases(in: txn.opener)
            guard let identity = try readIdentity(databases, in: txn) else {
                throw LogError(.noStore, "the store at \(path) was never written")
            }
            guard identity.layout == .compact, let numbers = databases.originNumbers else {
                throw LogError(
                    .unsupportedFormat,
                    "the store at \(path) is in log format 1; migrate it (anchorage migrate) before sealing it"
                )
            }
            if let record = try SealingRecord.read(databases, in: txn) {
                guard record.keyID == sealer.keyID else {
                    throw LogError(
                        .wrongKey,
                        "the store at \(path) is sealed under data key \(record.keyID), not \(sealer.keyID)"
                    )
                }
                return 0
            }
            var origins = OriginTable()
            try origins.load(from: numbers, in: txn)
            let decoder = EntryDecoder(layout: .compact, origins: origins)
            let report = try verify(databases, decoder: decoder, in: txn)
            if let problem = report.problem {
                throw LogError(
                    .malformedEntry,
                    "the store does not verify, so it is not sealed: \(problem)",
                    seq: problem.seq
                )
            }
            let head = report.head
            try rewriteEntries(through: head, databases: databases, decoder: decoder, in: txn, progress: progress) {
                seq,
                stored,
                value in
                guard !stored.isSealed else {
                    throw LogError.malformedEntry(seq, "a store with no key recorded holds a sealed entry")
                }
                return sealer.seal(
                    operation: stored.operation,
                    dot: stored.dot,
                    kind: stored.kind,
                    timestamp: stored.timestamp,
                    id: stored.id,
                    payload: stored.payload(in: value),
                    nonce: stored.salt(in: value) ?? derivedNonce(for: stored.dot)
                )
            }
            try txn.put(
                SealingRecord(keyID: sealer.keyID, checks: sealer.checks).bytes,
                forKey: SealingRecord.key,
                in: databases.meta
            )
            // What the projections recorded no longer exists: the next open
            // rebuilds them from the sealed log.
            try txn.put(ProjectionStore.State.clean.bytes, forKey: ProjectionStore.stateKey, in: databases.meta)
            let check = try verify(
                databases,
                decoder: EntryDecoder(layout: .compact, origins: origins, sealer: sealer),
                in: txn
            )
            if let problem = check.problem {
                throw LogError(.malformedEntry, "sealing produced a log that does not verify: \(problem)")
            }
            return Int(head)
        }
    }
}

extension EventLog {
    /// Rewrites every entry of the log, 1 through `head`, as a sealed entry
    /// whose envelope `envelope` makes (a purged save keeps its digest and
    /// no region), recomputing every link; in the caller's transaction.
    static func rewriteEntries(
        through head: UInt64,
        databases: LogDatabases,
        decoder: EntryDecoder,
        in txn: borrowing WriteTransaction,
        progress: ((Int) -> Void)?,
        envelope: (UInt64, StoredEntry, UnsafeRawBufferPointer) throws -> [UInt8]
    ) throws {
        var link = EntryDigest.zero
        for seq in stride(from: UInt64(1), through: head, by: 1) {
            let rewritten = try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value in
                let stored = try decoder.decode(seq: seq, bytes: value)
                var header = stored.header(in: value)
                var region: [UInt8] = []
                if !stored.isPurged {
                    region = try envelope(seq, stored, value)
                    header.payloadDigest = EntryDigest.of(region)
                }
                header.version = EntryFormat.sealedVersion
                header.kind = EntryKind(rawValue: 0)
                header.timestamp = 0
                header.id = .zero
                link = EntryFormat.link(previous: link, header: header)
                return try region.withUnsafeBytes { region in
                    CompactLayout.encode(
                        header,
                        originNumber: try CompactLayout.originNumber(of: value).orThrow(seq),
                        link: seq % CompactLayout.linkInterval == 0 || seq == head ? link : nil,
                        region: region
                    )
                }
            }
            guard let rewritten else { throw LogError.malformedEntry(seq, "it is missing from the log") }
            try txn.put(rewritten, forKey: seq.bigEndianBytes, in: databases.log)
            if seq % 65_536 == 0 { progress?(Int(seq)) }
        }
    }
}

extension Optional where Wrapped == UInt32 {
    /// The origin number, or a malformed-entry error for entry `seq`.
    fileprivate func orThrow(_ seq: UInt64) throws(LogError) -> UInt32 {
        guard let self else { throw LogError.malformedEntry(seq, "it is too short to hold its origin number") }
        return self
    }
}
