public import AnchorageSync
public import Foundation

/// A node a store of a multi-store node replicates with: the registry
/// keeps it, and the node runs its rounds (pushes soon after the store
/// changes, pulls every interval). The token is the peer's, sent as the
/// bearer of every sync request; it is kept so (the node must send it) and
/// never shown again.
///
/// ```swift
/// let peer = try registry.addPeer(to: alice, url: URL(string: "https://b.example/v1/stores/alice")!,
///                                 token: secret, direction: .both)
/// ```
public struct StorePeer: Codable, Sendable, Hashable {
    /// The peer's name in the registry (`peer_…`), to remove it by.
    public var id: String
    /// The store that replicates.
    public var store: String
    /// The peer's sync base: a node's URL, or one store's of a multi-store
    /// node (`…/v1/stores/<id>`).
    public var url: URL
    /// Which way entries travel.
    public var direction: SyncDirection
    /// When the peer was added.
    public var created: Date
    /// A token of the peer's with the replication grant; `nil` for a peer
    /// that asks for none.
    public var token: String?

    /// The peer without its token, as listings show it.
    public var withoutToken: StorePeer {
        var peer = self
        peer.token = nil
        return peer
    }
}
