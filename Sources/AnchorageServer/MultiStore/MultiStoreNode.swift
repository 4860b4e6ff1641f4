public import Anchorage
import AnchorageLog
public import AnchorageService
import AnchorageSync
import AsyncHTTPClient
import Foundation
public import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import UnixSignals

/// A node serving every store of a registry (`anchorage serve --stores
/// DIR`): `/v1/stores/{store}/changes`, `/samples`, `/statistics`,
/// `/sources`, `/activity-summaries`, `/access-log` and `/sync/…`, each
/// reached with a token the registry issued for that store; `/v1/stores`
/// and `/metrics` with the administrator's (docs/http-api.md, "Many stores
/// in one node").
///
/// ```swift
/// let node = try MultiStoreNode(root: url, configuration: NodeConfiguration())
/// try await node.run()            // until SIGTERM or SIGINT
/// ```
///
/// A store opens on its first request and closes once idle; at most
/// ``NodeConfiguration/maximumOpenStores`` are open (see ``StorePool``).
public final class MultiStoreNode: Sendable {
    public let configuration: NodeConfiguration
    /// The node's stores and tokens.
    public let registry: NodeRegistry
    /// The data keys of the stores it seals; `nil` without a key provider.
    public let keyring: StoreKeyring?
    /// The stores open now.
    let pool: StorePool<ServedStore>
    let metrics = NodeMetrics()
    let shutdown = ShutdownSignal()
    let readPool = LowPriorityPool()
    /// Posts the stores' webhooks; `nil` when the node posts none.
    let webhookClient: HTTPClient?
    /// Opens again the stores that closed with undelivered webhook changes.
    let webhookRetrier: WebhookRetrier
    /// The batches peers pushed to the node's stores.
    let received = ReceivedBatches()
    /// Replicates the stores with the peers the registry names.
    let peerScheduler: StorePeerScheduler
    /// Which stores changed, across the node (`GET /v1/store-updates`).
    let storeUpdates: StoreUpdatesFeed
    /// The connections to those peers, shared by every store.
    let peerClient: HTTPClient
    let logger: Logger
    let server: HTTPServerBuilder
    private let runner = NodeRunner()

    /// Opens the registry under `root` (creating it when the directory is
    /// new) and prepares to serve its stores.
    ///
    /// - Throws: ``NodeConfigurationError`` when the configuration asks for
    ///   what a multi-store node does not do (a token file, peers of its
    ///   own), or the registry cannot be opened.
    public convenience init(
        root: URL,
        configuration: NodeConfiguration,
        storeConfiguration: HKHealthStore.Configuration = HKHealthStore.Configuration(),
        logger: Logger = Logger(label: "anchorage.node")
    ) throws {
        try self.init(
            root: root,
            configuration: configuration,
            storeConfiguration: storeConfiguration,
            portableAnchors: false,
            logger: logger
        )
    }

