public import AnchorageCore
public import AnchorageLog
import Foundation
public import Logging
import Synchronization

/// Replicates one store's log with one peer: rounds on demand
/// (``sync(_:)``), or continuously (``follow(_:)``) with live waits on the
/// peer's head, back-off with jitter on failures, and a status for
/// operators.
///
/// ```swift
/// let replicator = PeerReplicator(log: log, peer: HTTPPeerTransport(url: url, token: token))
/// let summary = try await replicator.sync(.both)
/// print(summary.pulled.applied, summary.pushed.applied)
/// ```
///
/// Entries travel verbatim and are applied with the checkpoint in one
/// transaction: a crash at any point leaves the store with every applied
/// batch and its checkpoint, or neither; the next round resumes exactly.
public final class PeerReplicator: Sendable {
    /// How a replicator behaves.
    public struct Configuration: Sendable {
        /// The most entries asked for in one batch.
        public var maximumEntriesPerBatch = 10_000
        /// The most entry bytes asked for in one batch.
        public var maximumBytesPerBatch = 8 << 20
        /// The largest batch accepted from the peer.
        public var maximumBatchBytes = 80 << 20
        /// How long a live wait on the peer's head lasts; the peer's answer
        /// at the end doubles as a heartbeat.
        public var liveWait: Duration = .seconds(25)
        /// The delays between failed rounds.
        public var backoff = Backoff()
        /// How long one request (identity, pull, push) may take before the
        /// peer counts as gone; a live wait gets this on top of
        /// ``liveWait``.
        public var requestTimeout: Duration = .seconds(30)
        /// The clock back-off and timeouts wait on; tests give one they move
        /// by hand.
        public var clock: StoreClock = .continuous
        /// For a fleet copy: the highest fleet epoch the local store holds.
        /// Identities, pulls and live waits carry it; the replicator never
        /// follows a peer whose epoch is lower (``SyncError/Code/staleEpoch``),
        /// and stops following one as soon as the local epoch passes it.
        public var epoch: (@Sendable () throws -> UInt64?)?

        public init() {}
    }

    /// The local log.
    public let log: EventLog
    /// How the peer is reached.
    public let transport: any PeerTransport
    public let configuration: Configuration
    private let logger: Logger
    private let state: Mutex<PeerStatus>
    /// The fleet epoch the peer held at the last identity exchange.
    private let peerEpoch = Mutex<UInt64?>(nil)
    /// The peer's identity at the last exchange: a live follower's next
    /// round starts from it (with the head its wait answered) instead of
    /// asking again, saving a round trip per change.
    private let lastIdentity = Mutex<PeerIdentity?>(nil)

