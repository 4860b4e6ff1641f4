package import Anchorage
public import AnchorageKeys
public import AnchorageLog
public import AnchorageService
public import AnchorageSync
public import Foundation

/// How a node serves its store over HTTP.
///
/// ```swift
/// var configuration = NodeConfiguration()
/// configuration.port = 8080
/// configuration.accessPolicy = try AccessPolicy(contentsOf: URL(fileURLWithPath: "tokens.json"))
/// let node = try AnchorageNode(store: store, configuration: configuration)
/// try await node.run()
/// ```
public struct NodeConfiguration: Sendable {
    /// The address to listen on. Loopback unless tokens are configured or
    /// ``allowsUnauthenticatedRemoteAccess`` is set.
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one (see ``AnchorageNode/onServerRunning``).
    public var port = 8080
    /// Who may do what. With no tokens, every request acts as the store's
    /// owner, so the node listens only on loopback.
    public var accessPolicy = AccessPolicy()
    /// Listen on a non-loopback address with no tokens configured: anyone
    /// who reaches the port reads and writes everything. Logged as a warning.
    public var allowsUnauthenticatedRemoteAccess = false
    /// The largest request body accepted (`413 bodyTooLarge` beyond it, at
    /// once when a `Content-Length` declares more). `POST /v1/sync/push`
    /// takes ``SyncLimits/maximumBatchBytes`` instead.
    public var maximumBodyBytes = 8 << 20
    /// The longest a request body may take to arrive, from the request's
    /// head to its last byte: `408 requestTimeout` beyond it, and the
    /// connection is closed.
    public var bodyTimeout: Duration = .seconds(30)
    /// The slowest a request body may arrive, in bytes per second; 0 for no
    /// minimum. After ``bodyRateGracePeriod``, each second must bring this
    /// many more bytes: a body with `n` bytes received is cut off
    /// `bodyRateGracePeriod + n / minimumBodyRate` seconds after its head
    /// (`408 requestTimeout`, and the connection is closed).
    public var minimumBodyRate = 1_024
    /// The time a request body has before ``minimumBodyRate`` applies.
    public var bodyRateGracePeriod: Duration = .seconds(10)
    /// The largest `limit` a page of changes or samples may ask for; also
    /// the page size when a request names none.
    public var maximumPageSize = 10_000
    /// How long the access log keeps its entries (every read of health
    /// data, `GET /v1/access-log`): 90 days and at most a million entries.
    public var accessLogRetention: LocalRecordRetention = AccessLog.defaultRetention
    /// The longest a `wait` long-poll may last, in seconds.
    public var maximumWaitSeconds = 60
    /// How often a streaming change feed sends a heartbeat when nothing
    /// changes, so that consumers and proxies see the connection alive.
    public var heartbeatInterval: Duration = .seconds(15)
    /// How many statistics requests the node computes at once; others wait
    /// their turn. Each may compute up to 100,000 buckets, so this bounds
    /// the cores and memory wide requests can take together.
    public var maximumConcurrentStatistics = 1
    /// The statistics buckets each principal (an app, or the owner) may have
    /// computed a second, on average; 0 for no limit. A principal may use
    /// four seconds' worth at once (and always one request at the cap when
    /// it has used none lately); beyond that, its requests take turns as
    /// the share allows, each waiting up to ``statisticsTurnWait``, then
    /// `429 rateLimited` with `Retry-After`. So no one client keeps a core
    /// busy with wide requests, however many connections it opens.
    ///
    /// 20,000 leaves room for what apps ask (a year of days is 365 buckets,
    /// a day of minutes 1,440) and one request at the cap every five
    /// seconds. Measured on 2 cores, wide requests at 50,000 a second made
    /// other clients' saves' p99 2.4 times as long; at 20,000, 1.7 times.
    public var statisticsBucketsPerSecond = 20_000
    /// What a second of CPU spent computing a statistics answer counts as,
    /// in buckets of ``statisticsBucketsPerSecond``: a request counts the
    /// larger of the buckets it asks for and its CPU time at this rate. At
    /// 1,000,000 a microsecond is a bucket, about what a bucket costs; buckets
    /// made dear by many samples (thousands of overlapping long ones) count
    /// at what they cost. 0 counts buckets only.
    public var statisticsBucketsPerCPUSecond = 1_000_000.0
    /// The longest a statistics request waits for its principal's turn.
    public var statisticsTurnWait: Duration = .seconds(10)
    /// The objects each app (all its tokens together) may save or delete a
    /// second over HTTP, on average; 0 for no limit. An app may use one
    /// second's worth at once (and always one request, however large, when
    /// it has written nothing lately); beyond that, its writes take turns
    /// as the share allows, each waiting up to ``writeTurnWait``, then
    /// `429 rateLimited` with `Retry-After`. So one app flooding the node
    /// with saves slows only itself. The owner's writes are not counted:
    /// the owner holds the store.
    public var appWriteObjectsPerSecond = 1_000
    /// What a write request counts as at least, in objects: a request costs
    /// the node about what ten small objects do, so an app saving one
    /// object a request gets a tenth as many requests.
    public var writeRequestObjects = 10
    /// The longest an app's write waits for its turn.
    public var writeTurnWait: Duration = .seconds(10)
    /// How long a connection may stay idle before the node closes it.
    public var idleTimeout: Duration = .seconds(75)
    /// The clock every timer of the node counts on: the shares (statistics
    /// buckets, writes) refill by it and their turns wait on it; request
    /// bodies' deadline and minimum rate, long-polls, stream heartbeats,
    /// replication waits, webhook back-off and delivery intervals. Tests
    /// move one by hand, so that no outcome depends on how fast or busy a
    /// machine is.
    package var clock: StoreClock = .continuous

