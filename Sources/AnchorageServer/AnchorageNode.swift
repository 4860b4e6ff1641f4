public import Anchorage
import AnchorageService
public import AnchorageSync
import Foundation
import HTTPTypes
public import Hummingbird
import HummingbirdCore
import HummingbirdTLS
public import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization
import UnixSignals

/// One node: a store served over HTTP (docs/http-api.md).
///
/// ```swift
/// let node = try await AnchorageNode(directory: url, configuration: NodeConfiguration())
/// try await node.run()            // until SIGTERM or SIGINT
/// ```
///
/// On start the node records each token's grants in the log as the
/// owner's decisions. On SIGTERM it stops accepting connections, lets the
/// requests in flight finish (streams end at once), and closes the store:
/// every write it acknowledged is durable.
public final class AnchorageNode: Sendable {
    /// The node's configuration.
    public let configuration: NodeConfiguration
    let access: NodeAccess
    /// Every read of health data, recorded in the owner's store.
    let accessLog: AccessLog
    let metrics = NodeMetrics()
    let shutdown = ShutdownSignal()
    let receivedBatches = ReceivedBatches()
    /// The thread wide reads (statistics) are computed on, at a low CPU
    /// priority, apart from the threads that serve every other request.
    let readPool = LowPriorityPool()
    /// What the store's replicas confirmed.
    let followers: ReplicaFollowers
    private let runner = NodeRunner()
    let logger: Logger
    /// One replicator per configured peer, followed while the node runs.
    let replicators: [PeerReplicator]
    private let transports: [HTTPPeerTransport]
    private let server: HTTPServerBuilder
    /// Posts the changes registered webhooks ask for.
    let webhooks: WebhookDeliverer
    /// The web page's one-time codes and sessions.
    let signIn: WebSignIn