    /// A node whose store updates carry portable anchors (`portableAnchors`:
    /// each with its version vector, valid on every copy of the store), as a
    /// fleet node's do.
    init(
        root: URL,
        configuration: NodeConfiguration,
        storeConfiguration: HKHealthStore.Configuration = HKHealthStore.Configuration(),
        portableAnchors: Bool,
        logger: Logger
    ) throws {
        guard configuration.accessPolicy.tokens.isEmpty else {
            throw NodeConfigurationError(
                "a multi-store node's tokens are its registry's: issue them with `anchorage tokens issue`, not a token file"
            )
        }
        guard configuration.peers.isEmpty else {
            throw NodeConfigurationError(
                "a multi-store node's peers are each store's: add them with `anchorage peers add` or POST /v1/stores/{store}/peers"
            )
        }
        self.configuration = configuration
        self.logger = logger
        do {
            var registryConfiguration = NodeRegistry.Configuration()
            registryConfiguration.maximumStores = configuration.maximumStores
            registry = try NodeRegistry(root: root, configuration: registryConfiguration)
        } catch {
            throw NodeConfigurationError(error.message, underlyingError: error)
        }
        let registry = registry
        let keyring = configuration.keyProvider.map {
            StoreKeyring(registry: registry, provider: $0, shared: configuration.sharedDataKeys)
        }
        self.keyring = keyring
        // What can still fail comes before the HTTP clients, which must be shut down once made.
        let pace = RequestBodyPace(configuration)
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestBodyGuard(pace: pace, clock: configuration.clock)],
            idleTimeout: .nanoseconds(Int64(configuration.idleTimeout.components.seconds) * 1_000_000_000)
        )
        server = try AnchorageNode.server(http1, tls: configuration.tls)
        do {
            peerClient = try HTTPPeerTransport.client(trustRoots: configuration.peerTrustRoots)
        } catch {
            throw NodeConfigurationError(
                "cannot load the peers' trust roots \(configuration.peerTrustRoots ?? ""): "
                    + ConnectionErrorWords.describe(error, loading: configuration.peerTrustRoots ?? ""),
                underlyingError: error
            )
        }
        let peerScheduler = StorePeerScheduler(
            registry: registry,
            client: peerClient,
            configuration: configuration,
            logger: logger
        )
        self.peerScheduler = peerScheduler
        let storeUpdates = StoreUpdatesFeed(registry: registry, clock: configuration.clock) { error in
            logger.error("cannot record store updates: \(error.message)")
        }
        self.storeUpdates = storeUpdates
        let retention = configuration.accessLogRetention
        let webhookClient = configuration.webhookHosts.isEmpty ? nil : WebhookDeliverer.client(configuration)
        self.webhookClient = webhookClient
        let webhookRetrier = WebhookRetrier(interval: configuration.webhookMaximumBackoff, clock: configuration.clock)
        self.webhookRetrier = webhookRetrier
        var poolConfiguration = StorePool<ServedStore>.Configuration()
        poolConfiguration.capacity = configuration.maximumOpenStores
        poolConfiguration.maximumOpening = configuration.maximumOpeningStores
        poolConfiguration.idle = configuration.storeIdleTimeout
        pool = StorePool(
            configuration: poolConfiguration,
            clock: configuration.clock,
            open: { name in
                // A request that passed the registry before the store's
                // deletion began must not re-create its directory.
                guard try registry.store(name) != nil else {
                    throw ServiceError(.storeNotFound, "there is no store \(name)")
                }
                let directory = registry.directory(of: name)
                var storeConfiguration = storeConfiguration
                if let keyring {
                    storeConfiguration.log.sealing = try await keyring.sealing(for: name, directory: directory)
                }
                let served = try await ServedStore.open(
                    name,
                    directory: directory,
                    configuration: storeConfiguration,
                    accessLogRetention: retention,
                    clock: configuration.clock
                )
                do {
                    if let webhookClient {
                        try served.deliverWebhooks(
                            with: webhookClient,
                            registry: registry,
                            configuration: configuration,
                            logger: logger
                        )
                    }
                    // Marked open before anything can write, so a crash cannot lose an update.
                    try await storeUpdates.markOpen(name)
                    let published = try registry.publishedAnchor(of: name)
                    try served.watchChanges { head, moved in
                        if moved { peerScheduler.markDue(name) }
                        guard let anchor = served.updateAnchor(head, portable: portableAnchors) else { return }
                        // An empty store has nothing to announce until its first write.
                        if moved || (anchor != published && !(published == nil && head.seq == 0)) {
                            storeUpdates.changed(name, anchor: anchor)
                        }
                    }
                } catch {
                    await served.close()
                    throw error
                }
                return served
            },
            close: { [webhookRetrier] served in
                // Its last update is committed, and it is marked closed,
                // before it closes; it stays marked open (checked at the
                // next start) if that fails.
                storeUpdates.closing(
                    served.name,
                    anchor: (try? served.head()).flatMap { served.updateAnchor($0, portable: portableAnchors) }
                )
                if await served.close() { webhookRetrier.add(served.name) }
            },
            stop: { $0.closing.fire() }
        )
        let pool = pool
        webhookRetrier.open { name in
            // Opening starts its deliveries; it closes again once idle.
            _ = try? await pool.withStore(name) { _ in }
        }
        peerScheduler.open { name, round in try await pool.withStore(name) { await round($0) } }
    }

    /// The Hummingbird application, for running under a service group or
    /// testing with HummingbirdTesting.
    public func application(
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var application = NodeRunner.application(
            router: router(),
            server: server,
            configuration: configuration,
            logger: logger,
            onServerRunning: onServerRunning
        )
        application.addServices(PoolSweeper(pool: pool))
        if webhookClient != nil { application.addServices(webhookRetrier) }
        application.addServices(peerScheduler)
        application.addServices(StoreUpdatesService(feed: storeUpdates, pool: pool, logger: logger))
        return application
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully and
    /// closes every store.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await runner.run(application(onServerRunning: onServerRunning), shutdown: shutdown, logger: logger) {
            await close()
        }
    }

    /// Stops a node started with ``run(onServerRunning:)`` as SIGTERM does.
    public func stop() async {
        await runner.stop()
    }

    /// Closes every open store.
    public func close() async {
        await readPool.shutdown()
        await pool.closeAll()
        try? await webhookClient?.shutdown()
        try? await peerClient.shutdown()
    }

    /// Deletes a store this node may be serving: from the call on its
    /// tokens are refused; its followed feeds and waiting peers are ended,
    /// its last requests finish, then it is closed and its directory erased
    /// durably. Its anchors are refused from then on, also by a new store
    /// of the same id (each store's log has its own id).
    ///
    /// - Throws: ``ServiceError`` `.storeNotFound`, or `.storeInUse` when
    ///   another process has the store open (it stays refused, and is
    ///   erased when the node next starts).
    public func deleteStore(_ name: StoreName) async throws(ServiceError) {
        do {
            try await registry.deleteStore(name) { await pool.remove($0) }
        } catch {
            pool.endRemoval(name)
            throw error
        }
        pool.endRemoval(name)
        peerScheduler.forget(name)
        storeUpdates.deletionRecorded(name)
    }

    /// Destroys `name`'s data key (crypto-shredding): the store's requests
    /// end and it closes first, so no open copy keeps the unwrapped key;
    /// then the registry's wrapped versions go and a tombstone stays.
    ///
    /// - Throws: ``ServiceError`` `.storeNotFound`, `.invalidArgument` for
    ///   a node that does not seal or a store that is not sealed.
    public func shredStore(_ name: StoreName, by principal: String) async throws(ServiceError) -> ShreddedKey {
        guard let keyring else {
            throw ServiceError(
                .invalidArgument,
                "this node does not seal its stores (serve --seal): store \(name) has no data key to shred"
            )
        }
        guard try registry.store(name) != nil else { throw ServiceError(.storeNotFound, "there is no store \(name)") }
        return try await shredKey(of: name, by: principal, keyring: keyring)
    }

    /// Destroys `name`'s data key wherever it is shared
    /// (``StoreKeyring/shredEverywhere(_:by:now:)``); a copy this node holds
    /// closes first, once `stopping` has ended what else holds it open (a
    /// fleet copy's follower).
    func shredKey(
        of name: StoreName,
        by principal: String,
        keyring: StoreKeyring,
        stopping: () async -> Void = {}
    ) async throws(ServiceError) -> ShreddedKey {
        let holds = try registry.store(name) != nil
        if holds {
            await stopping()
            await pool.remove(name)
        }
        defer { if holds { pool.endRemoval(name) } }
        return try await keyring.shredEverywhere(name, by: principal)
    }

    func router() -> Router<NodeContext> { routes.router() }

    /// Every route of a multi-store node (docs/openapi.yaml, `multi`).
    func addRoutes(to router: some RouterMethods<NodeContext>) { routes.addRoutes(to: router) }

    /// What the node's routes share (a fleet node's too).
    var routeParts: RouteParts {
        RouteParts(
            configuration: configuration,
            metrics: metrics,
            shutdown: shutdown,
            readPool: readPool,
            received: received
        )
    }

    /// The node's stores as a ``StoreHost``, reached with `tokens`' tokens.
    func host(tokens: TokenSource, kind: OpenAPIDocument.NodeKind) -> RegistryHost {
        RegistryHost(
            registry: registry,
            pool: pool,
            tokens: tokens,
            replicaAcknowledgement: configuration.replicaAcknowledgement,
            kind: kind
        )
    }

    var routes: NodeRouter<RegistryHost> {
        // The routes only a multi-store node has: its administration.
        NodeRouter(parts: routeParts, host: host(tokens: .registry(registry), kind: .multi)) { [self] router, _ in
            AdminRoutes(
                registry: registry,
                deleteStore: { [self] name in try await deleteStore(name) },
                shredStore: { [self] name in try await shredStore(name, by: "the node's administrator") },
                peerStatus: { [peerScheduler] id, name in peerScheduler.status(of: id, in: name) }
            ).register(on: router)
            StoreUpdatesRoutes(
                source: NodeStoreUpdatesSource(feed: storeUpdates),
                configuration: configuration,
                shutdown: shutdown
            )
            .register(on: router.group().add(middleware: AdminMiddleware(registry: registry, consumers: true)))
            router.group().add(middleware: AdminMiddleware(registry: registry))
                .get("/metrics") { [metrics] _, _ in metrics.response() }
        }
    }
}

/// Commits the node's store updates while it runs, after checking the
/// stores a crash may have left with updates unpublished: those marked
/// open (each is opened, which publishes its head, and closes once idle).
struct StoreUpdatesService: Service {
    let feed: StoreUpdatesFeed
    let pool: StorePool<ServedStore>
    let logger: Logger

    func run() async throws {
        let marked = (try? feed.registry.storesMarkedOpen()) ?? []
        let checking = Task {
            for name in marked where !Task.isCancelled {
                do {
                    try await pool.withStore(name) { _ in }
                } catch {
                    logger.warning("cannot check store \(name) for unpublished updates: \(error)")
                }
            }
        }
        await cancelWhenGracefulShutdown { await feed.run() }
        checking.cancel()
    }
}

/// Closes idle stores while the node runs.
struct PoolSweeper: Service {
    let pool: StorePool<ServedStore>

    func run() async throws {
        await cancelWhenGracefulShutdown { await pool.run() }
    }
}
