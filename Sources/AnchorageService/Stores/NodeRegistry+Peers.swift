public import AnchorageSync
public import Foundation
import LMDB

extension NodeRegistry {
    /// The most peers one store replicates with.
    public static let maximumPeersPerStore = 8

    /// Adds a peer the store replicates with; the node starts its rounds
    /// at once (a running node reads the registry each round).
    ///
    /// ```swift
    /// try registry.addPeer(to: try StoreName("alice"), url: URL(string: "https://b.example/v1/stores/alice")!,
    ///                      token: secret, direction: .both)
    /// ```
    ///
    /// - Throws: ``ServiceError`` `.storeNotFound`; `.invalidArgument` for a
    ///   URL that is not `http(s)://host…` (at most 2,048 bytes, no user or
    ///   password in it) or a token over 1,024 bytes; `.peerExists` when the
    ///   store already replicates with that URL; `.quotaExceeded` past
    ///   ``maximumPeersPerStore``.
    @discardableResult
    public func addPeer(
        to store: StoreName,
        url: URL,
        token: String?,
        direction: SyncDirection,
        now: Date = Date()
    ) throws(ServiceError) -> StorePeer {
        try Self.validatePeer(url: url, token: token)
        let peer = StorePeer(
            id: "peer_" + Self.random(bytes: 9),
            store: store.rawValue,
            url: url,
            direction: direction,
            created: Self.recorded(now),
            token: token
        )
        let bytes = try Self.storage("recording a peer") { try encode(peer) }
        try Self.storage("recording a peer of store \(store)") {
            try environment.write { txn in
                let found = try txn.withValue(forKey: Array(store.rawValue.utf8), in: storesDatabase) {
                    try decode(StoreRecord.self, $0)
                }
                guard found?.state == .active else { throw ServiceError(.storeNotFound, "there is no store \(store)") }
                let existing = try peers(of: store, in: txn)
                if existing.contains(where: { $0.url.absoluteString == url.absoluteString }) {
                    throw ServiceError(.peerExists, "store \(store) already replicates with \(url.absoluteString)")
                }
                guard existing.count < Self.maximumPeersPerStore else {
                    throw ServiceError(
                        .quotaExceeded,
                        "store \(store) replicates with \(existing.count) peers, the most one store may"
                    )
                }
                try txn.put(bytes, forKey: Self.indexKey(store: store.rawValue, id: peer.id), in: storePeersDatabase)
            }
        }
        return peer
    }

    /// The peers `store` replicates with, oldest first, tokens included
    /// (for the node; listings show ``StorePeer/withoutToken``).
    public func peers(of store: StoreName) throws(ServiceError) -> [StorePeer] {
        try Self.storage("reading the node's registry") {
            try environment.read { txn in try peers(of: store, in: txn) }
        }
    }

    /// Removes a peer: the node starts no new round with it.
    ///
    /// - Throws: ``ServiceError`` `.peerNotFound` when `store` has no peer `id`.
    public func removePeer(_ id: String, of store: StoreName) throws(ServiceError) {
        try Self.storage("removing a peer of store \(store)") {
            try environment.write { txn in
                let removed = try txn.removeValue(
                    forKey: Self.indexKey(store: store.rawValue, id: id),
                    in: storePeersDatabase
                )
                guard removed else { throw ServiceError(.peerNotFound, "store \(store) has no peer \(id.prefix(64))") }
            }
        }
    }

    /// Up to `limit` stores that have peers, in id order after `after`,
    /// each with its peers: a node walks them page by page, at a cost
    /// bounded by the page.
    public func storesWithPeers(
        after: StoreName?,
        limit: Int
    ) throws(ServiceError) -> [(store: StoreName, peers: [StorePeer])] {
        try Self.storage("reading the node's registry") {
            try environment.read { txn in
                var found: [(store: StoreName, peers: [StorePeer])] = []
                guard limit > 0 else { return found }
                try txn.withCursor(on: storePeersDatabase) { cursor in
                    let visit: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool = { key, value in
                        guard let separator = key.firstIndex(of: 0) else { return true }
                        let id = String(decoding: UnsafeRawBufferPointer(rebasing: key[..<separator]), as: UTF8.self)
                        let peer = try self.decode(StorePeer.self, value)
                        if found.last?.store.rawValue == id {
                            found[found.count - 1].peers.append(peer)
                            return true
                        }
                        guard found.count < limit, let name = try? StoreName(id) else { return false }
                        found.append((name, [peer]))
                        return true
                    }
                    if let after {
                        // The first key past every key of `after`: its id, then 0x01.
                        try cursor.scan(from: Array(after.rawValue.utf8) + [1], visit)
                    } else {
                        try cursor.scan(visit)
                    }
                }
                return found
            }
        }
    }

    /// Removes every peer of `store` inside a write transaction (its
    /// deletion).
    func removePeers(of store: StoreName, in txn: borrowing WriteTransaction) throws {
        let prefix = Self.indexKey(store: store.rawValue, id: "")
        var keys: [[UInt8]] = []
        try txn.withCursor(on: storePeersDatabase) { cursor in
            try cursor.scan(from: prefix) { key, _ in
                guard key.starts(with: prefix) else { return false }
                keys.append(Array(key))
                return true
            }
        }
        for key in keys { _ = try txn.removeValue(forKey: key, in: storePeersDatabase) }
    }

    private func peers(
        of store: StoreName,
        in txn: borrowing some ReadableTransaction & ~Copyable
    ) throws -> [StorePeer] {
        let prefix = Self.indexKey(store: store.rawValue, id: "")
        var peers: [StorePeer] = []
        try txn.withCursor(on: storePeersDatabase) { cursor in
            try cursor.scan(from: prefix) { key, value in
                guard key.starts(with: prefix) else { return false }
                peers.append(try decode(StorePeer.self, value))
                return true
            }
        }
        return peers.sorted { ($0.created, $0.id) < ($1.created, $1.id) }
    }

    /// Refuses what no node could replicate with.
    static func validatePeer(url: URL, token: String?) throws(ServiceError) {
        let text = url.absoluteString
        guard text.utf8.count <= 2_048, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else {
            throw ServiceError(
                .invalidArgument,
                "a peer's url is http:// or https://, a host, and optionally a store's path, in at most 2048 bytes"
            )
        }
        guard url.user == nil, url.password == nil, url.query == nil, url.fragment == nil else {
            throw ServiceError(
                .invalidArgument,
                "a peer's url holds no user, password, query or fragment: give the peer's token with 'token'"
            )
        }
        if let token {
            guard !token.isEmpty, token.utf8.count <= 1_024, token.allSatisfy({ $0.isASCII && !$0.isWhitespace })
            else {
                throw ServiceError(.invalidArgument, "a peer's token is 1 to 1024 printable ASCII characters")
            }
        }
    }
}
