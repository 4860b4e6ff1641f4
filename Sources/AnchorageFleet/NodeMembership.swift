public import AnchorageCore
public import Etcd
import Foundation
public import Logging
import Synchronization

/// A node's membership of the fleet: its key under `nodes/<id>`, attached
/// to a lease it keeps alive. The key vanishes a TTL after the node stops
/// (a crash, a pause, a partition), which is how the controller learns that
/// a node is gone.
///
/// The node counts its lease from the moment its last successful keep-alive
/// was *sent*: ``deadline`` is that moment plus the TTL minus a margin. Past
/// it, the node must act as if its lease were gone (a primary stops taking
/// writes), whatever etcd says later: etcd may already have expired it.
///
/// ```swift
/// let membership = NodeMembership(etcd: etcd, nodeID: "n1", record: NodeRecord(address: "http://10.0.0.5:8080"))
/// try await membership.join()
/// let task = Task { await membership.run() }    // keep-alives until cancelled
/// if membership.holdsLease() { /* may take writes */ }
/// ```
public final class NodeMembership: Sendable {
    public let nodeID: String
    public let record: NodeRecord
    let etcd: EtcdClient
    let keys: FleetKeys
    /// The lease's TTL, in seconds (at least 2; the fleet's default is 10).
    public let ttl: Int64
    /// How long before the TTL's end the node stops counting on its lease.
    public let margin: Duration
    private let logger: Logger
    private let state = Mutex(State())
    /// Told each lease the node takes (to keep it for a restart).
    private let onLease: @Sendable (Int64) -> Void
    /// The clock deadlines count on and keep-alives wait on.
    public let clock: StoreClock

    struct State {
        var lease: Int64?
        var deadline: OffsetInstant?
        /// How many times the lease was found gone and the node joined again.
        var rejoins = 0
    }

    public init(
        etcd: EtcdClient,
        keys: FleetKeys = FleetKeys(),
        nodeID: String,
        record: NodeRecord,
        ttl: Int64 = 10,
        margin: Duration = .seconds(1),
        logger: Logger = Logger(label: "anchorage.fleet"),
        clock: StoreClock = .continuous,
        onLease: @escaping @Sendable (Int64) -> Void = { _ in }
    ) {
        self.onLease = onLease
        self.clock = clock
        self.etcd = etcd
        self.keys = keys
        self.nodeID = nodeID
        self.record = record
        self.ttl = max(2, ttl)
        self.margin = margin
        self.logger = logger
    }

    /// The current lease, while the node holds one.
    public var lease: Int64? { state.withLock { $0.lease } }

    /// Until when the node may count on its lease (on ``clock``).
    public var deadline: OffsetInstant? { state.withLock { $0.deadline } }

    /// How many times the node found its lease gone and joined again.
    public var rejoins: Int { state.withLock { $0.rejoins } }

    /// Whether the node may still count on its lease at `now` (by
    /// default, now on ``clock``).
    public func holdsLease(at now: OffsetInstant? = nil) -> Bool {
        let now = now ?? clock.instant
        return state.withLock { state in state.deadline.map { now < $0 } ?? false }
    }

    /// Grants a lease and creates the node's key with it — or, given the
    /// lease this node's previous run held (`previous`), takes that one
    /// back when it is still alive and still holds the node's key: a node
    /// restarted within its TTL rejoins at once instead of waiting for its
    /// old lease to end. Only the process holding the node's directory may
    /// pass it (two processes sharing a lease would be one node twice).
    ///
    /// - Throws: ``FleetError`` `nodeIDInUse` when a live process holds the
    ///   id (its key exists with another lease); ``EtcdError`` when etcd
    ///   cannot be reached.
    public func join(adopting previous: Int64? = nil) async throws {
        try FleetKeys.check(nodeID, "the node id")
        if let previous, try await adopt(previous) { return }
        let sent = clock.instant
        let lease = try await etcd.grantLease(ttl: ttl)
        let key = keys.node(nodeID)
        let create = EtcdTxn(
            compare: [EtcdCompare(key, .equal, .createRevision(0))],
            success: [.put(key, value: record.bytes, lease: lease.id)],
            failure: [.range(.key(key))]
        )
        let created: Bool
        do {
            let answer = try await etcd.txn(create)
            created = answer.succeeded || answer.firstRange.first?.lease == lease.id
        } catch let error as EtcdError where error.code == .noAnswer {
            // It may have been created: the key tells, by its lease.
            created = try await etcd.range(.key(key)).kvs.first?.lease == lease.id
        }
        guard created else {
            try? await etcd.revoke(lease.id)
            throw FleetError(
                .nodeIDInUse,
                "a live node already uses the id '\(nodeID)' (its key \(key) has another lease); "
                    + "give each node its own id, or wait \(ttl) s after stopping the other"
            )
        }
        state.withLock { state in
            state.lease = lease.id
            state.deadline = sent + .seconds(lease.ttl) - margin
        }
        logger.info("joined the fleet", metadata: ["fleet.node": "\(nodeID)", "fleet.lease": "\(lease.id)"])
        onLease(lease.id)
    }

