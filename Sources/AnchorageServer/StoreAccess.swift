import Anchorage
import AnchorageService

/// What a request reaches once its node's ``StoreHost`` resolved it: the
/// store acting as its principal, who that is, and what its writes must
/// keep — the same value whatever kind of node serves it.
///
/// ```swift
/// let access = StoreAccess(store: owner, grants: nil, replicates: true, accessLog: log, followers: followers)
/// ```
struct StoreAccess: Sendable {
    /// The store acting as the principal (the owner's for the owner).
    var store: HKHealthStore
    /// The token's grants; `nil` for the owner, who reads everything.
    var grants: AccessPolicy.Token?
    /// Whether the request may use the replication endpoints.
    var replicates: Bool
    /// The store's id in a node holding several; `nil` in a single-store
    /// node. Shares of work are counted per store.
    var storeName: String?
    /// Where reads of health data are recorded.
    var accessLog: AccessLog
    /// What the store's replicas have confirmed.
    var followers: ReplicaFollowers
    /// Fires when the store is being deleted: long-lived answers end with
    /// the node's shutdown or with it.
    var closing: ShutdownSignal?
    /// The store's webhooks (`nil`: the node posts none).
    var webhooks: WebhookDeliverer?
    /// What every write into the store must keep: its quota, a replica's
    /// acknowledgement, a fleet's lease.
    var writes: WriteGuard

    init(
        store: HKHealthStore,
        grants: AccessPolicy.Token?,
        replicates: Bool,
        storeName: String? = nil,
        accessLog: AccessLog,
        followers: ReplicaFollowers,
        closing: ShutdownSignal? = nil,
        webhooks: WebhookDeliverer? = nil,
        writes: WriteGuard? = nil
    ) {
        self.store = store
        self.grants = grants
        self.replicates = replicates
        self.storeName = storeName
        self.accessLog = accessLog
        self.followers = followers
        self.closing = closing
        self.webhooks = webhooks
        self.writes = writes ?? WriteGuard(followers: followers)
    }
}
