import Anchorage
import AnchorageFleet
import AnchorageService
import AnchorageSync
import AsyncHTTPClient
import Etcd
import Foundation
import HTTPTypes
import Logging
import Synchronization

/// The store copies this node holds, kept in line with the fleet's
/// placements: a copy is created where a placement names this node; a
/// replica follows its primary (pulling live, so its next pull position
/// acknowledges the primary's writes); a primary begins its epoch before it
/// takes writes (``FleetCopies/promote(_:epoch:revision:)``).
///
/// ```swift
/// let copies = FleetCopies(…)
/// let task = Task { await copies.run() }
/// try copies.gate("alice", epoch: 3)()     // may this node take alice's writes now?
/// ```
final class FleetCopies: Sendable {
    /// What this node does for one store.
    struct Copy {
        var role: Placement.Role
        var epoch: Int64
        var primary: String
        /// A primary: its epoch is begun and caught up; it takes writes.
        var ready = false
        var task: Task<Void, Never>?
    }

    struct Parts: Sendable {
        let fleet: FleetConfiguration
        let registry: NodeRegistry
        let pool: StorePool<ServedStore>
        let cache: PlacementCache
        let directory: NodeDirectory
        let membership: NodeMembership
        let etcd: EtcdClient
        let client: HTTPClient
        let replication: PeerReplicator.Configuration
        let logger: Logger
        /// Erases a copy this node no longer holds (its store stays on the
        /// nodes the placement names).
        let drop: @Sendable (StoreName) async throws -> Void
    }

    let parts: Parts
    private let copies = Mutex<[String: Copy]>([:])
    /// Promotions done (epochs begun after a failover or a handoff).
    let promotions = Atomic<Int>(0)

    init(_ parts: Parts) {
        self.parts = parts
    }

    /// The copies, for status pages.
    var snapshot: [String: (role: Placement.Role, epoch: Int64, ready: Bool)] {
        copies.withLock { copies in copies.mapValues { ($0.role, $0.epoch, $0.ready) } }
    }

    /// The primaries of the stores this node holds replicas (or joining
    /// copies) of: the nodes it probes.
    var followedPrimaries: Set<String> {
        copies.withLock { copies in Set(copies.values.filter { $0.role != .primary }.map(\.primary)) }
    }

    /// Throws the answer to a write of `store` this node may not take now:
    /// it does not lead the store at `epoch` yet, or its lease deadline
    /// passed.
    func check(_ store: String, epoch: Int64) throws {
        let ready = copies.withLock { $0[store].map { $0.ready && $0.epoch == epoch && $0.role == .primary } ?? false }
        guard ready else {
            throw APIError(
                .serviceUnavailable,
                .fleetUnavailable,
                "this node is taking over the store (epoch \(epoch)) and does not take writes yet; ask again in a moment"
            ).retrying(after: .seconds(1))
        }
        guard parts.membership.holdsLease() else {
            throw APIError(
                .serviceUnavailable,
                .fleetUnavailable,
                "this node cannot renew its fleet lease (etcd is out of reach), so it takes no writes; reads go on, "
                    + "and writes resume once it renews"
            ).retrying(after: .seconds(1))
        }
    }

