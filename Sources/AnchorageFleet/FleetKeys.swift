/// Where the fleet keeps its records in etcd, under one root (`/anchorage/`
/// by default; tests use a root of their own):
///
/// - `nodes/<node>`: a live node's ``NodeRecord``, attached to its lease;
/// - `stores/<store>`: a store's ``Placement``, changed only by
///   compare-and-swap;
/// - `by-node/<node>/<store>`: the node's role for the store, written in
///   the same transaction as the placement, so a node reads its own stores
///   with one range;
/// - `controller`: the node that places stores, attached to its lease;
/// - `tokens/<token>`: a store token's record and the digest of its secret,
///   so every node accepts the fleet's tokens;
/// - `synced/<store>/<node>`: a copy being added reports it has caught up;
/// - `data-keys/<key id>`: the wrapped versions of a sealed store's data key
///   (wrapped by the fleet's wrapping key: etcd never holds a key in clear);
/// - `shredded/<key id>`: the tombstone of a data key destroyed on purpose;
/// - `rekeys/<key id>`: a re-sealing of every copy under a new version of
///   the key (the version, JSON), and `rekeys/<key id>/<node>`: the version
///   a node has re-sealed its copies under;
/// - `store-updates/stores/<store>`: the anchor the store's primary last
///   published (its store-updates feed, read through etcd's history), and
///   `store-updates/clock`, written by every publication, so a reader learns
///   the feed's last revision with one read;
/// - `store-updates-published/<node>`: how far the node has published its
///   own store updates;
/// - `unreachable/<node>/<reporter>`: the reporter, following stores `node`
///   leads, cannot reach it (attached to the reporter's lease, removed when
///   it reaches the node again or stops following it).
///
/// ```swift
/// let keys = FleetKeys()
/// keys.store("alice")        // "/anchorage/stores/alice"
/// ```
public struct FleetKeys: Sendable, Hashable {
    public let root: String

    public init(root: String = "/anchorage/") {
        self.root = root.hasSuffix("/") ? root : root + "/"
    }

    public var nodes: String { root + "nodes/" }
    public var stores: String { root + "stores/" }
    public var byNode: String { root + "by-node/" }
    public var controller: String { root + "controller" }
    public var tokens: String { root + "tokens/" }
    public var synced: String { root + "synced/" }
    public var dataKeys: String { root + "data-keys/" }
    public var shredded: String { root + "shredded/" }
    public var rekeys: String { root + "rekeys/" }
    public var unreachable: String { root + "unreachable/" }
    public var storeUpdates: String { root + "store-updates/" }
    public var storeHeads: String { storeUpdates + "stores/" }
    public var storeUpdatesClock: String { storeUpdates + "clock" }
    public var storeUpdatesPublished: String { root + "store-updates-published/" }

    public func node(_ id: String) -> String { nodes + id }
    public func store(_ id: String) -> String { stores + id }
    public func byNode(_ node: String) -> String { byNode + node + "/" }
    public func role(of store: String, on node: String) -> String { byNode(node) + store }
    public func token(_ id: String) -> String { tokens + id }
    public func synced(_ store: String, on node: String) -> String { synced + store + "/" + node }
    public func dataKey(_ keyID: String) -> String { dataKeys + keyID }
    public func shredded(_ keyID: String) -> String { shredded + keyID }
    public func rekey(_ keyID: String) -> String { rekeys + keyID }
    public func rekeyed(_ keyID: String, on node: String) -> String { rekeys + keyID + "/" + node }
    public func unreachable(_ node: String, by reporter: String) -> String { unreachable + node + "/" + reporter }
    public func storeHead(_ store: String) -> String { storeHeads + store }
    public func storeUpdatesPublished(by node: String) -> String { storeUpdatesPublished + node }

    /// The id at the end of a key under `prefix`, or `nil`.
    public func id(in key: String, under prefix: String) -> String? {
        guard key.hasPrefix(prefix) else { return nil }
        let id = String(key.dropFirst(prefix.count))
        return id.isEmpty ? nil : id
    }

    /// Refuses an id that would not stay one path segment.
    static func check(_ id: String, _ what: String) throws(FleetError) {
        guard !id.isEmpty, id.utf8.count <= 128, !id.contains("/"), id.unicodeScalars.allSatisfy({ $0.value > 0x20 })
        else {
            throw FleetError(
                .invalidArgument,
                "\(what) '\(id.prefix(64))' is not usable: 1 to 128 characters, no '/' or spaces"
            )
        }
    }
}
