import Anchorage
import AnchorageLog
import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird
import Metrics
import Prometheus
import ServiceLifecycle

/// The node's metrics, through swift-metrics into its own Prometheus
/// registry (so that several nodes in one process, as in tests, keep theirs
/// apart), served at `GET /metrics`.
final class NodeMetrics: @unchecked Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Entries committed to the log, local or replicated.
    let entries: CoreMetrics.Counter
    /// Batches committed (one group commit may hold several).
    let batches: CoreMetrics.Counter
    /// Change-feed consumers connected now (long-polls and streams).
    let feedClients: CoreMetrics.Meter
    /// Changes sent by the feed.
    let feedChanges: CoreMetrics.Counter

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
        entries = CoreMetrics.Counter(label: "anchorage_log_entries_total", factory: factory)
        batches = CoreMetrics.Counter(label: "anchorage_log_batches_total", factory: factory)
        feedClients = CoreMetrics.Meter(label: "anchorage_feed_clients", factory: factory)
        feedChanges = CoreMetrics.Counter(label: "anchorage_feed_changes_total", factory: factory)
    }

    /// A gauge of this node's registry, set when it is read (the fleet's).
    func meter(_ label: String) -> CoreMetrics.Meter {
        CoreMetrics.Meter(label: label, factory: factory)
    }

    /// Records one request's latency by route, method and status.
    func recordRequest(
        route: String,
        method: HTTPRequest.Method,
        status: HTTPResponse.Status,
        took elapsed: Duration
    ) {
        let dimensions = [("route", route), ("method", method.rawValue), ("status", String(status.code))]
        CoreMetrics.Timer(label: "anchorage_http_request_duration_seconds", dimensions: dimensions, factory: factory)
            .recordNanoseconds(elapsed.nanosecondCount)
        CoreMetrics.Counter(label: "anchorage_http_requests_total", dimensions: dimensions, factory: factory)
            .increment()
    }

    /// The Prometheus text exposition.
    /// `GET /metrics`: the exposition in Prometheus' text format.
    func response() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4"],
            body: ResponseBody(byteBuffer: exposition())
        )
    }

    func exposition() -> ByteBuffer {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return ByteBuffer(bytes: bytes)
    }

    /// The route a path belongs to, with ids collapsed, so that metrics
    /// have one series per endpoint.
    /// A multi-store node's store ids are collapsed too
    /// (`/v1/stores/{store}/changes`): no series per store.
    static func route(of path: String) -> String {
        let stores = "/v1/stores/"
        if path.hasPrefix(stores) {
            let rest = path.dropFirst(stores.count)
            guard let slash = rest.firstIndex(of: "/") else { return "/v1/stores/{store}" }
            let inner = String(rest[slash...])
            if inner == "/tokens" { return "/v1/stores/{store}/tokens" }
            if inner.hasPrefix("/tokens/") { return "/v1/stores/{store}/tokens/{id}" }
            let route = self.route(of: "/v1" + inner)
            return route.hasPrefix("/v1/") ? "/v1/stores/{store}" + route.dropFirst(3) : "other"
        }
        if path.hasPrefix("/v1/samples/") { return "/v1/samples/{uuid}" }
        if path.hasPrefix("/v1/webhooks/") { return "/v1/webhooks/{id}" }
        switch path {
        case "/v1/changes", "/v1/samples", "/v1/statistics", "/v1/sources", "/v1/activity-summaries", "/v1/access-log",
            "/v1/sync/identity", "/v1/sync/pull", "/v1/sync/push", "/v1/sync/wait", "/v1/webhooks", "/v1/peers",
            "/v1/stores", "/healthz", "/metrics":
            return path
        default: return "other"
        }
    }
}

/// Times every request into ``NodeMetrics``.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = NodeContext

    let metrics: NodeMetrics
    /// The node's clock, which times the requests.
    let clock: StoreClock

    func handle(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    )
        async throws -> Response
    {
        let start = clock.now()
        let route = NodeMetrics.route(of: request.uri.path)
        do {
            let response = try await next(request, context)
            metrics.recordRequest(
                route: route,
                method: request.method,
                status: response.status,
                took: clock.now() - start
            )
            return response
        } catch {
            metrics.recordRequest(
                route: route,
                method: request.method,
                status: APIError.from(error).status,
                took: clock.now() - start
            )
            throw error
        }
    }
}

/// Counts committed entries and batches, local and replicated, from the
/// log's commit announcements; stops on graceful shutdown. It subscribes
/// when it is made, before the node serves: a commit made while the
/// service group is still starting it is counted too.
struct CommitCounter: Service {
    let metrics: NodeMetrics
    /// The subscription, or why the store could not give one (thrown when
    /// the service runs, which stops the node).
    private let batches: Result<AsyncStream<CommittedBatch>, any Error>

    init(store: HKHealthStore, metrics: NodeMetrics) {
        self.metrics = metrics
        batches = Result { try store.committedBatches() }
    }

    func run() async throws {
        let batches = try self.batches.get()
        await cancelWhenGracefulShutdown {
            for await batch in batches {
                metrics.batches.increment()
                metrics.entries.increment(by: batch.count)
            }
        }
    }
}
