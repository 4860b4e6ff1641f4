import Anchorage
import AnchorageLog
import AnchorageService
import Hummingbird

/// The per-request context: who is asking, once ``AuthMiddleware`` knows.
struct NodeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The store acting as the request's principal (the owner's store when
    /// the node has no tokens). Set by ``AuthMiddleware``.
    var store: HKHealthStore?
    /// The token's grants; `nil` for the owner, who reads everything.
    var grants: AccessPolicy.Token?
    /// Whether the request may use the replication endpoints.
    var replicates = false
    /// The store the request reaches in a multi-store node; `nil` in a
    /// single-store node. Shares are counted per store.
    var storeName: String?
    /// The largest body the request may send; set by
    /// ``RequestBodyLimitMiddleware`` for the request's route.
    var maximumBodyBytes = 0
    /// Where reads of health data are recorded; set by ``AuthMiddleware``.
    var accessLog: AccessLog?
    /// Fires when the request's store is being deleted (multi-store node):
    /// long-lived answers end with the node's shutdown or with it.
    var storeClosing: ShutdownSignal?
    /// The webhooks of the request's store in a multi-store node (`nil`
    /// when the node posts none).
    var webhooks: WebhookDeliverer?
    /// The request's store's storage quota in a multi-store node, in bytes
    /// (the registry's; `nil`: none).
    var storageQuota: Int?
    /// What the request's store's replicas have confirmed.
    var followers: ReplicaFollowers?
    /// In a fleet: whether this node may take the request's write now (it
    /// leads the store at its epoch, holds its lease); throws the answer
    /// otherwise. Set by ``FleetRouteMiddleware``.
    var fleetGate: (@Sendable () throws -> Void)?
    /// In a fleet: the epoch this node leads the request's store at.
    var fleetEpoch: UInt64?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        store = nil
        grants = nil
    }

    /// Whether the principal may read any sample of `type`: granted read,
    /// or share (its own samples, AUTH-5). Other types read as empty, never
    /// as refused (AUTH-4).
    func mayRead(_ type: HKObjectType) -> Bool {
        guard let grants else { return true }
        return grants.read.contains(type) || grants.share.contains { $0 == type }
    }

    /// Whom a request's share of expensive work is counted against: the
    /// app a token acts as (all its tokens together), or the owner.
    var quotaKey: String {
        (storeName.map { "store:\($0)/" } ?? "") + (grants?.principal.map { "app:\($0.bundleIdentifier)" } ?? "owner")
    }

    /// Whom a write is counted against: the app a token acts as (all its
    /// tokens together); nil for the owner, whose writes are not counted.
    var writeQuotaKey: String? {
        grants?.principal.map { principal in
            (storeName.map { "store:\($0)/" } ?? "") + "app:\(principal.bundleIdentifier)"
        }
    }

    /// Refuses a write into a store whose data file reached its quota
    /// (`403 quotaExceeded`). The write that crosses it goes through.
    func checkStorageQuota() throws {
        guard let storageQuota, let store else { return }
        let used = try store.eventLog().storedBytes()
        guard used < storageQuota else {
            throw APIError(
                .forbidden,
                .quotaExceeded,
                "the store \(storeName ?? "") uses \(used) bytes and its quota is \(storageQuota): delete samples, "
                    + "or ask the node's administrator for a larger quota"
            )
        }
    }

    /// The principal's store.
    func requireStore() throws -> HKHealthStore {
        guard let store else { throw APIError(.unauthorized, .unauthenticated, "send Authorization: Bearer <token>") }
        return store
    }

    /// Who the access log says read: the app a token acts as, or the owner.
    var principalName: String {
        grants?.principal.map { "app:\($0.bundleIdentifier)" } ?? "owner"
    }

    /// Records a read of health data before its answer goes out; a read
    /// that cannot be recorded fails (500 `storageFailed`).
    func recordRead(_ record: AccessRecord) async throws {
        guard let accessLog else { return }
        var record = record
        record.principal = principalName
        try await accessLog.record(record)
    }
}
