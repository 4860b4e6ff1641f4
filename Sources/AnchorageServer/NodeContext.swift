import Anchorage
import AnchorageLog
import AnchorageService
import Hummingbird

/// The per-request context: the largest body the route takes, and the store
/// the request reaches once the node's ``StoreHost`` resolved it.
struct NodeContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The largest body the request may send; set by
    /// ``RequestBodyLimitMiddleware`` for the request's route.
    var maximumBodyBytes = 0
    /// The store, principal and write guard; set by ``StoreHostMiddleware``.
    var access: StoreAccess?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// The store acting as the request's principal.
    var store: HKHealthStore? { access?.store }
    /// The token's grants; `nil` for the owner, who reads everything.
    var grants: AccessPolicy.Token? { access?.grants }
    /// Whether the request may use the replication endpoints.
    var replicates: Bool { access?.replicates ?? false }
    /// The store's id in a node holding several.
    var storeName: String? { access?.storeName }
    /// What the request's store's replicas have confirmed.
    var followers: ReplicaFollowers? { access?.followers }
    /// Fires when the request's store is being deleted.
    var storeClosing: ShutdownSignal? { access?.closing }
    /// The request's store's webhooks (`nil`: the node posts none).
    var webhooks: WebhookDeliverer? { access?.webhooks }
    /// What a write into the request's store must keep.
    var writes: WriteGuard { access?.writes ?? WriteGuard() }

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

    /// The principal's store.
    func requireStore() throws -> HKHealthStore {
        guard let store else { throw APIError(.unauthorized, .unauthenticated, "send Authorization: Bearer <token>") }
        return store
    }

    /// Who the access log says read: the app a token acts as, or the owner.
    var principalName: String {
        guard let principal = grants?.principal else { return "owner" }
        // A node consumer's principal is `consumer:<token id>` already.
        if principal.bundleIdentifier.hasPrefix("consumer:") { return principal.bundleIdentifier }
        return "app:\(principal.bundleIdentifier)"
    }

    /// Records a read of health data before its answer goes out; a read
    /// that cannot be recorded fails (500 `storageFailed`).
    func recordRead(_ record: AccessRecord) async throws {
        guard let accessLog = access?.accessLog else { return }
        var record = record
        record.principal = principalName
        try await accessLog.record(record)
    }
}
