import AnchorageFleet
import AnchorageService
import Etcd
import Foundation
import Synchronization

/// The fleet's store tokens, kept in etcd under `tokens/<id>` (the token's
/// record and the digest of its secret, never the secret), and mirrored by
/// every node through a watch, so that any node can check a token before it
/// serves or forwards a request.
///
/// ```swift
/// let issued = try await tokens.issue(TokenGrant(store: name, owner: true))
/// tokens.record(forSecret: issued.secret)?.grant.store   // "alice"
/// ```
final class FleetTokens: Sendable {
    /// What etcd holds for a token.
    struct Stored: Codable {
        var record: TokenRecord
        /// Lowercase hex of the secret's SHA-256.
        var digest: String
    }

    private struct State {
        var byDigest: [String: TokenRecord] = [:]
        var byID: [String: String] = [:]
        var ready = false
    }

    let etcd: EtcdClient
    let keys: FleetKeys
    private let state = Mutex(State())

    init(etcd: EtcdClient, keys: FleetKeys) {
        self.etcd = etcd
        self.keys = keys
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// Whether the mirror has read etcd's tokens once.
    var isReady: Bool { state.withLock { $0.ready } }

    /// The token whose secret is `secret`, as last mirrored.
    func record(forSecret secret: String) -> TokenRecord? {
        guard secret.utf8.count <= 1_024 else { return nil }
        let digest = Self.hex(NodeRegistry.secretDigest(secret))
        return state.withLock { $0.byDigest[digest] }
    }

    /// The tokens of `store`, as last mirrored.
    func tokens(of store: String) -> [TokenRecord] {
        state.withLock { state in state.byDigest.values.filter { $0.grant.store == store } }
            .sorted { $0.id < $1.id }
    }

    /// Issues a token: recorded in etcd, then in this node's mirror at once
    /// (other nodes see it through their watch within milliseconds).
    func issue(_ grant: TokenGrant) async throws -> IssuedToken {
        let issued = try NodeRegistry.mintToken(grant)
        let stored = Stored(record: issued.record, digest: Self.hex(NodeRegistry.secretDigest(issued.secret)))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        try await etcd.put(keys.token(issued.record.id), value: Array(try encoder.encode(stored)))
        apply(stored)
        return issued
    }

    /// Revokes a token everywhere; returns whether there was one.
    func revoke(id: String) async throws -> Bool {
        let deleted = try await etcd.delete(.key(keys.token(id)))
        state.withLock { state in
            if let digest = state.byID.removeValue(forKey: id) { state.byDigest[digest] = nil }
        }
        return deleted.deleted > 0
    }

    private func apply(_ stored: Stored) {
        state.withLock { state in
            state.byDigest[stored.digest] = stored.record
            state.byID[stored.record.id] = stored.digest
        }
    }

    private static func decode(_ kv: EtcdKeyValue) -> Stored? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(Stored.self, from: Data(kv.value))
    }

    /// Mirrors the tokens until the task is cancelled.
    func run() async throws {
        for try await update in etcd.follow(.prefix(keys.tokens)) {
            switch update {
            case .snapshot(let kvs, _):
                var fresh = State()
                for stored in kvs.compactMap(Self.decode) {
                    fresh.byDigest[stored.digest] = stored.record
                    fresh.byID[stored.record.id] = stored.digest
                }
                fresh.ready = true
                state.withLock { $0 = fresh }
            case .events(let events):
                for event in events {
                    switch event.kind {
                    case .put:
                        if let stored = Self.decode(event.kv) { apply(stored) }
                    case .delete:
                        guard let id = keys.id(in: event.kv.keyText, under: keys.tokens) else { continue }
                        state.withLock { state in
                            if let digest = state.byID.removeValue(forKey: id) { state.byDigest[digest] = nil }
                        }
                    }
                }
            }
        }
    }
}