    /// A replicator of `log` with the peer `transport` reaches. `status`
    /// continues one an earlier replicator of the same peer left (a node
    /// that runs a round now and then keeps its counts across them).
    public init(
        log: EventLog,
        peer transport: any PeerTransport,
        configuration: Configuration = Configuration(),
        status: PeerStatus? = nil,
        logger: Logger = Logger(label: "anchorage.sync", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.log = log
        self.transport = transport
        self.configuration = configuration
        self.logger = logger
        var status = status ?? PeerStatus(peer: transport.peerDescription)
        status.state = .idle
        self.state = Mutex(status)
    }

    /// What the replicator knows of its peer now.
    public var status: PeerStatus {
        state.withLock { $0 }
    }

    /// What one ``sync(_:)`` did in each direction.
    public struct Summary: Sendable, Hashable {
        public var pulled: SyncRound?
        public var pushed: SyncRound?
    }

    /// Runs one round in each requested direction (pull first), until
    /// both sides hold what the other had when the round began.
    ///
    /// - Throws: ``SyncError`` (or the transport's error); what was applied
    ///   before the failure stays applied, with its checkpoint.
    @discardableResult
    public func sync(_ direction: SyncDirection) async throws -> Summary {
        var summary = Summary()
        if direction.includesPull { summary.pulled = try await recorded(.pull) }
        if direction.includesPush { summary.pushed = try await recorded(.push) }
        return summary
    }

    /// Replicates continuously until the task is cancelled: pulls whenever
    /// the peer's head moves (a long-poll), pushes whenever this log's
    /// head moves, and backs off with jitter after failures.
    public func follow(_ direction: SyncDirection) async {
        await withTaskGroup(of: Void.self) { group in
            if direction.includesPull { group.addTask { await self.followPulls() } }
            if direction.includesPush { group.addTask { await self.followPushes() } }
        }
        state.withLock { $0.state = .idle }
    }

    private func followPulls() async {
        var backoff = configuration.backoff
        var random = SystemRandomNumberGenerator()
        // After a round, the next one pulls at once from the identity it
        // already has; any failure asks for the identity again.
        var known: PeerIdentity?
        // Whether the next round's first pull waits for entries (a peer
        // that serves waiting pulls): one request per change instead of a
        // wait and then a pull.
        var waiting = false
        while !Task.isCancelled {
            do {
                let epoch = try configuration.epoch?()
                if waiting { try Self.checkEpoch(peer: peerEpoch.withLock { $0 }, mine: epoch, transport) }
                let round = try await recorded(.pull, known: known, waitingUpTo: waiting ? configuration.liveWait : nil)
                backoff.reset()
                let identity = lastIdentity.withLock { $0 }
                if let identity, identity.features?.contains(SyncProtocol.Feature.waitingPull) == true {
                    known = Self.continuing(identity, head: max(round.peerHead, round.through))
                    waiting = true
                    continue
                }
                state.withLock { $0.state = .waiting }
                let (transport, wait) = (self.transport, configuration.liveWait)
                try Self.checkEpoch(peer: peerEpoch.withLock { $0 }, mine: epoch, transport)
                let head = try await withTimeout(
                    wait + configuration.requestTimeout,
                    on: configuration.clock,
                    "a live wait"
                ) {
                    try await transport.waitForChange(after: round.through, timeout: wait, epoch: epoch)
                }
                state.withLock { $0.lastContact = Date() }
                known = identity.map { Self.continuing($0, head: head) }
                waiting = false
            } catch {
                known = nil
                waiting = false
                if Task.isCancelled { return }
                await pause(&backoff, &random)
            }
        }
    }

    /// The peer's identity from the last exchange, with its head now
    /// `head`: the next round starts from it without asking again.
    private static func continuing(_ identity: PeerIdentity, head: UInt64) -> PeerIdentity {
        var current = identity
        current.head = head
        current.checkpoint = nil
        return current
    }

    private func followPushes() async {
        var backoff = configuration.backoff
        var random = SystemRandomNumberGenerator()
        var pushedThrough: UInt64?
        for await head in log.headChanges() {
            guard pushedThrough.map({ head.seq > $0 }) ?? true else { continue }
            while !Task.isCancelled {
                do {
                    let round = try await recorded(.push)
                    pushedThrough = max(round.through, head.seq)
                    backoff.reset()
                    break
                } catch {
                    if Task.isCancelled { return }
                    await pause(&backoff, &random)
                }
            }
            if Task.isCancelled { return }
        }
    }

    private func pause(_ backoff: inout Backoff, _ random: inout SystemRandomNumberGenerator) async {
        state.withLock { $0.state = .backingOff }
        try? await configuration.clock.sleep(backoff.next(using: &random))
    }

    /// One round, recorded in the status and the log.
    private func recorded(
        _ direction: SyncDirection,
        known: PeerIdentity? = nil,
        waitingUpTo wait: Duration? = nil
    ) async throws -> SyncRound {
        state.withLock { $0.state = wait == nil ? .syncing : .waiting }
        do {
            let round = try await run(direction, known: known, waitingUpTo: wait)
            state.withLock { $0.record(round, at: Date()) }
            if round.applied > 0 || round.restarts > 0 || round.checkpointFallbacks > 0 {
                logger.debug(
                    "replicated",
                    metadata: [
                        "peer": "\(transport.peerDescription)", "direction": "\(direction.rawValue)",
                        "applied": "\(round.applied)", "skipped": "\(round.skipped)", "through": "\(round.through)",
                    ]
                )
            }
            return round
        } catch {
            // Stopping (the node shuts down, the peer is removed) is not a failure.
            if error is CancellationError || Task.isCancelled { throw error }
            state.withLock { $0.record(error, at: Date()) }
            logger.warning(
                "replication failed",
                metadata: [
                    "peer": "\(transport.peerDescription)", "direction": "\(direction.rawValue)", "error": "\(error)",
                ]
            )
            throw error
        }
    }

    /// Refuses to follow a peer whose fleet epoch is lower than the local
    /// one: it is a deposed primary.
    private static func checkEpoch(peer: UInt64?, mine: UInt64?, _ transport: any PeerTransport) throws {
        guard let mine, mine > peer ?? 0 else { return }
        throw SyncError(
            .staleEpoch,
            "\(transport.peerDescription) holds fleet epoch \(peer ?? 0), lower than this copy's \(mine): it is no "
                + "longer the store's primary, so this copy neither follows nor acknowledges it"
        )
    }

    /// One pull through the transport, with the request timeout (and the
    /// time a waiting pull may wait on top).
    private func pull(_ request: PullRequest, _ transport: any PeerTransport) async throws -> [UInt8] {
        let wait = Duration.milliseconds(request.waitMilliseconds ?? 0)
        return try await withTimeout(configuration.requestTimeout + wait, on: configuration.clock, "a pull") {
            try await transport.pull(request)
        }
    }

    /// Drives a ``SyncSession`` with the transport and the local log.
    /// With `wait`, the first pull waits up to that long for entries
    /// (``PullRequest/waitMilliseconds``).
    private func run(
        _ direction: SyncDirection,
        known: PeerIdentity? = nil,
        waitingUpTo wait: Duration? = nil
    ) async throws -> SyncRound {
        let transport = self.transport
        var session = SyncSession(direction: direction, local: try PeerIdentity(of: log))
        var action = session.start()
        var wait = direction == .pull && known != nil ? wait : nil
        if direction == .pull, let known {
            // The identity the last exchange gave, with the head the peer's wait answered.
            action = try session.identified(
                known,
                checkpoint: try log.checkpoint(for: known.storeID),
                waiting: wait != nil
            )
        }
        var batch: EntryBatch?
        var prefetched = Prefetch()
        defer { prefetched.cancel() }
        while true {
            try Task.checkCancellation()
            switch action {
            case .identify:
                var identity = try PeerIdentity(of: log)
                identity.epoch = try configuration.epoch?()
                let mine = identity
                let peer = try await withTimeout(
                    configuration.requestTimeout,
                    on: configuration.clock,
                    "the identity exchange"
                ) {
                    try await transport.identity(mine)
                }
                state.withLock { $0.lastContact = Date() }
                peerEpoch.withLock { $0 = peer.epoch }
                lastIdentity.withLock { $0 = peer }
                try Self.checkEpoch(peer: peer.epoch, mine: mine.epoch, transport)
                action = try session.identified(peer, checkpoint: try log.checkpoint(for: peer.storeID))
            case .pull(let incarnation, let since):
                let request = PullRequest(
                    incarnation: incarnation,
                    since: since,
                    maxEntries: configuration.maximumEntriesPerBatch,
                    maxBytes: configuration.maximumBytesPerBatch,
                    versionVector: try log.versionVector(),
                    epoch: try configuration.epoch?(),
                    waitMilliseconds: wait.map { Int($0.nanosecondCount / 1_000_000) }
                )
                wait = nil
                do {
                    let bytes: [UInt8]
                    if let pending = prefetched.take(since: since) {
                        bytes = try await pending.value
                    } else {
                        bytes = try await pull(request, transport)
                    }
                    let received = try EntryBatch(decoding: bytes, maximumBytes: configuration.maximumBatchBytes)
                    action = try session.received(received)
                    batch = received
                } catch let error as SyncError where error.code == .incarnationChanged {
                    action = try session.restart(after: error)
                }
            case .apply:
                guard let received = batch else { throw SyncError(.protocolViolation, "no batch to apply") }
                batch = nil
                if received.entries.isEmpty && received.through == received.from && !received.hasMore {
                    // A waiting pull that ended with nothing new: nothing to apply.
                    action = session.applied(
                        BatchReceipt(applied: 0, skipped: 0, checkpoint: received.through),
                        hasMore: false
                    )
                    continue
                }
                // The next batch travels while this one is applied.
                if received.hasMore, let peer = session.peer {
                    var next = PullRequest(
                        incarnation: peer.incarnation,
                        since: received.through,
                        maxEntries: configuration.maximumEntriesPerBatch,
                        maxBytes: configuration.maximumBytesPerBatch,
                        versionVector: try log.versionVector(),
                        epoch: try configuration.epoch?()
                    )
                    for entry in received.entries
                    where next.versionVector[entry.dot.origin, default: 0] < entry.dot.counter {
                        next.versionVector[entry.dot.origin] = entry.dot.counter
                    }
                    let request = next
                    prefetched.start(since: received.through) { try await self.pull(request, transport) }
                }
                do {
                    let receipt = try await BatchReceiver.apply(received, into: log, from: session.peer)
                    action = session.applied(receipt, hasMore: received.hasMore)
                } catch let error as SyncError where error.code == .checkpointMoved {
                    prefetched.cancel()
                    action = try session.restart(after: error)
                }
            case .push(let since, let vector):
                let request = PullRequest(
                    incarnation: log.incarnation,
                    since: since,
                    maxEntries: configuration.maximumEntriesPerBatch,
                    maxBytes: configuration.maximumBytesPerBatch,
                    versionVector: vector
                )
                let encoded = try EntryBatch.read(from: log, request: request)
                do {
                    let receipt = try await withTimeout(configuration.requestTimeout, on: configuration.clock, "a push")
                    {
                        try await transport.push(encoded.bytes)
                    }
                    action = session.pushed(receipt, hasMore: encoded.hasMore)
                } catch let error as SyncError where error.code == .checkpointMoved {
                    action = try session.restart(after: error)
                }
            case .finished(let round):
                return round
            }
        }
    }
}

/// The next pull, already on its way while a batch is applied.
private struct Prefetch {
    private var pending: (since: UInt64, task: Task<[UInt8], any Error>)?

    mutating func start(since: UInt64, _ pull: @escaping @Sendable () async throws -> [UInt8]) {
        cancel()
        pending = (since, Task { try await pull() })
    }

    /// The pull started for `since`, if that is the one in flight.
    mutating func take(since: UInt64) -> Task<[UInt8], any Error>? {
        defer { pending = nil }
        guard let pending else { return nil }
        guard pending.since == since else {
            pending.task.cancel()
            return nil
        }
        return pending.task
    }

    mutating func cancel() {
        pending?.task.cancel()
        pending = nil
    }
}
