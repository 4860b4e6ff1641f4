import Hummingbird

/// How a kind of node finds the store a request reaches: one store, a
/// registry of many, or a fleet's copies. It resolves the principal, the
/// store and what its writes must keep (``StoreAccess``) and serves the
/// request with them — or answers it another way (a fleet node forwards a
/// request to the store's primary). Every kind answers through the same
/// routes (``NodeRouter``).
///
/// ```swift
/// let router = NodeRouter(parts: parts, host: RegistryHost(…)).router { router, store in
///     AdminRoutes(…).register(on: router)
/// }
/// ```
protocol StoreHost: Sendable {
    /// The node's kind: which routes docs/openapi.yaml gives it.
    var kind: OpenAPIDocument.NodeKind { get }
    /// Where a store's routes start: `/v1` in a single-store node,
    /// `/v1/stores/{store}` otherwise.
    var storePath: String { get }
    /// Whether a request needs a token: every node's but a single-store
    /// node's started without any (loopback only).
    var requiresTokens: Bool { get }
    /// Serves `request` with the store it reaches in `context.access`, by
    /// calling `next`; throws the answer (401, 404…) when it reaches none.
    func serve(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response
}

extension StoreHost {
    var requiresTokens: Bool { true }
}

/// Runs a node's ``StoreHost`` in front of the routes that need a store.
struct StoreHostMiddleware<Host: StoreHost>: RouterMiddleware {
    typealias Context = NodeContext
    let host: Host

    func handle(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        try await host.serve(request, context: context, next: next)
    }
}
