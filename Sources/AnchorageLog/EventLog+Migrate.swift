public import Foundation
import LMDB

extension EventLog {
    /// What ``migrate(at:configuration:progress:)`` did.
    public struct MigrationReport: Sendable, Hashable {
        /// The store's log format before.
        public let fromFormat: UInt32
        /// The store's log format after.
        public let toFormat: UInt32
        /// Entries rewritten (0 when the store was already in the newest format).
        public let entries: Int
        /// The data file's size before and after, in bytes.
        public let bytesBefore: Int
        public let bytesAfter: Int
    }

    /// Rewrites the closed store in `directory` in log format 2
    /// (docs/log-format.md), keeping every entry, digest and link, so its
    /// anchors, its state digest and its peers' checkpoints stay valid.
    ///
    /// It first verifies the log and refuses a store that does not verify.
    /// The rewrite is one LMDB transaction: a crash leaves the store as it
    /// was, in format 1, or migrated. The data file is then compacted (its
    /// file replaced by `rename`, also atomic), so the freed pages leave
    /// the disk. A store already in format 2 is left as it is.
    ///
    /// ```swift
    /// let report = try EventLog.migrate(at: URL(filePath: "data/alice"))
    /// print("format \(report.fromFormat) → \(report.toFormat), \(report.entries) entries")
    /// ```
    ///
    /// Entries keep their entry version: those written before format 2
    /// stay version 1, whose digest covers the payload alone (changing it
    /// would change the chain that peers and auditors hold). Entries
    /// written after the migration are version 2, salted.
    ///
    /// - Throws: ``LogError``: ``LogError/Code/storeInUse`` while the store
    ///   is open, ``LogError/Code/noStore``, ``LogError/Code/malformedEntry``
    ///   when the log does not verify (nothing is changed),
    ///   ``LogError/Code/unsupportedFormat``.
    public static func migrate(
        at directory: URL,
        configuration: Configuration = Configuration(),
        progress: ((Int) -> Void)? = nil
    ) throws -> MigrationReport {
        let path = directory.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw LogError(.noStore, "there is no store at \(path)")
        }
        let before = fileSize(path + "/data.mdb")
        let (from, entries) = try rewriteInFormat2(path: path, configuration: configuration, progress: progress)
        if entries > 0 { try compact(at: directory) }
        return MigrationReport(
            fromFormat: from,
            toFormat: formatVersion,
            entries: entries,
            bytesBefore: before,
            bytesAfter: fileSize(path + "/data.mdb")
        )
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Verifies a format-1 store and rewrites its log in one transaction;
    /// returns the format found and the entries rewritten.
    private static func rewriteInFormat2(
        path: String,
        configuration: Configuration,
        progress: ((Int) -> Void)?
    ) throws -> (UInt32, Int) {
        let lock = try DirectoryLock(directory: path)
        let readers = try ReaderLock(directory: path, exclusive: true)
        defer { withExtendedLifetime((lock, readers)) {} }
        var options = environmentConfiguration(configuration)
        options.maxDatabases = 64
        let environment = try Environment(path: path, configuration: options)
        return try environment.write { txn -> (UInt32, Int) in
            let databases = try LogDatabases(in: txn.opener)
            guard let identity = try readIdentity(databases, in: txn) else {
                throw LogError(.noStore, "the store at \(path) was never written")
            }
            guard identity.layout == .exchange else { return (identity.layout.format, 0) }
            let report = try verify(
                databases,
                decoder: EntryDecoder(layout: .exchange, origins: OriginTable()),
                in: txn
            )
            if let problem = report.problem {
                throw LogError(
                    .malformedEntry,
                    "the store does not verify, so it is not migrated: \(problem)",
                    seq: problem.seq
                )
            }
            guard let numbers = databases.originNumbers else {
                throw LogError(.unsupportedFormat, "the store has no origin-numbers database")
            }
            try txn.removeAll(in: numbers)
            var origins = OriginTable()
            _ = try origins.number(registering: identity.originID, in: numbers, txn: txn)
            let head = report.head
            for seq in stride(from: UInt64(1), through: head, by: 1) {
                let rewritten = try txn.withValue(forKey: seq.bigEndianBytes, in: databases.log) { value in
                    let stored = try ExchangeLayout.decode(seq: seq, bytes: value)
                    try CompactLayout.checkCounter(stored.dot, seq: seq)
                    return CompactLayout.encode(
                        stored.header(in: value),
                        originNumber: try origins.number(registering: stored.dot.origin, in: numbers, txn: txn),
                        link: seq % CompactLayout.linkInterval == 0 || seq == head ? stored.storedLink : nil,
                        region: UnsafeRawBufferPointer(rebasing: value[stored.regionStart...])
                    )
                }
                guard let rewritten else { throw LogError.malformedEntry(seq, "it is missing from the log") }
                try txn.put(rewritten, forKey: seq.bigEndianBytes, in: databases.log)
                if seq % 65_536 == 0 { progress?(Int(seq)) }
            }
            try txn.put(formatVersion.bigEndianBytes, forKey: MetaKey.format, in: databases.meta)
            return (1, Int(head))
        }
    }
}
