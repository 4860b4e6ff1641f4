import Anchorage
import AnchorageService
import HTTPTypes
import Hummingbird

/// Resolves `/v1/stores/{store}/…` in a multi-store node: the bearer token
/// from the node's registry, then the store it is bound to, held open
/// while the request and its answer's body last.
///
/// A token reaches its own store only: for any other id — another
/// person's store, an unknown one, one being deleted, or text that is no
/// store id (checked before it touches a path) — the answer is the same
/// 404. A revoked token is refused from the moment it is revoked.
struct StoreScopeMiddleware: RouterMiddleware {
    typealias Context = NodeContext

    let registry: NodeRegistry
    let pool: StorePool<ServedStore>
    /// Where tokens are looked up: the registry's, or a fleet's.
    let tokens: TokenSource

    static let notFound = APIError(.notFound, .notFound, "there is no such store, or this token does not reach it")

    func handle(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        let text = context.parameters.get("store") ?? ""
        guard let record = try tokens.record(Self.secret(request), text) else {
            throw APIError(.unauthorized, .unauthenticated, "the token is not valid")
        }
        guard let name = try? StoreName(text),
            record.grant.store == name.rawValue, let storeRecord = try registry.store(name)
        else { throw Self.notFound }
        let lease: StorePool<ServedStore>.Lease
        do {
            lease = try await pool.lease(name)
        } catch let error as ServiceError where error.code == .storeNotFound {
            throw Self.notFound
        }
        do {
            let served = lease.resource
            let token = try await served.access(for: record, tokens: tokens)
            var context = context
            context.storeName = name.rawValue
            context.accessLog = served.accessLog
            context.store = served.store(for: token)
            context.grants = token.principal == nil ? nil : token
            context.replicates = record.grant.replicates
            context.storeClosing = served.closing
            context.followers = served.followers
            context.webhooks = served.webhooks
            context.storageQuota = storeRecord.maximumBytes
            if token.isPeerOnly && !request.uri.path.hasPrefix("/v1/stores/\(name)/sync/") {
                throw APIError(
                    .forbidden,
                    .authorizationDenied,
                    "a peer's token reaches only the replication endpoints"
                )
            }
            var response = try await next(request, context)
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                do {
                    try await body.write(writer)
                    await lease.release()
                } catch {
                    await lease.release()
                    throw error
                }
            }
            return response
        } catch {
            await lease.release()
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