    /// Keeps the copies in line with the placements until cancelled.
    func run() async {
        var seen: Int64 = -1
        var nodes: Set<String> = []
        while !Task.isCancelled {
            let revision = parts.cache.revision
            let live = Set(parts.directory.nodes.keys)
            if revision != seen || live != nodes {
                seen = revision
                nodes = live
                await reconcile()
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        let tasks = copies.withLock { copies in copies.values.compactMap(\.task) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// One pass: creates missing copies, (re)starts followers and
    /// promotions whose placement changed, stops what this node no longer
    /// holds.
    func reconcile() async {
        // Nothing is decided from a cache that has not read the placements yet.
        guard parts.cache.revision > 0 else { return }
        let me = parts.fleet.nodeID
        let all = parts.cache.placements
        var wanted: [String: PlacementRecord] = [:]
        for record in all.values where record.placement.role(of: me) != nil { wanted[record.store] = record }
        // Stop what is no longer ours.
        let dropped: [Task<Void, Never>] = copies.withLock { copies in
            var tasks: [Task<Void, Never>] = []
            for (store, copy) in copies where wanted[store] == nil {
                if let task = copy.task { tasks.append(task) }
                copies[store] = nil
            }
            return tasks
        }
        for task in dropped { task.cancel() }
        await dropCopies(placedElsewhere: all, keeping: wanted)
        for record in wanted.values.sorted(by: { $0.store < $1.store }) {
            guard let name = try? StoreName(record.store) else { continue }
            do {
                if try parts.registry.store(name) == nil { _ = try parts.registry.createStore(name) }
            } catch  where error.code == .storeExists {
                // Made meanwhile.
            } catch {
                parts.logger.warning(
                    "cannot create a store copy",
                    metadata: ["store": "\(record.store)", "error": "\(error)"]
                )
                continue
            }
            let placement = record.placement
            guard let role = placement.role(of: me) else { continue }
            let changed: Task<Void, Never>?? = copies.withLock { copies in
                if let copy = copies[record.store], copy.role == role, copy.epoch == placement.epoch,
                    copy.primary == placement.primary
                {
                    return .none
                }
                let old = copies[record.store]?.task
                copies[record.store] = Copy(role: role, epoch: placement.epoch, primary: placement.primary)
                return .some(old)
            }
            guard case .some(let old) = changed else { continue }
            old?.cancel()
            let task: Task<Void, Never>
            switch role {
            case .primary:
                task = Task { [self] in
                    await old?.value
                    await promote(name, epoch: placement.epoch, revision: record.modRevision)
                }
            case .replica, .joining:
                task = Task { [self] in
                    await old?.value
                    await follow(name, primary: placement.primary, epoch: placement.epoch, joining: role == .joining)
                }
            }
            copies.withLock { copies in
                if copies[record.store]?.epoch == placement.epoch, copies[record.store]?.role == role {
                    copies[record.store]?.task = task
                } else {
                    task.cancel()
                }
            }
        }
    }

    /// Erases the local copies of stores whose placement no longer names
    /// this node: a move's source, a replaced copy that came back. A store
    /// with no placement at all is left alone (the cache may not have read
    /// it yet).
    func dropCopies(
        placedElsewhere placements: [String: PlacementRecord],
        keeping wanted: [String: PlacementRecord]
    ) async {
        let local: [StoreRecord]
        do {
            local = try parts.registry.stores()
        } catch {
            return
        }
        for record in local where wanted[record.id] == nil && placements[record.id] != nil {
            guard let name = try? StoreName(record.id) else { continue }
            do {
                try await parts.drop(name)
                parts.logger.notice("dropped a copy placed elsewhere", metadata: ["store": "\(name)"])
            } catch {
                parts.logger.warning("cannot drop a copy", metadata: ["store": "\(name)", "error": "\(error)"])
            }
        }
    }

    /// Stops the work this node does for `store` (its follower or its
    /// promotion) and waits for it to end, keeping the copy's place: the
    /// next reconcile starts it again only when the placement changes. For
    /// a copy whose data key was shredded: nothing should hold it open.
    func stop(_ store: String) async {
        let task = copies.withLock { copies -> Task<Void, Never>? in
            let task = copies[store]?.task
            copies[store]?.task = nil
            copies[store]?.ready = false
            return task
        }
        task?.cancel()
        await task?.value
    }

    /// Starts the work for `store` again after ``stop(_:)`` (its copy
    /// re-sealed meanwhile): the next pass creates it as new.
    func restart(_ store: String) async {
        copies.withLock { _ = $0.removeValue(forKey: store) }
        await reconcile()
    }

    /// Whether this node still holds `store` with `role` at `epoch`.
    func holds(_ store: StoreName, _ role: Placement.Role, epoch: Int64) -> Bool {
        copies.withLock { $0[store.rawValue].map { $0.role == role && $0.epoch == epoch } ?? false }
    }

    func markReady(_ store: StoreName, epoch: Int64) {
        copies.withLock { copies in
            if copies[store.rawValue]?.epoch == epoch, copies[store.rawValue]?.role == .primary {
                copies[store.rawValue]?.ready = true
            }
        }
    }

    /// A replicator of `served`'s log with the copy on node `node`, fenced by
    /// epoch.
    func replicator(of served: ServedStore, on node: String) throws -> PeerReplicator? {
        guard let address = parts.directory.node(node)?.record.address,
            let url = URL(string: address + "/v1/stores/\(served.name.rawValue)")
        else { return nil }
        let owner = served.owner
        var configuration = parts.replication
        configuration.epoch = { try owner.fleetEpoch()?.epoch }
        return PeerReplicator(
            log: try owner.eventLog(),
            peer: try HTTPPeerTransport(
                url: url,
                token: parts.fleet.secret,
                client: parts.client,
                maximumBatchBytes: configuration.maximumBatchBytes
            ),
            configuration: configuration,
            logger: parts.logger
        )
    }

    /// Runs `body` with the store open, until it returns or the task is
    /// cancelled; tries again after a pause when opening fails.
    func withServed(_ name: StoreName, _ body: (ServedStore) async -> Void) async {
        while !Task.isCancelled {
            do {
                let lease = try await parts.pool.lease(name)
                await body(lease.resource)
                await lease.release()
                return
            } catch {
                parts.logger.warning("cannot open a store copy", metadata: ["store": "\(name)", "error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// A replica: hands the primary what only this copy holds, then
    /// follows the primary's log live until cancelled. A joining copy first
    /// pulls until it has caught up, and reports it (`synced/<store>/<node>`)
    /// so that the controller counts it.
    func follow(_ name: StoreName, primary: String, epoch: Int64, joining: Bool) async {
        await withServed(name) { served in
            var reported = !joining
            while !Task.isCancelled {
                do {
                    if let replicator = try replicator(of: served, on: primary) {
                        // What this copy holds that the primary lacks (writes a
                        // deposed primary stored but never acknowledged) goes to
                        // the primary once, so every copy converges; then follow.
                        _ = try await replicator.sync(.push)
                        if !reported {
                            _ = try await replicator.sync(.pull)
                            try await reportSynced(name, epoch: epoch)
                            reported = true
                        }
                        await replicator.follow(.pull)
                    }
                } catch {
                    parts.logger.debug(
                        "cannot follow the primary",
                        metadata: ["store": "\(name)", "error": "\(error)"]
                    )
                }
                // The primary is not live (yet), or following ended: look again shortly.
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// Tells the controller this node's joining copy of `name` has caught
    /// up with the primary at `epoch`.
    func reportSynced(_ name: StoreName, epoch: Int64) async throws {
        let key = parts.fleet.keys.synced(name.rawValue, on: parts.fleet.nodeID)
        _ = try await parts.etcd.put(key, value: Array(#"{"epoch":\#(epoch)}"#.utf8))
        parts.logger.info("a joining copy caught up", metadata: ["store": "\(name)", "fleet.epoch": "\(epoch)"])
    }
}
