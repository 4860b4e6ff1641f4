import Crypto
public import Foundation
import LMDB

/// A token the registry holds: its grant, never its secret.
public struct TokenRecord: Codable, Sendable, Hashable {
    /// The token's public name, used to revoke it.
    public var id: String
    public var grant: TokenGrant
    public var created: Date

    public init(id: String, grant: TokenGrant, created: Date) {
        self.id = id
        self.grant = grant
        self.created = created
    }
}

/// A token just issued: the only time its secret is known.
public struct IssuedToken: Sendable {
    public let record: TokenRecord
    /// The bearer secret (`Authorization: Bearer <secret>`); the registry
    /// keeps only its SHA-256 digest.
    public let secret: String
}

extension NodeRegistry {
    /// Issues a token bound to one store and one principal (or an
    /// administrator's, bound to none).
    ///
    /// ```swift
    /// let issued = try registry.issueToken(TokenGrant(store: try StoreName("alice"), owner: true))
    /// ```
    ///
    /// - Throws: ``ServiceError`` `.storeNotFound` for a store the registry
    ///   does not hold, `.invalidGrant` for grants a token file would refuse.
    public func issueToken(_ grant: TokenGrant, now: Date = Date()) throws(ServiceError) -> IssuedToken {
        try grant.validate()
        let store = grant.isNodeWide ? nil : try StoreName(grant.store)
        let record = TokenRecord(id: "tok_" + Self.random(bytes: 9), grant: grant, created: Self.recorded(now))
        let secret = "anc_" + Self.random(bytes: 32)
        let bytes = try Self.storage("recording a token") { try encode(record) }
        try Self.storage("recording a token of \(store.map { "store \($0)" } ?? "the node")") {
            try environment.write { txn in
                if let store {
                    let found = try txn.withValue(forKey: Array(store.rawValue.utf8), in: storesDatabase) {
                        try decode(StoreRecord.self, $0)
                    }
                    guard found?.state == .active else {
                        throw ServiceError(.storeNotFound, "there is no store \(store)")
                    }
                }
                let digest = Self.digest(secret)
                try txn.put(bytes, forKey: Array(record.id.utf8), in: tokensDatabase)
                try txn.put(Array(record.id.utf8), forKey: digest, in: digestsDatabase)
                try txn.put(digest, forKey: Self.indexKey(store: grant.store, id: record.id), in: storeTokensDatabase)
            }
        }
        return IssuedToken(record: record, secret: secret)
    }

    /// The token whose secret is `secret`, if it is valid now: issued, not
    /// revoked, and its store not deleted.
    public func token(forSecret secret: String) throws(ServiceError) -> TokenRecord? {
        guard secret.utf8.count <= 1_024 else { return nil }
        return try Self.storage("reading the node's registry") {
            try environment.read { txn -> TokenRecord? in
                let id = try txn.withValue(forKey: Self.digest(secret), in: digestsDatabase) { Array($0) }
                guard let id else { return nil }
                return try txn.withValue(forKey: id, in: tokensDatabase) { try decode(TokenRecord.self, $0) }
            }
        }
    }

    /// The tokens of one store, or of every store. One store's are read
    /// through the store's index: the cost is its own tokens, not the node's.
    public func tokens(of store: StoreName? = nil) throws(ServiceError) -> [TokenRecord] {
        try Self.storage("reading the node's registry") {
            try environment.read { txn in
                var records: [TokenRecord] = []
                guard let store else {
                    try txn.withCursor(on: tokensDatabase) { cursor in
                        try cursor.scan { _, value in
                            records.append(try decode(TokenRecord.self, value))
                            return true
                        }
                    }
                    return records
                }
                var ids: [[UInt8]] = []
                let prefix = Self.indexKey(store: store.rawValue, id: "")
                try txn.withCursor(on: storeTokensDatabase) { cursor in
                    try cursor.scan(from: prefix) { key, _ in
                        guard key.starts(with: prefix) else { return false }
                        ids.append(Array(key.dropFirst(prefix.count)))
                        return true
                    }
                }
                for id in ids {
                    let record = try txn.withValue(forKey: id, in: tokensDatabase) { try decode(TokenRecord.self, $0) }
                    if let record { records.append(record) }
                }
                return records
            }
        }
    }

