import Anchorage
import AnchorageService
import Hummingbird

/// The ``StoreHost`` of a single-store node: `Authorization: Bearer
/// <token>` resolves to the store acting as the token's principal (the
/// owner's when the node takes no tokens, on loopback only).
///
/// A peer's token reaches only the replication endpoints and `/v1/peers`.
struct OneStoreHost: StoreHost {
    let access: NodeAccess
    /// Where the reads of health data are recorded.
    let accessLog: AccessLog
    /// What the store's replicas confirmed.
    let followers: ReplicaFollowers
    /// The store's webhooks.
    let webhooks: WebhookDeliverer
    /// What every write must keep.
    let writes: WriteGuard

    var kind: OpenAPIDocument.NodeKind { .single }
    var storePath: String { "/v1" }
    var requiresTokens: Bool { access.requiresTokens }

    func serve(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        let (store, token) = try access.store(forAuthorization: request.headers[.authorization])
        let path = request.uri.path
        if token?.isPeerOnly == true && !path.hasPrefix("/v1/sync/") && path != "/v1/peers" {
            throw APIError(.forbidden, .authorizationDenied, "a peer's token reaches only the replication endpoints")
        }
        var context = context
        context.access = StoreAccess(
            store: store,
            grants: token?.principal == nil ? nil : token,
            // Without tokens (loopback only) every request acts as the owner.
            replicates: token?.replicates ?? !access.requiresTokens,
            accessLog: accessLog,
            followers: followers,
            webhooks: webhooks,
            writes: writes
        )
        return try await next(request, context)
    }
}
