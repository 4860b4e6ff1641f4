import Anchorage
public import Foundation
import LMDB
import Synchronization

/// The stores of a multi-store node and the tokens that reach them, kept in
/// the node's own LMDB environment (`<root>/.registry`), beside one
/// directory per store (`<root>/<store id>`), and the peers each store
/// replicates with. Never replicated, never in a
/// store's hash chain. Tokens are kept as SHA-256 digests: the secret is
/// shown once, when it is issued.
///
/// ```swift
/// let registry = try NodeRegistry(root: URL(filePath: "/var/lib/anchorage"))
/// try registry.createStore(try StoreName("alice"))
/// let issued = try registry.issueToken(TokenGrant(store: try StoreName("alice"), owner: true))
/// print(issued.secret)   // give it to Alice; only its digest is kept
/// ```
public final class NodeRegistry: Sendable {
    /// Limits of one registry.
    public struct Configuration: Sendable, Hashable {
        /// At most this many stores; creating one more is refused with
        /// `quotaExceeded`.
        public var maximumStores = 1_000_000
        /// Commit without fsync (tests only): a crash may lose the last
        /// changes of the registry.
        public var synchronous = true

        public init() {}
    }

    /// The directory holding the registry and the stores.
    public let root: URL
    let configuration: Configuration
    let environment: Environment
    let storesDatabase: Database
    let tokensDatabase: Database
    let digestsDatabase: Database
    /// `<store>\0<token id>` → the token's digest: a store's tokens, and a
    /// token's digest, without reading every token.
    let storeTokensDatabase: Database
    /// `<store>\0<peer id>` → the peer (``StorePeer``): the nodes each
    /// store replicates with.
    let storePeersDatabase: Database
    /// Data keys, wrapped: key id ‖ version (2 bytes) → ``WrappedKey`` (JSON).
    let keysDatabase: Database
    /// Store name → the key id its data key has (16 bytes).
    let storeKeysDatabase: Database
    /// Key id → ``ShreddedKey`` (JSON): data keys destroyed on purpose.
    let shreddedDatabase: Database
    /// The store-updates feed (``NodeRegistry/storeUpdates(after:limit:)``):
    /// position (8 bytes, big-endian) → update.
    let updatesDatabase: Database
    /// Store name → its last update; also the feed's id and compaction point.
    let updateHeadsDatabase: Database
    /// Store name → nothing: the stores open in a running node.
    let openStoresDatabase: Database
    /// The feed's id, once read.
    let updatesID = Mutex<String?>(nil)

    /// Records decoded earlier, by their type and bytes (see
    /// ``decode(_:_:)``).
    let decoded = Mutex<[DecodedKey: any Sendable]>([:])

    /// The name of the registry's own directory under the root: it begins
    /// with a dot, which no ``StoreName`` does.
    public static let directoryName = ".registry"

    /// Opens (creating it if needed) the registry under `root`, and
    /// finishes any store deletion a crash interrupted.
    ///
    /// - Throws: ``ServiceError`` `.storageFailed` saying which file failed.
    public init(root: URL, configuration: Configuration = Configuration()) throws(ServiceError) {
        self.root = root.standardizedFileURL
        self.configuration = configuration
        let path = self.root.appending(path: Self.directoryName).path
        let opened = try Self.storage("opening the node's registry at \(path)") {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            var settings = Environment.Configuration()
            settings.maxDatabases = 16
            if !configuration.synchronous { settings.options.insert(.noSync) }
            let environment = try Environment(path: path, configuration: settings)
            return (
                environment,
                try environment.openDatabase(named: "stores"),
                try environment.openDatabase(named: "tokens"),
                try environment.openDatabase(named: "token-digests"),
                try environment.openDatabase(named: "store-tokens"),
                try environment.openDatabase(named: "store-peers"),
                try environment.openDatabase(named: "keys"),
                try environment.openDatabase(named: "store-keys"),
                try environment.openDatabase(named: "shredded"),
                try environment.openDatabase(named: "store-updates"),
                try environment.openDatabase(named: "store-update-heads"),
                try environment.openDatabase(named: "open-stores")
            )
        }
        (
            environment, storesDatabase, tokensDatabase, digestsDatabase, storeTokensDatabase, storePeersDatabase,
            keysDatabase, storeKeysDatabase, shreddedDatabase, updatesDatabase, updateHeadsDatabase,
            openStoresDatabase
        ) = opened
        try indexTokensIfNeeded()
        try finishDeletions()
    }

    /// Runs `body`, turning any error into `.storageFailed` naming `what`.
    static func storage<R>(_ what: String, _ body: () throws -> R) throws(ServiceError) -> R {
        do {
            return try body()
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.storageFailed, "\(what) failed: \(error)")
        }
    }

    /// `date` to the millisecond, as records keep it (so a record read back
    /// equals the one written).
    static func recorded(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1_000).rounded() / 1_000)
    }

    func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = CanonicalJSON.encoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return Array(try encoder.encode(value))
    }

    /// The record `bytes` hold. Every request reads its token's record and
    /// its store's: decoded JSON is remembered by its bytes (the same bytes
    /// are the same record, whoever wrote them and whenever), so a request
    /// hashes them instead of parsing them (measured: 6 % of a node's work
    /// under first writes to new stores). At most
    /// ``decodedCapacity`` records are kept; the cache starts afresh when
    /// full.
    func decode<T: Decodable & Sendable>(_ type: T.Type, _ bytes: UnsafeRawBufferPointer) throws -> T {
        let key = DecodedKey(type: ObjectIdentifier(type), bytes: Array(bytes))
        if let known = decoded.withLock({ $0[key] }) as? T { return known }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let record = try decoder.decode(type, from: Data(bytes))
        decoded.withLock { cache in
            if cache.count >= Self.decodedCapacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = record
        }
        return record
    }

    /// The most decoded records ``decode(_:_:)`` keeps (a few hundred
    /// bytes each).
    static var decodedCapacity: Int { 4_096 }

    /// A record's type and bytes.
    struct DecodedKey: Hashable, Sendable {
        let type: ObjectIdentifier
        let bytes: [UInt8]
    }
}
