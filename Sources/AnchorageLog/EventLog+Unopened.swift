public import Foundation
import LMDB

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
        try readingUnopened(directory) { environment, _ in
            try environment.read { txn in
                guard let meta = try txn.opener.database(named: "meta") else { return nil }
                let found = try txn.withValue(forKey: SealingRecord.key, in: meta) { value in
                    SealingRecord(bytes: value)?.keyID
                }
                return found ?? nil
            }
        }
    }

    /// Calls `body` with the store's data environment opened read-only, as
    /// a reader beside its writer (with the readers' lock), never as a
    /// log: nothing of the store changes.
    static func readingUnopened<R>(
        _ directory: URL,
        _ body: (Environment, String) throws -> R
    ) throws -> R {
        let path = directory.standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path + "/data.mdb") else {
            throw LogError(.noStore, "there is no store at \(path)")
        }
        let readerLock = try ReaderLock(directory: path, exclusive: false)
        defer { withExtendedLifetime(readerLock) {} }
        var options = environmentConfiguration(Configuration())
        options.options.insert(.readOnly)
        return try body(try Environment(path: path, configuration: options), path)
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
        let sealer = try StoreSealing(sealing).sealer
        return try readingUnopened(directory) { environment, path in
            try environment.read { txn in
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
}