    /// Opens the store in `directory` and prepares to serve it.
    /// `storeConfiguration` applies when this opens the store first in the
    /// process.
    ///
    /// - Throws: ``NodeConfigurationError`` when the configuration is unsafe (no
    ///   tokens on a non-loopback address without the explicit override),
    ///   or the store's ``HKError`` when it cannot be opened.
    public init(
        directory: URL,
        configuration: NodeConfiguration,
        storeConfiguration: HKHealthStore.Configuration = HKHealthStore.Configuration(),
        logger: Logger = Logger(label: "anchorage.node")
    ) async throws {
        if configuration.accessPolicy.tokens.isEmpty && !configuration.listensOnLoopbackOnly {
            guard configuration.allowsUnauthenticatedRemoteAccess else {
                throw NodeConfigurationError(
                    "refusing to listen on \(configuration.host) without tokens: anyone reaching it could read and "
                        + "write everything; give a token file, listen on 127.0.0.1, or allow it explicitly"
                )
            }
            logger.warning(
                "listening without tokens on a non-loopback address: anyone who reaches it reads and writes everything",
                metadata: ["host": "\(configuration.host)"]
            )
        }
        self.configuration = configuration
        self.logger = logger
        let pace = RequestBodyPace(configuration)
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestBodyGuard(pace: pace, clock: configuration.clock)],
            idleTimeout: .nanoseconds(Int64(configuration.idleTimeout.components.seconds) * 1_000_000_000)
        )
        server = try Self.server(http1, tls: configuration.tls)
        let transports = try configuration.peers.map { peer in
            do {
                return try HTTPPeerTransport(url: peer.url, token: peer.token, trustRoots: peer.trustRoots)
            } catch let error as SyncError {
                throw NodeConfigurationError(error.message, underlyingError: error)
            } catch {
                throw NodeConfigurationError(
                    "cannot load the trust roots \(peer.trustRoots ?? "") for the peer \(peer.url): "
                        + ConnectionErrorWords.describe(error, loading: peer.trustRoots ?? ""),
                    underlyingError: error
                )
            }
        }
        self.transports = transports
        let owner = HKHealthStore(directory: directory, configuration: storeConfiguration)
        try await owner.opened()
        signIn = WebSignIn(
            clock: configuration.clock,
            codeLifetime: configuration.signInCodeLifetime,
            sessionLifetime: configuration.webSessionLifetime
        )
        access = NodeAccess(owner: owner, directory: directory, policy: configuration.accessPolicy, signIn: signIn)
        let log = try owner.eventLog()
        accessLog = AccessLog(log: log, retention: configuration.accessLogRetention, clock: configuration.clock)
        followers = ReplicaFollowers(clock: configuration.clock)
        webhooks = WebhookDeliverer(log: log, configuration: configuration, logger: logger) { [access] principal in
            access.store(forPrincipal: principal)
        }
        replicators = transports.map { transport in
            PeerReplicator(
                log: log,
                peer: transport,
                configuration: configuration.replicationOnNodeClock,
                logger: Logger(label: "anchorage.sync")
            )
        }
        do {
            try await Self.recordGrants(configuration.accessPolicy, owner: owner)
        } catch {
            await close()
            throw error
        }
    }

    /// Plain HTTP/1.1, or HTTPS when certificate files are given.
    static func server(_ http1: HTTP1Channel.Configuration, tls: TLSFiles?) throws -> HTTPServerBuilder {
        guard let tls else { return .http1(configuration: http1) }
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMFile(tls.certificateChain)
        } catch {
            throw NodeConfigurationError(
                "cannot load the TLS certificate \(tls.certificateChain): \(ConnectionErrorWords.describe(error, loading: tls.certificateChain))",
                underlyingError: error
            )
        }
        do {
            key = try NIOSSLPrivateKey(file: tls.privateKey, format: .pem)
        } catch {
            throw NodeConfigurationError(
                "cannot load the TLS key \(tls.privateKey): \(ConnectionErrorWords.describe(error, loading: tls.privateKey))",
                underlyingError: error
            )
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(key)
        )
        return try .tls(.http1(configuration: http1), tlsConfiguration: configuration)
    }

    /// Makes the log's grants match the token file: grants what it lists,
    /// denies what it no longer lists, every grant of a principal it no
    /// longer names included. Appends nothing when they already match.
    static func recordGrants(_ policy: AccessPolicy, owner: HKHealthStore) async throws {
        typealias Grants = (source: HKSource, share: Set<HKSampleType>, read: Set<HKObjectType>)
        var wanted: [String: Grants] = [:]
        for token in policy.tokens {
            guard let principal = token.principal else { continue }
            var merged = wanted[principal.bundleIdentifier] ?? (principal, [], [])
            merged.read.formUnion(token.read)
            merged.share.formUnion(token.share)
            wanted[principal.bundleIdentifier] = merged
        }
        var current: [String: Grants] = [:]
        for (source, granted) in try owner.grantedAuthorizations() {
            current[source.bundleIdentifier] = (source, granted.share, granted.read)
        }
        // Principals the file names, and those it no longer names, in a stable order.
        for bundleIdentifier in Set(wanted.keys).union(current.keys).sorted() {
            let want = wanted[bundleIdentifier]
            let had = current[bundleIdentifier]
            guard let principal = want?.source ?? had?.source else { continue }
            let share = want?.share ?? []
            let read = want?.read ?? []
            let hadShare = had?.share ?? []
            let hadRead = had?.read ?? []
            let grantShare = share.subtracting(hadShare)
            let grantRead = read.subtracting(hadRead)
            if !grantShare.isEmpty || !grantRead.isEmpty {
                try await owner.setAuthorization(for: principal, toShare: grantShare, read: grantRead, granted: true)
            }
            let denyShare = hadShare.subtracting(share)
            let denyRead = hadRead.subtracting(read)
            if !denyShare.isEmpty || !denyRead.isEmpty {
                try await owner.setAuthorization(for: principal, toShare: denyShare, read: denyRead, granted: false)
            }
        }
    }

    /// The Hummingbird application, for running under a service group or
    /// testing with HummingbirdTesting.
    public func application(
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    )
        -> some ApplicationProtocol
    {
        var application = NodeRunner.application(
            router: router(),
            server: server,
            configuration: configuration,
            logger: logger,
            onServerRunning: onServerRunning
        )
        application.addServices(CommitCounter(store: access.owner, metrics: metrics), webhooks)
        if !replicators.isEmpty { application.addServices(PeerSyncService(replicators: replicators)) }
        return application
    }

    /// Serves until SIGTERM or SIGINT, then shuts down gracefully and closes
    /// the store.
    ///
    /// - Parameter onServerRunning: called with the bound port once the node
    ///   accepts connections.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try await runner.run(application(onServerRunning: onServerRunning), shutdown: shutdown, logger: logger) {
            await close()
        }
    }

    /// A new one-time code for the web page's sign-in link
    /// (`http://host:port/#sign-in=CODE`): exchanged once, within
    /// ``NodeConfiguration/signInCodeLifetime``, for a session with the
    /// owner's rights. `nil` when the node takes no tokens: then every
    /// request, the page's included, already acts as the owner.
    public func issueSignInCode() -> String? {
        access.requiresTokens ? signIn.issueCode() : nil
    }

    /// The state of replication with each configured peer (what
    /// `GET /v1/peers` answers).
    public var peerStatuses: [PeerStatus] {
        replicators.map(\.status)
    }

    /// Stops a node started with ``run(onServerRunning:)`` as SIGTERM does:
    /// gracefully.
    public func stop() async {
        await runner.stop()
    }

    /// Closes the node's stores.
    public func close() async {
        await readPool.shutdown()
        for transport in transports { try? await transport.shutdown() }
        for store in access.principalStores { await store.close() }
        await access.owner.close()
    }

    func router() -> Router<NodeContext> { routes.router() }

    /// Every route of a single-store node (docs/openapi.yaml, `single`).
    func addRoutes(to router: some RouterMethods<NodeContext>) { routes.addRoutes(to: router) }

    var routes: NodeRouter<OneStoreHost> {
        let host = OneStoreHost(
            access: access,
            accessLog: accessLog,
            followers: followers,
            webhooks: webhooks,
            writes: WriteGuard(followers: followers, replicaAcknowledgement: configuration.replicaAcknowledgement)
        )
        let parts = RouteParts(
            configuration: configuration,
            metrics: metrics,
            shutdown: shutdown,
            readPool: readPool,
            received: receivedBatches
        )
        // The routes only a single-store node has.
        return NodeRouter(parts: parts, host: host) { [self] router, store in
            let signInRoutes = SignInRoutes(signIn: signIn)
            router.post("/v1/sign-in", use: signInRoutes.exchange)
            store.delete("sign-in", use: signInRoutes.end)
            router.group().add(middleware: StoreHostMiddleware(host: host))
                .get("/metrics") { [metrics] _, _ in metrics.response() }
            let sync = SyncRoutes(
                configuration: configuration,
                shutdown: shutdown,
                replicators: replicators,
                received: receivedBatches
            )
            store.get("peers", use: sync.peers)
        }
    }
}
