import Anchorage
import AnchorageService
import AnchorageSync
import AsyncHTTPClient
import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// Replicates a multi-store node's stores with the peers its registry
/// names (`anchorage peers add`, `POST /v1/stores/{store}/peers`).
///
/// A store whose log moved (a save, a push from another peer) is due at
/// once: within a tick its changes are pushed and its peers' pulled. Every
/// ``NodeConfiguration/peerSyncInterval`` at least, a pass walks every store
/// with peers, a page of the registry at a time, so that what the peers
/// wrote reaches stores nobody touches. A round opens its store through
/// the pool (it closes again once idle), runs one
/// ``PeerReplicator/sync(_:)`` per peer, and ends early when the store is
/// deleted or the node stops. At most
/// ``NodeConfiguration/maximumConcurrentPeerRounds`` stores replicate at
/// once; a peer that fails waits out a back-off before its next round.
final class StorePeerScheduler: Service, Sendable {
    /// Opens a store for the time of `body` (the node's pool).
    typealias Opener = @Sendable (StoreName, (ServedStore) async -> Void) async throws -> Void

    /// What the scheduler knows of one peer between rounds.
    struct PeerState: Sendable {
        var status: PeerStatus
        var backoff: Backoff
        /// No round before this reading of the clock (after a failure).
        var notBefore: Duration = .zero
    }

    private struct State {
        var due: Set<StoreName> = []
        var running: Set<StoreName> = []
        /// Per store, per peer id.
        var peers: [StoreName: [String: PeerState]] = [:]
        /// The stores of the current pass not reached yet, and where the
        /// next page starts; `nil` between passes.
        var pass: (pending: [StoreName], after: StoreName?, exhausted: Bool)?
        /// When the next pass may start.
        var nextPass: Duration = .zero
    }

    /// How often the scheduler looks for work.
    static let tick: Duration = .milliseconds(200)
    /// Stores read from the registry at once during a pass.
    static let pageSize = 64

    private let registry: NodeRegistry
    private let client: HTTPClient
    private let configuration: NodeConfiguration
    private let logger: Logger
    private let state = Mutex(State())
    private let opener = Mutex<Opener?>(nil)

    init(registry: NodeRegistry, client: HTTPClient, configuration: NodeConfiguration, logger: Logger) {
        self.registry = registry
        self.client = client
        self.configuration = configuration
        self.logger = logger
    }

    /// Names how a store is opened for a round.
    func open(with opener: @escaping Opener) {
        self.opener.withLock { $0 = opener }
    }

    /// The store's log moved: replicate it soon.
    func markDue(_ name: StoreName) {
        state.withLock { _ = $0.due.insert(name) }
    }

    /// Forgets a deleted store's peers.
    func forget(_ name: StoreName) {
        state.withLock { state in
            state.peers[name] = nil
            state.due.remove(name)
        }
    }

    /// What the last rounds with `peer` of `store` did, if any ran.
    func status(of peer: String, in store: StoreName) -> PeerStatus? {
        state.withLock { $0.peers[store]?[peer]?.status }
    }

