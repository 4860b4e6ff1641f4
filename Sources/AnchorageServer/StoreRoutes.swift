import Hummingbird
import NIOCore

/// The routes of one store's data: the same handlers under `/v1` in a
/// single-store node and under `/v1/stores/{store}` in the others
/// (registered by ``NodeRouter``).
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
        routes.get("authorization", use: AuthorizationRoute().show)
        let series = SeriesRoutes()
        routes.get("workouts/{uuid}/routes", use: series.routes)
        routes.get("electrocardiograms/{uuid}/voltages", use: series.voltages)
        routes.get("heartbeat-series/{uuid}/heartbeats", use: series.heartbeats)
    }
}
