import Anchorage
import Hummingbird
import NIOCore

/// The one router of every kind of node: what every node has before its
/// routes (metrics, errors as JSON, one spelling per path, body limits),
/// the routes that need no token, the node's own routes, and a store's
/// routes — data, webhooks, replication — behind the node's ``StoreHost``,
/// registered once.
///
/// ```swift
/// let router = NodeRouter(parts: parts, host: host) { router, store in
///     router.post("/v1/sign-in", use: signIn.exchange)
/// }.router()
/// ```
struct NodeRouter<Host: StoreHost> {
    let parts: RouteParts
    let host: Host
    /// Adds the routes only this kind of node has, given the router and the
    /// group of a store's routes (behind the host).
    let nodeRoutes: (any RouterMethods<NodeContext>, RouterGroup<NodeContext>) -> Void

    /// The node's router.
    func router() -> Router<NodeContext> {
        let router = Router(context: NodeContext.self)
        if let recorder = ResponseRecorder.shared {
            router.add(middleware: ResponseRecordingMiddleware(recorder: recorder))
        }
        router.add(middleware: MetricsMiddleware(metrics: parts.metrics, clock: parts.configuration.clock))
        router.add(middleware: ErrorMiddleware(kind: host.kind))
        router.add(middleware: CanonicalPathMiddleware())
        router.add(middleware: RequestBodyLimitMiddleware(configuration: parts.configuration))
        addRoutes(to: router)
        return router
    }

    /// Every route of the node (docs/openapi.yaml, the paths of its kind).
    func addRoutes(to router: some RouterMethods<NodeContext>) {
        Self.addPublicRoutes(to: router, kind: host.kind, requiresTokens: host.requiresTokens)
        let store = router.group(RouterPath(host.storePath)).add(middleware: StoreHostMiddleware(host: host))
        nodeRoutes(router, store)
        StoreRoutes(
            configuration: parts.configuration,
            metrics: parts.metrics,
            shutdown: parts.shutdown,
            readPool: parts.readPool
        )
        .register(on: store)
        if host.kind != .fleet {
            let webhooks = WebhookRoutes(configuration: parts.configuration)
            store.post("webhooks", use: webhooks.register)
            store.get("webhooks", use: webhooks.list)
            store.delete("webhooks/{id}", use: webhooks.delete)
        }
        let sync = SyncRoutes(
            configuration: parts.configuration,
            shutdown: parts.shutdown,
            replicators: [],
            received: parts.received
        )
        store.post("sync/identity", use: sync.identity)
        store.post("sync/pull", use: sync.pull)
        store.post("sync/push", use: sync.push)
        store.get("sync/wait", use: sync.wait)
    }

    /// The routes every kind of node answers without a token: `/healthz`,
    /// `/openapi.json` (docs/openapi.yaml, the paths this kind serves), and
    /// the web page (`/`, `/web/{asset}`, and `/web/node.json`, which tells
    /// the page the node's kind and whether it takes tokens).
    static func addPublicRoutes(
        to router: some RouterMethods<NodeContext>,
        kind: OpenAPIDocument.NodeKind,
        requiresTokens: Bool
    ) {
        router.get("/healthz") { _, _ in
            JSONBodies.response(ByteBuffer(string: "{\"status\":\"ok\"}"))
        }
        let document = OpenAPIDocument.json(for: kind)
        router.get("/openapi.json") { _, _ in JSONBodies.response(ByteBuffer(bytes: document)) }
        WebAssets.addRoutes(to: router, node: WebAssets.NodeFacts(kind: kind.rawValue, tokens: requiresTokens))
    }
}

/// What a node's routes share, the same in every kind of node.
struct RouteParts: Sendable {
    var configuration: NodeConfiguration
    var metrics: NodeMetrics
    var shutdown: ShutdownSignal
    var readPool: LowPriorityPool
    var received: ReceivedBatches
}
