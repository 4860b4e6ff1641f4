import AnchorageCore
import AnchorageFleet
import AnchorageLog
import AnchorageService
import AnchorageSync
import AsyncHTTPClient
import Etcd
public import Foundation
import Hummingbird
public import Logging
import ServiceLifecycle
import Synchronization

/// A node of a fleet (`anchorage serve --fleet`, docs/fleet.md): a
/// multi-store node whose stores are placed by the fleet's controller
/// through etcd, each kept on several nodes. Any node accepts
/// `/v1/stores/{store}/…`: it serves the request when it is the store's
/// primary, and forwards it to the primary otherwise; a primary answers a
/// write once a replica holds it.
///
/// ```swift
/// let node = try FleetNode(root: dataDirectory, configuration: configuration, fleet: fleet)
/// try await node.run()        // joins, serves until SIGTERM, then leaves
/// ```
public final class FleetNode: Sendable {
    public let fleet: FleetConfiguration
    let node: MultiStoreNode
    let etcd: EtcdClient
    let membership: NodeMembership
    let directory: NodeDirectory
    let cache: PlacementCache
    let tokens: FleetTokens
    let copies: FleetCopies
    let controller: FleetController
    let probe: FleetProbe
    /// The fleet's store-updates feed, and this node's part in it.
    let storeUpdates: FleetStoreUpdates
    let publisher: FleetUpdatesPublisher
    /// Connections to the other nodes: replication (one live wait per
    /// replica copy) and forwarded requests.
    let client: HTTPClient
    let logger: Logger
    private let runner = NodeRunner()
    /// Notified when the placements, the live nodes or this node's
    /// unreachable reports change.
    let changes = ChangeSignal()
    /// The directory's lock and the lease kept for a restart.
    let leaseFile: FleetLeaseFile
    /// The data keys whose copies this node is re-sealing now.
    let resealing = Mutex<Set<KeyID>>([])

    /// Prepares a fleet node whose store copies live under `root`.
    ///
    /// Writes wait for a replica (``NodeConfiguration/replicaAcknowledgement``,
    /// 5 s unless set).
    ///
    /// - Throws: ``NodeConfigurationError`` for a configuration the fleet
    ///   cannot use (no etcd member, a node id that is no path segment…).
    public init(
        root: URL,
        configuration: NodeConfiguration,
        fleet: FleetConfiguration,
        logger: Logger = Logger(label: "anchorage.fleet")
    ) throws {
        var configuration = configuration
        if configuration.replicaAcknowledgement == nil { configuration.replicaAcknowledgement = .seconds(5) }
        guard !fleet.secret.isEmpty else { throw NodeConfigurationError("the fleet's secret is empty") }
        guard URL(string: fleet.address)?.host != nil else {
            throw NodeConfigurationError("the node's address \(fleet.address) is not an http:// URL with a host")
        }
        self.fleet = fleet
        self.logger = logger
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let leaseFile = try FleetLeaseFile(root: root)
        self.leaseFile = leaseFile
        do {
            var etcdConfiguration = EtcdClient.Configuration(endpoints: fleet.etcd)
            etcdConfiguration.clock = configuration.clock
            etcd = try EtcdClient(etcdConfiguration)
        } catch {
            throw NodeConfigurationError("etcd: \(error)", underlyingError: error)
        }
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.timeout = .init(connect: .seconds(2))
        clientConfiguration.connectionPool = .init(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: 4_096
        )
        // A node that was down must be reached the moment it is back: no
        // hidden back-off of the pool's own (its followers and forwarded
        // requests retry on their own terms).
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        cache = PlacementCache(etcd: etcd, keys: fleet.keys, changes: changes)
        if fleet.seals {
            guard configuration.keyProvider != nil else {
                try? client.syncShutdown()
                throw NodeConfigurationError(
                    "a fleet that seals needs a key provider on every node (--key-file or --pkcs11-module)"
                )
            }
            configuration.sharedDataKeys = FleetDataKeys(etcd: etcd, keys: fleet.keys, cache: cache)
        }
        do {
            node = try MultiStoreNode(root: root, configuration: configuration, portableAnchors: true, logger: logger)
        } catch {
            try? client.syncShutdown()
            let etcd = self.etcd
            Task { await etcd.shutdown() }
            throw error
        }
        membership = NodeMembership(
            etcd: etcd,
            keys: fleet.keys,
            nodeID: fleet.nodeID,
            record: NodeRecord(address: fleet.address, zone: fleet.zone, capacity: fleet.capacity),
            ttl: fleet.leaseTTL,
            margin: fleet.leaseMargin,
            logger: logger,
            clock: configuration.clock,
            onLease: { [leaseFile] in leaseFile.keep($0) }
        )
        directory = NodeDirectory(etcd: etcd, keys: fleet.keys, changes: changes, clock: configuration.clock)
        tokens = FleetTokens(etcd: etcd, keys: fleet.keys)
        var replication = configuration.replicationOnNodeClock
        replication.backoff = Backoff(base: .milliseconds(50), maximum: .seconds(1))
        replication.liveWait = .seconds(10)
        replication.requestTimeout = .seconds(5)
        copies = FleetCopies(
            .init(
                fleet: fleet,
                registry: node.registry,
                pool: node.pool,
                cache: cache,
                directory: directory,
                membership: membership,
                etcd: etcd,
                client: client,
                replication: replication,
                changes: changes,
                clock: configuration.clock,
                logger: logger,
                drop: { [node] name in try await node.deleteStore(name) }
            )
        )
        let controller = FleetController(
            fleet: fleet,
            etcd: etcd,
            membership: membership,
            directory: directory,
            cache: cache,
            logger: logger
        )
        self.controller = controller
        storeUpdates = FleetStoreUpdates(etcd: etcd, keys: fleet.keys, clock: configuration.clock)
        publisher = FleetUpdatesPublisher(
            feed: storeUpdates,
            local: node.storeUpdates,
            cache: cache,
            nodeID: fleet.nodeID,
            clock: configuration.clock,
            logger: logger
        )
        probe = FleetProbe(
            .init(
                fleet: fleet,
                directory: directory,
                membership: membership,
                etcd: etcd,
                client: client,
                clock: configuration.clock,
                changes: changes,
                logger: logger,
                // The primaries it follows, and the controller.
                followed: { [copies] in copies.followedPrimaries.union(controller.controllerNode.map { [$0] } ?? []) }
            )
        )
    }