    /// Revokes a token: from this call on no request is let in with it.
    ///
    /// - Throws: ``ServiceError`` `.tokenNotFound` for an id the registry
    ///   does not hold.
    public func revokeToken(id: String) throws(ServiceError) {
        try Self.storage("revoking a token") {
            try environment.write { txn in
                let record = try txn.withValue(forKey: Array(id.utf8), in: tokensDatabase) {
                    try decode(TokenRecord.self, $0)
                }
                guard let record else { throw ServiceError(.tokenNotFound, "there is no token \(id.prefix(64))") }
                try remove(record.id, of: record.grant.store, in: txn)
            }
        }
    }

    /// Revokes every token of `store` inside a write transaction.
    func revokeTokens(of store: StoreName, in txn: borrowing WriteTransaction) throws {
        var ids: [String] = []
        let prefix = Self.indexKey(store: store.rawValue, id: "")
        try txn.withCursor(on: storeTokensDatabase) { cursor in
            try cursor.scan(from: prefix) { key, _ in
                guard key.starts(with: prefix) else { return false }
                ids.append(String(decoding: key.dropFirst(prefix.count), as: UTF8.self))
                return true
            }
        }
        for id in ids { try remove(id, of: store.rawValue, in: txn) }
    }

    /// Removes a token, its digest and its index entry.
    private func remove(_ id: String, of store: String, in txn: borrowing WriteTransaction) throws {
        let indexKey = Self.indexKey(store: store, id: id)
        if let digest = try txn.withValue(forKey: indexKey, in: storeTokensDatabase, { Array($0) }) {
            _ = try txn.removeValue(forKey: digest, in: digestsDatabase)
        }
        _ = try txn.removeValue(forKey: indexKey, in: storeTokensDatabase)
        _ = try txn.removeValue(forKey: Array(id.utf8), in: tokensDatabase)
    }

    /// The index key of a token of `store` (an administrator's: `""`).
    static func indexKey(store: String, id: String) -> [UInt8] {
        Array(store.utf8) + [0] + Array(id.utf8)
    }

    /// Builds the store index of a registry written before it existed:
    /// once, when it is empty and tokens are not.
    func indexTokensIfNeeded() throws(ServiceError) {
        try Self.storage("indexing the node's tokens by store") {
            let counts = try environment.read { txn in
                (try txn.statistics(of: tokensDatabase).entries, try txn.statistics(of: storeTokensDatabase).entries)
            }
            guard counts.0 > 0, counts.1 == 0 else { return }
            try environment.write { txn in
                var digests: [[UInt8]: [UInt8]] = [:]  // token id → digest
                try txn.withCursor(on: digestsDatabase) { cursor in
                    try cursor.scan { key, value in
                        digests[Array(value)] = Array(key)
                        return true
                    }
                }
                var entries: [([UInt8], [UInt8])] = []
                try txn.withCursor(on: tokensDatabase) { cursor in
                    try cursor.scan { key, value in
                        let record = try decode(TokenRecord.self, value)
                        if let digest = digests[Array(key)] {
                            entries.append((Self.indexKey(store: record.grant.store, id: record.id), digest))
                        }
                        return true
                    }
                }
                for (key, digest) in entries { try txn.put(digest, forKey: key, in: storeTokensDatabase) }
            }
        }
    }

    /// Empties the store index (tests: a registry from before it existed).
    package func dropTokenIndex() throws {
        try environment.write { txn in try txn.removeAll(in: storeTokensDatabase) }
    }

    /// How many token digests the registry holds (one per live token).
    package func digestCount() throws -> Int {
        try environment.read { txn in try txn.statistics(of: digestsDatabase).entries }
    }

    /// A new token for `grant`, recorded nowhere: for a directory of
    /// tokens kept elsewhere (a fleet's, in etcd). Keep ``secretDigest(_:)``
    /// of its secret, never the secret.
    public static func mintToken(_ grant: TokenGrant, now: Date = Date()) throws(ServiceError) -> IssuedToken {
        try grant.validate()
        let record = TokenRecord(id: "tok_" + random(bytes: 9), grant: grant, created: recorded(now))
        return IssuedToken(record: record, secret: "anc_" + random(bytes: 32))
    }

    /// The SHA-256 digest of a token's secret: what a directory keeps.
    public static func secretDigest(_ secret: String) -> [UInt8] { digest(secret) }

    static func digest(_ secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(secret.utf8)))
    }

    /// URL-safe base64 of `bytes` random bytes from the system's generator
    /// (token secrets; the web page's sign-in codes and sessions).
    package static func random(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(random).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