    /// A multi-store node: at most this many stores open at once (least
    /// recently used idle ones close first; requests past it wait their turn).
    public var maximumOpenStores = 1_000
    /// A multi-store node: at most this many stores being opened at once.
    public var maximumOpeningStores = 16
    /// A multi-store node: a store nobody has used for this long closes.
    public var storeIdleTimeout: Duration = .seconds(60)
    /// A multi-store node: at most this many stores; creating more is
    /// refused with `quotaExceeded`.
    public var maximumStores = 1_000_000
    /// A multi-store node with a key provider seals every store created on
    /// it under the store's own data key (wrapped in the registry by the
    /// provider); `nil` leaves new stores unsealed. Stores created before
    /// stay as they are.
    public var keyProvider: (any KeyProvider)?
    /// Where a store's copies on other nodes find the data key they share
    /// (a fleet's etcd: set by ``FleetNode``); `nil` on a node of its own.
    public var sharedDataKeys: (any SharedDataKeys)?
    /// A multi-store node: the least time between two passes over every
    /// store with peers in the registry (each pass pulls and pushes); a
    /// store that changes pushes to its peers within about a second.
    public var peerSyncInterval: Duration = .seconds(30)
    /// A multi-store node: at most this many stores replicate at once.
    public var maximumConcurrentPeerRounds = 4
    /// A multi-store node: a PEM file of certificates to trust for the
    /// registry's https peers (otherwise the system's roots).
    public var peerTrustRoots: String?

    /// Bounds on replication requests from peers.
    public var syncLimits = SyncLimits()
    /// The peers this node keeps in continuous two-way sync with.
    public var peers: [PeerConfiguration] = []
    /// How the node's replicators behave (batch sizes, live waits, back-off).
    public var replication = PeerReplicator.Configuration()
    /// ``replication`` waiting on the node's clock: what its replicators run with.
    var replicationOnNodeClock: PeerReplicator.Configuration {
        var replication = replication
        replication.clock = clock
        return replication
    }
    /// When set, a save or delete is answered only once a replica holds it:
    /// a peer pulling from this node has confirmed it (its next pull or live
    /// wait starts after it), within this bound. A write that no replica
    /// confirms in time is answered `503 replicationUnavailable`, and one
    /// that comes while no replica has asked within the bound is refused
    /// before anything is stored. `nil` (the default): a write is answered
    /// once it is durable here.
    public var replicaAcknowledgement: Duration?
    /// Serve HTTPS with this certificate chain and private key (PEM files).
    public var tls: TLSFiles?
    /// The hosts webhooks may post to (`host` or `host:port`, `*` for
    /// any); none, the default, turns webhooks off.
    public var webhookHosts: [String] = []
    /// How long a webhook delivery may take to connect, and to be answered.
    public var webhookTimeout: Duration = .seconds(10)
    /// The first wait after a failed delivery; it doubles up to
    /// ``webhookMaximumBackoff``.
    public var webhookInitialBackoff: Duration = .seconds(1)
    public var webhookMaximumBackoff: Duration = .seconds(300)
    /// The most changes one delivery carries.
    public var webhookPageSize = 500
    /// The most webhooks one principal may register.
    public var maximumWebhooksPerPrincipal = 16
    /// How long a web page sign-in code (the link `serve` prints) may be
    /// exchanged, once, for a session.
    public var signInCodeLifetime: Duration = .seconds(600)
    /// How long a web page session (the owner's rights, in the node's
    /// memory only) lasts.
    public var webSessionLifetime: Duration = .seconds(43_200)

    /// The defaults: loopback port 8080, no tokens, 8 MiB bodies arriving
    /// within 30 s and at 1 KiB/s after 10 s, pages of at most 10,000, waits
    /// of at most 60 s, heartbeats every 15 s.
    public init() {}

    /// The largest body a request to `path` may send: a sync batch for a
    /// push, 1 KiB for a sign-in code, 16 KiB for a webhook, 512 KiB for a
    /// source order (1,000 identifiers of at most 255 bytes, quoted),
    /// ``maximumBodyBytes`` for everything else.
    func maximumBodyBytes(forPath path: String) -> Int {
        if path == "/v1/sync/push" || (path.hasPrefix("/v1/stores/") && path.hasSuffix("/sync/push")) {
            return syncLimits.maximumBatchBytes
        }
        if path == "/v1/sign-in" { return 1_024 }
        let webhooks = path == "/v1/webhooks" || (path.hasPrefix("/v1/stores/") && path.hasSuffix("/webhooks"))
        if webhooks { return 16_384 }
        let order =
            path == "/v1/source-priority" || (path.hasPrefix("/v1/stores/") && path.hasSuffix("/source-priority"))
        return order ? min(524_288, maximumBodyBytes) : maximumBodyBytes
    }

    /// Whether `host` is a loopback address.
    var listensOnLoopbackOnly: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// A peer a node syncs with continuously.
public struct PeerConfiguration: Sendable, Hashable {
    /// The peer node's base URL (`http://host:port` or `https://…`).
    public var url: URL
    /// A token of the peer's that carries the replication grant.
    public var token: String?
    /// A PEM file of certificates to trust for the peer's HTTPS.
    public var trustRoots: String?

    public init(url: URL, token: String? = nil, trustRoots: String? = nil) {
        self.url = url
        self.token = token
        self.trustRoots = trustRoots
    }
}

/// The PEM files of a node's TLS certificate chain and private key.
public struct TLSFiles: Sendable, Hashable {
    public var certificateChain: String
    public var privateKey: String

    public init(certificateChain: String, privateKey: String) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }
}
