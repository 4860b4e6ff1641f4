import Anchorage
import AnchorageService
import HTTPTypes
import Hummingbird

/// The ``StoreHost`` of a node holding many stores (a registry's, or a
/// fleet node's copies): `/v1/stores/{store}/…` resolves the bearer token
/// (from the registry, or the fleet's tokens), then the store it is bound
/// to, held open while the request and its answer's body last.
///
/// A token reaches its own store only: for any other id — another
/// person's store, an unknown one, one being deleted, or text that is no
/// store id (checked before it touches a path) — the answer is the same
/// 404. A revoked token is refused from the moment it is revoked.
struct RegistryHost: StoreHost {
    let registry: NodeRegistry
    let pool: StorePool<ServedStore>
    /// Where tokens are looked up: the registry's, or a fleet's.
    let tokens: TokenSource
    /// When set, writes are acknowledged only once a replica holds them
    /// (``NodeConfiguration/replicaAcknowledgement``).
    let replicaAcknowledgement: Duration?
    var kind: OpenAPIDocument.NodeKind = .multi

    var storePath: String { "/v1/stores/{store}" }

    static let notFound = APIError(.notFound, .notFound, "there is no such store, or this token does not reach it")

    func serve(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        try await serve(request, context: context, lease: nil, next: next)
    }

    /// Serves `request` with its store, whose writes also keep `lease` (a
    /// fleet's: this node leads the store).
    func serve(
        _ request: Request,
        context: NodeContext,
        lease: (any WriteLease)?,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        let text = context.parameters.get("store") ?? ""
        guard let record = try tokens.record(Self.secret(request), text) else {
            throw APIError(.unauthorized, .unauthenticated, "the token is not valid")
        }
        guard let name = try? StoreName(text),
            record.grant.store == name.rawValue || record.grant.consumer, let storeRecord = try registry.store(name)
        else { throw Self.notFound }
        // A consumer's token reads every store's change feed, and nothing else.
        if record.grant.consumer
            && (request.method != .get || request.uri.path != "/v1/stores/\(name)/changes")
        {
            throw APIError(
                .forbidden,
                .authorizationDenied,
                "a consumer's token reads the stores' change feeds (GET /v1/stores/{store}/changes) and nothing else"
            )
        }
        let held: StorePool<ServedStore>.Lease
        do {
            held = try await pool.lease(name)
        } catch let error as ServiceError where error.code == .storeNotFound {
            throw Self.notFound
        }
        do {
            let served = held.resource
            let token =
                record.grant.consumer
                ? try AccessPolicy.Token(consumer: record) : try await served.access(for: record, tokens: tokens)
            if token.isPeerOnly && !request.uri.path.hasPrefix("/v1/stores/\(name)/sync/") {
                throw APIError(
                    .forbidden,
                    .authorizationDenied,
                    "a peer's token reaches only the replication endpoints"
                )
            }
            var context = context
            context.access = StoreAccess(
                // A consumer reads as the owner does, filtered by its grants: no app's grants to record.
                store: record.grant.consumer ? served.owner : served.store(for: token),
                grants: token.principal == nil ? nil : token,
                replicates: record.grant.replicates,
                storeName: name.rawValue,
                accessLog: served.accessLog,
                followers: served.followers,
                closing: served.closing,
                webhooks: served.webhooks,
                writes: WriteGuard(
                    storageQuota: storeRecord.maximumBytes.map { .init(store: name.rawValue, bytes: $0) },
                    followers: served.followers,
                    replicaAcknowledgement: replicaAcknowledgement,
                    lease: lease
                )
            )
            var response = try await next(request, context)
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                do {
                    try await body.write(writer)
                    await held.release()
                } catch {
                    await held.release()
                    throw error
                }
            }
            return response
        } catch {
            await held.release()
            throw error
        }
    }

    /// The registry's record of the request's bearer token.
    static func token(_ request: Request, registry: NodeRegistry) throws -> TokenRecord {
        guard let record = try registry.token(forSecret: secret(request)) else {
            throw APIError(.unauthorized, .unauthenticated, "the token is not valid")
        }
        return record
    }

    /// The request's bearer secret.
    static func secret(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization], header.count > 7,
            header.prefix(7).lowercased() == "bearer "
        else { throw APIError(.unauthorized, .unauthenticated, "send Authorization: Bearer <token>") }
        return String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
    }
}

/// Where a node looks tokens up: its registry, or a fleet's directory.
struct TokenSource: Sendable {
    /// The record of the token with this secret, for a request to the
    /// store named (`nil`: no such token).
    let record: @Sendable (_ secret: String, _ store: String) throws -> TokenRecord?
    /// Every token of a store (their grants are recorded in it).
    let tokens: @Sendable (_ store: StoreName) throws -> [TokenRecord]

    static func registry(_ registry: NodeRegistry) -> TokenSource {
        TokenSource(
            record: { secret, _ in try registry.token(forSecret: secret) },
            tokens: { store in try registry.tokens(of: store) }
        )
    }
}