    /// Takes `lease` back if it is alive and the node's key is on it.
    private func adopt(_ lease: Int64) async throws -> Bool {
        let sent = clock.instant
        let left: Int64
        do {
            left = try await etcd.keepAlive(lease)
        } catch let error as EtcdError where error.isLeaseNotFound {
            return false
        }
        guard left > 0 else { return false }
        let key = keys.node(nodeID)
        let refresh = EtcdTxn(
            compare: [EtcdCompare(key, .equal, .lease(lease))],
            success: [.put(key, value: record.bytes, lease: lease)]
        )
        guard try await etcd.txn(refresh).succeeded else { return false }
        state.withLock { state in
            state.lease = lease
            state.deadline = sent + .seconds(left) - margin
        }
        logger.info(
            "rejoined the fleet on its lease",
            metadata: ["fleet.node": "\(nodeID)", "fleet.lease": "\(lease)"]
        )
        onLease(lease)
        return true
    }

    /// Keeps the lease alive every third of its TTL (every 250 ms while
    /// its deadline has passed) until the task is cancelled. A keep-alive
    /// that fails leaves the deadline where it was; one that finds the lease gone (it expired while the node was paused
    /// or cut off) joins again with a new lease, if the id is free.
    public func run() async {
        while !Task.isCancelled {
            let sent = clock.instant
            // Every third of the TTL; every 250 ms once the deadline has
            // passed (etcd was out of reach), so writes resume as soon as a
            // renewal goes through again.
            let interval = holdsLease(at: sent) ? Duration.milliseconds(ttl * 1_000 / 3) : .milliseconds(250)
            do {
                guard let lease = state.withLock({ $0.lease }) else {
                    try await join()
                    state.withLock { $0.rejoins += 1 }
                    continue
                }
                let left = try await etcd.keepAlive(lease)
                if left > 0 {
                    state.withLock { state in
                        if state.lease == lease { state.deadline = sent + .seconds(left) - margin }
                    }
                } else {
                    logger.warning(
                        "the node's lease expired; joining again",
                        metadata: ["fleet.node": "\(nodeID)", "fleet.lease": "\(lease)"]
                    )
                    state.withLock { state in
                        state.lease = nil
                        state.deadline = nil
                    }
                    continue
                }
            } catch is CancellationError {
                return
            } catch {
                logger.info(
                    "renewing the node's lease (or joining again) failed; the lease counts from the last renewal that succeeded",
                    metadata: ["fleet.node": "\(nodeID)", "fleet.error": "\(error)"]
                )
            }
            try? await Task.sleep(until: sent + interval, clock: clock.timeline)
        }
    }

    /// Leaves the fleet at once: revokes the lease, which deletes the key.
    public func leave() async throws {
        guard
            let lease = state.withLock({ state -> Int64? in
                defer {
                    state.lease = nil
                    state.deadline = nil
                }
                return state.lease
            })
        else { return }
        do {
            try await etcd.revoke(lease)
        } catch let error as EtcdError where error.isLeaseNotFound {
            // Already gone.
        }
    }

    /// Marks the node as draining (its record, on its lease): the
    /// controller hands the stores it leads to other copies. Used when the
    /// node was asked to stop.
    public func drain() async throws {
        guard let lease = state.withLock({ $0.lease }) else { return }
        var draining = record
        draining.draining = true
        _ = try await etcd.put(keys.node(nodeID), value: draining.bytes, lease: lease)
    }

    /// The live nodes, from their keys.
    public static func liveNodes(etcd: EtcdClient, keys: FleetKeys = FleetKeys()) async throws -> [FleetNode] {
        try await etcd.rangeAll(.prefix(keys.nodes)).kvs.compactMap { kv in
            guard let id = keys.id(in: kv.keyText, under: keys.nodes) else { return nil }
            return FleetNode(id: id, record: try NodeRecord(bytes: kv.value, key: kv.keyText), lease: kv.lease)
        }
    }
}
