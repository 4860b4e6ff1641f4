import Hummingbird
import NIOCore

/// The routes of one store's data: the same handlers under `/v1` in a
/// single-store node and under `/v1/stores/{store}` in a multi-store one.
///
/// ```swift
/// StoreRoutes(configuration: configuration, metrics: metrics, shutdown: shutdown, readPool: readPool)
///     .register(on: router.group("/v1"))
/// ```
struct StoreRoutes: Sendable {
    let feed: ChangeFeed
    let samples: SampleRoutes
    let statistics: StatisticsRoutes

    init(configuration: NodeConfiguration, metrics: NodeMetrics, shutdown: ShutdownSignal, readPool: LowPriorityPool) {
        feed = ChangeFeed(configuration: configuration, metrics: metrics, shutdown: shutdown)
        samples = SampleRoutes(configuration: configuration)
        statistics = StatisticsRoutes(
            limiter: WorkLimiter(permits: configuration.maximumConcurrentStatistics),
            pool: readPool,
            quota: PrincipalQuota(
                rate: Double(configuration.statisticsBucketsPerSecond),
                burst: 4 * Double(configuration.statisticsBucketsPerSecond),
                maximumWait: configuration.statisticsTurnWait,
                clock: configuration.clock
            ),
            bucketsPerCPUSecond: configuration.statisticsBucketsPerCPUSecond
        )
    }

    /// Adds the store's routes to `routes`, relative to its path.
    func register(on routes: some RouterMethods<NodeContext>) {
        routes.get("changes", use: feed.handle)
        routes.post("samples", use: samples.save)
        routes.get("samples", use: samples.list)
        routes.delete("samples/{uuid}", use: samples.delete)
        routes.get("statistics", use: statistics.statistics)
        routes.get("sources", use: statistics.sources)
        routes.put("source-priority", use: SourcePriorityRoutes().set)
        routes.get("activity-summaries", use: ActivitySummaryRoutes().list)
        routes.get("access-log", use: AccessLogRoute().list)
        let series = SeriesRoutes()
        routes.get("workouts/{uuid}/routes", use: series.routes)
        routes.get("electrocardiograms/{uuid}/voltages", use: series.voltages)
        routes.get("heartbeat-series/{uuid}/heartbeats", use: series.heartbeats)
    }

    /// A node's router with what every node has before its routes: metrics,
    /// errors as JSON, one spelling per path, body limits, and
    /// `GET /healthz` (no token).
    static func baseRouter(
        configuration: NodeConfiguration,
        metrics: NodeMetrics,
        kind: OpenAPIDocument.NodeKind
    ) -> Router<NodeContext> {
        let router = Router(context: NodeContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: ErrorMiddleware(kind: kind))
        router.add(middleware: CanonicalPathMiddleware())
        router.add(middleware: RequestBodyLimitMiddleware(configuration: configuration))
        return router
    }

    /// The routes every kind of node answers without a token: `/healthz`,
    /// `/openapi.json` (docs/openapi.yaml, the paths this kind serves), and
    /// the web page (`/` and `/web/{asset}`).
    static func addPublicRoutes(to router: some RouterMethods<NodeContext>, kind: OpenAPIDocument.NodeKind) {
        router.get("/healthz") { _, _ in
            JSONBodies.response(ByteBuffer(string: "{\"status\":\"ok\"}"))
        }
        let document = OpenAPIDocument.json(for: kind)
        router.get("/openapi.json") { _, _ in JSONBodies.response(ByteBuffer(bytes: document)) }
        WebAssets.addRoutes(to: router)
    }
}