    /// The Hummingbird application with the fleet's background work.
    func application(onServerRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        var application = NodeRunner.application(
            router: router(),
            server: node.server,
            configuration: node.configuration,
            logger: logger,
            onServerRunning: onServerRunning
        )
        application.addServices(
            PoolSweeper(pool: node.pool),
            FleetTask { [membership] in await membership.run() },
            FleetTask { [directory] in try? await directory.run() },
            FleetTask { [cache] in try? await cache.run() },
            FleetTask { [tokens] in try? await tokens.run() },
            FleetTask { [copies] in await copies.run() },
            FleetTask { [controller] in await controller.run() },
            FleetTask { [probe] in await probe.run() },
            FleetTask { [self] in await followShreddedKeys() },
            FleetTask { [self] in await followRekeys() },
            FleetTask { [self] in await retryUnfinishedRekeys() },
            StoreUpdatesService(feed: node.storeUpdates, pool: node.pool, logger: logger),
            FleetTask { [storeUpdates] in await storeUpdates.run() },
            FleetTask { [publisher] in await publisher.run() }
        )
        return application
    }

    /// Joins the fleet, serves until SIGTERM or SIGINT, hands the stores it
    /// leads over to their replicas (``handOff()``), then leaves the fleet.
    ///
    /// - Throws: ``FleetError`` `nodeIDInUse` when a live node has this id
    ///   (after waiting a lease's TTL for a dead one's to end);
    ///   ``EtcdError`` when etcd cannot be reached to join.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        // A node restarted right after it died takes its old lease back (it
        // kept its id in its directory); failing that (the lease file lost),
        // its id is held by that lease until it ends, within a TTL.
        let clock = node.configuration.clock
        let patience = clock.instant + .seconds(fleet.leaseTTL) + .seconds(2)
        while true {
            do {
                try await membership.join(adopting: leaseFile.previous)
                break
            } catch let error as FleetError where error.code == .nodeIDInUse && clock.instant < patience {
                try? await clock.sleep(.milliseconds(250))
            } catch {
                await close()
                throw error
            }
        }
        try await runner.run(
            application(onServerRunning: onServerRunning),
            shutdown: node.shutdown,
            logger: logger,
            first: [FleetHandoff(node: self)]
        ) {
            try? await membership.leave()
            await close()
        }
    }

    /// Stops a node started with ``run(onServerRunning:)`` as SIGTERM does.
    public func stop() async {
        await runner.stop()
    }

    func close() async {
        await node.close()
        try? await client.shutdown()
        await etcd.shutdown()
    }
}

/// A background task of the fleet node, ended at shutdown.
struct FleetTask: Service {
    let body: @Sendable () async -> Void

    init(_ body: @escaping @Sendable () async -> Void) {
        self.body = body
    }

    func run() async throws {
        await cancelWhenGracefulShutdown { await body() }
    }
}