    /// Whether a round of `store` runs now. One that begins later reads
    /// the store's peers from the registry first (tests wait for this to
    /// end before they count on a removed peer getting nothing more).
    func isRunning(_ store: StoreName) -> Bool {
        state.withLock { $0.running.contains(store) }
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                while !Task.isCancelled {
                    while let name = self.nextStore() {
                        group.addTask { await self.round(name) }
                    }
                    do { try await self.configuration.clock.sleep(Self.tick) } catch { return }
                }
            }
        }
    }

    /// The next store to replicate, marked running; `nil` when none is
    /// due, the pass has nothing left or enough rounds run.
    func nextStore() -> StoreName? {
        let now = configuration.clock.now()
        let limit = max(1, configuration.maximumConcurrentPeerRounds)
        let interval = configuration.peerSyncInterval
        if let name = state.withLock({ Self.take(&$0, limit: limit, now: now, interval: interval) }) { return name }
        // Refill the pass from the registry, outside the lock.
        let refill = state.withLock { state -> (needed: Bool, after: StoreName?) in
            guard let pass = state.pass, pass.pending.isEmpty, !pass.exhausted, state.running.count < limit else {
                return (false, nil)
            }
            return (true, pass.after)
        }
        guard refill.needed else { return nil }
        let after = refill.after
        let page = (try? registry.storesWithPeers(after: after, limit: Self.pageSize)) ?? []
        return state.withLock { state in
            guard state.pass != nil else { return nil }
            state.pass?.pending = page.map(\.store)
            state.pass?.after = page.last?.store ?? after
            if page.count < Self.pageSize { state.pass?.exhausted = true }
            return Self.take(&state, limit: limit, now: now, interval: interval)
        }
    }

    /// A due store, else the pass's next one (starting a pass when its
    /// time came, ending it when walked).
    private static func take(_ state: inout State, limit: Int, now: Duration, interval: Duration) -> StoreName? {
        guard state.running.count < limit else { return nil }
        if let name = state.due.first(where: { !state.running.contains($0) }) {
            state.due.remove(name)
            state.running.insert(name)
            return name
        }
        if state.pass == nil, now >= state.nextPass {
            state.pass = ([], nil, false)
            state.nextPass = now + interval
        }
        guard var pass = state.pass else { return nil }
        while let name = pass.pending.first {
            pass.pending.removeFirst()
            guard !state.running.contains(name) else { continue }
            state.running.insert(name)
            state.pass = pass
            return name
        }
        if pass.exhausted {
            state.pass = nil
            return nil
        }
        state.pass = pass
        return nil
    }

    /// One round of `name` with each of its peers not backing off.
    func round(_ name: StoreName) async {
        defer { _ = state.withLock { $0.running.remove(name) } }
        let peers = (try? registry.peers(of: name)) ?? []
        let now = configuration.clock.now()
        let ready = state.withLock { state -> [StorePeer] in
            // Peers removed from the registry are forgotten.
            let ids = Set(peers.map(\.id))
            state.peers[name] = state.peers[name]?.filter { ids.contains($0.key) }
            if state.peers[name]?.isEmpty == true { state.peers[name] = nil }
            return peers.filter { (state.peers[name]?[$0.id]?.notBefore ?? .zero) <= now }
        }
        guard !ready.isEmpty, let open = opener.withLock({ $0 }) else { return }
        do {
            try await open(name) { served in
                for peer in ready {
                    guard !served.closing.isFired, !Task.isCancelled else { return }
                    await self.replicate(peer, of: served)
                }
            }
        } catch {
            logger.debug("a store with peers could not be opened", metadata: ["store": "\(name)"])
        }
    }

    /// One ``PeerReplicator/sync(_:)`` with `peer`, ended early when the
    /// store closes for good; its outcome sets the peer's back-off.
    private func replicate(_ peer: StorePeer, of served: ServedStore) async {
        let name = served.name
        let known = state.withLock { $0.peers[name]?[peer.id] }
        var peerState = known ?? PeerState(status: PeerStatus(peer: peer.url.absoluteString), backoff: Self.backoff)
        do {
            if peer.direction != .push {
                // What it pulls keeps the store's quota, as a peer's push does.
                let quota = try registry.store(name)?.maximumBytes.map {
                    WriteGuard.StorageQuota(store: name.rawValue, bytes: $0)
                }
                try WriteGuard(storageQuota: quota).beforeWrite(.replication, to: served.owner)
            }
            let transport = try HTTPPeerTransport(
                url: peer.url,
                token: peer.token,
                client: client,
                maximumBatchBytes: configuration.replication.maximumBatchBytes
            )
            let replicator = PeerReplicator(
                log: try served.owner.eventLog(),
                peer: transport,
                configuration: configuration.replicationOnNodeClock,
                status: peerState.status,
                logger: logger
            )
            let outcome = await Self.untilClosed(served.closing) {
                try await replicator.sync(peer.direction)
            }
            peerState.status = replicator.status
            switch outcome {
            case .finished:
                peerState.backoff.reset()
                peerState.notBefore = .zero
            case .failed:
                var random = SystemRandomNumberGenerator()
                peerState.notBefore = configuration.clock.now() + peerState.backoff.next(using: &random)
            case .interrupted:
                break
            }
        } catch {
            peerState.status.lastError = "\(error)"
            var random = SystemRandomNumberGenerator()
            peerState.notBefore = configuration.clock.now() + peerState.backoff.next(using: &random)
        }
        let updated = peerState
        state.withLock { state in
            // Not if the store was deleted meanwhile.
            if !served.closing.isFired { state.peers[name, default: [:]][peer.id] = updated }
        }
    }

    /// The back-off between a failing peer's rounds.
    static let backoff = Backoff(base: .seconds(1), maximum: .seconds(300))

    enum Outcome { case finished, failed, interrupted }

    /// Runs `body` until it ends or `closing` fires (the store is deleted
    /// or the node stops), whichever comes first.
    static func untilClosed(
        _ closing: ShutdownSignal,
        _ body: @escaping @Sendable () async throws -> Void
    ) async -> Outcome {
        await withTaskGroup(of: Outcome.self) { group in
            group.addTask {
                do {
                    try await body()
                    return .finished
                } catch {
                    return Task.isCancelled ? .interrupted : .failed
                }
            }
            group.addTask {
                for await _ in closing.stream() {}
                return .interrupted
            }
            let first = await group.next() ?? .interrupted
            group.cancelAll()
            return first
        }
    }
}
