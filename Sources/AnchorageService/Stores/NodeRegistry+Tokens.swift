import Crypto
public import Foundation
import LMDB

/// A token the registry holds: its grant, never its secret.
public struct TokenRecord: Codable, Sendable, Hashable {
    /// The token's public name, used to revoke it.
    public var id: String
    public var grant: TokenGrant
    public var created: Date
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
        let store = grant.admin ? nil : try StoreName(grant.store)
        let record = TokenRecord(id: "tok_" + Self.random(bytes: 9), grant: grant, created: Self.recorded(now))
        let secret = "anc_" + Self.random(bytes: 32)
        let bytes = try Self.storage("recording a token") { try encode(record) }
        try Self.storage("recording a token of \(store.map { "store \($0)" } ?? "the node's administrator")") {
            try environment.write { txn in
                if let store {
                    let found = try txn.withValue(forKey: Array(store.rawValue.utf8), in: storesDatabase) {
                        try decode(StoreRecord.self, $0)
                    }
                    guard found?.state == .active else {
                        throw ServiceError(.storeNotFound, "there is no store \(store)")
                    }
                }
                try txn.put(bytes, forKey: Array(record.id.utf8), in: tokensDatabase)
                try txn.put(Array(record.id.utf8), forKey: Self.digest(secret), in: digestsDatabase)
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

    /// The tokens of one store, or of every store.
    public func tokens(of store: StoreName? = nil) throws(ServiceError) -> [TokenRecord] {
        try Self.storage("reading the node's registry") {
            try environment.read { txn in
                var records: [TokenRecord] = []
                try txn.withCursor(on: tokensDatabase) { cursor in
                    try cursor.scan { _, value in
                        let record = try decode(TokenRecord.self, value)
                        if store == nil || record.grant.store == store?.rawValue { records.append(record) }
                        return true
                    }
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
                guard try txn.removeValue(forKey: Array(id.utf8), in: tokensDatabase) else {
                    throw ServiceError(.tokenNotFound, "there is no token \(id.prefix(64))")
                }
                try removeDigests(where: { $0 == Array(id.utf8) }, in: txn)
            }
        }
    }

    /// Revokes every token of `store` inside a write transaction.
    func revokeTokens(of store: StoreName, in txn: borrowing WriteTransaction) throws {
        var doomed: [[UInt8]] = []
        try txn.withCursor(on: tokensDatabase) { cursor in
            try cursor.scan { key, value in
                if try decode(TokenRecord.self, value).grant.store == store.rawValue { doomed.append(Array(key)) }
                return true
            }
        }
        for key in doomed { _ = try txn.removeValue(forKey: key, in: tokensDatabase) }
        let ids = Set(doomed)
        try removeDigests(where: { ids.contains($0) }, in: txn)
    }

    private func removeDigests(where matches: ([UInt8]) -> Bool, in txn: borrowing WriteTransaction) throws {
        var doomed: [[UInt8]] = []
        try txn.withCursor(on: digestsDatabase) { cursor in
            try cursor.scan { key, value in
                if matches(Array(value)) { doomed.append(Array(key)) }
                return true
            }
        }
        for key in doomed { _ = try txn.removeValue(forKey: key, in: digestsDatabase) }
    }

    /// How many token digests the registry holds (one per live token).
    package func digestCount() throws -> Int {
        try environment.read { txn in try txn.statistics(of: digestsDatabase).entries }
    }

    static func digest(_ secret: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(secret.utf8)))
    }

    /// URL-safe base64 of `bytes` random bytes from the system's generator.
    static func random(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(random).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
