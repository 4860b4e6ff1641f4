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
/// placements: each copy's lifecycle is a ``CopyLifecycle`` (a value-type
/// state machine); this runs the work its effects ask for — a follower, the
/// steps of a promotion, a drop — and feeds the outcomes back. It wakes on
/// the placement cache's and the node directory's changes, never on a
/// timer, and sleeps only on the node's clock.
///
/// ```swift
/// let copies = FleetCopies(…)
/// let task = Task { await copies.run() }
/// try copies.check("alice", epoch: 3)     // may this node take alice's writes now?
/// ```
final class FleetCopies: Sendable {
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
        /// Notified when the placements or the live nodes change.
        let changes: ChangeSignal
        let clock: StoreClock
        let logger: Logger
        /// Erases a copy this node no longer holds (its store stays on the
        /// nodes the placement names).
        let drop: @Sendable (StoreName) async throws -> Void
    }

    /// One copy: its lifecycle and the work running for it.
    struct Entry {
        var lifecycle: CopyLifecycle
        var work: Task<Void, Never>?
    }

    let parts: Parts
    private let entries = Mutex<[String: Entry]>([:])
    /// Stores whose writes stored while deposed are being handed over.
    private let handingOver = Mutex<Set<String>>([])
    /// Promotions done (epochs begun after a failover or a handoff).
    let promotions = Atomic<Int>(0)
    /// How long a step that failed waits before it is tried again.
    static let retryPause: Duration = .milliseconds(250)

    init(_ parts: Parts) {
        self.parts = parts
    }

    /// The copies, for status pages: the role each phase plays, the epoch,
    /// and whether it takes writes.
    var snapshot: [String: (role: Placement.Role, epoch: Int64, ready: Bool)] {
        entries.withLock { entries in
            entries.compactMapValues { entry in
                let lifecycle = entry.lifecycle
                switch lifecycle.phase {
                case .idle: return nil
                case .following(_, let joining): return (joining ? .joining : .replica, lifecycle.epoch, false)
                case .promoting, .superseded, .stopped: return (.primary, lifecycle.epoch, false)
                case .leading: return (.primary, lifecycle.epoch, true)
                }
            }
        }
    }

    /// The primaries of the stores this node follows: the nodes it probes.
    var followedPrimaries: Set<String> {
        entries.withLock { entries in Set(entries.values.compactMap(\.lifecycle.following)) }
    }

    /// The right to write `store` that this node holds while it leads it
    /// at `epoch` and holds its fleet lease: what a write served here keeps
    /// (``WriteGuard``).
    func lease(_ store: String, epoch: Int64) -> FleetWriteLease {
        FleetWriteLease(copies: self, store: store, epoch: epoch)
    }

    /// Throws `fleetUnavailable` unless this node leads `store` at `epoch`
    /// and holds its fleet lease.
    func check(_ store: String, epoch: Int64) throws(ServiceError) {
        guard entries.withLock({ $0[store]?.lifecycle.leads(at: epoch) ?? false }) else {
            throw ServiceError(
                .fleetUnavailable,
                "this node is taking over the store (epoch \(epoch)) and does not take writes yet; ask again in a moment",
                retryAfter: .seconds(1)
            )
        }
        guard parts.membership.holdsLease() else {
            throw ServiceError(
                .fleetUnavailable,
                "this node cannot renew its fleet lease (etcd is out of reach), so it takes no writes; reads go on, "
                    + "and writes resume once it renews",
                retryAfter: .seconds(1)
            )
        }
    }

    /// After a write this node took while it led `store` at `epoch`: if it
    /// no longer does (it was deposed while the write was under way), what
    /// it stored goes to the store's primary now — its follower pushed once,
    /// when it began, perhaps before this write was stored — so that every
    /// copy converges.
    func handOverIfDeposed(_ store: String, epoch: Int64) {
        guard let name = try? StoreName(store) else { return }
        let primary = entries.withLock { entries -> String? in
            guard let lifecycle = entries[store]?.lifecycle, !lifecycle.leads(at: epoch) else { return nil }
            return lifecycle.following
        }
        guard let primary, handingOver.withLock({ $0.insert(store).inserted }) else { return }
        Task { [self] in
            defer { handingOver.withLock { _ = $0.remove(store) } }
            _ = await withServed(name) { served -> Bool? in
                do {
                    _ = try await replicator(of: served, on: primary)?.sync(.push)
                    parts.logger.info(
                        "handed writes stored while deposed to the primary",
                        metadata: ["store": "\(name)", "primary": "\(primary)"]
                    )
                } catch {
                    // The follower pushes again when it begins anew.
                    parts.logger.info("cannot hand writes to the primary", metadata: ["error": "\(error)"])
                }
                return true
            }
        }
    }

    /// Keeps the copies in line with the placements until cancelled: a
    /// pass at each change of the placements or the live nodes.
    func run() async {
        var seen: UInt64?
        var first = true
        while !Task.isCancelled {
            await parts.changes.wait { parts.changes.changes != seen && parts.cache.revision > 0 }
            seen = parts.changes.changes
            if Task.isCancelled { break }
            if first {
                // Copies left from before (placed elsewhere while this node was away) go once.
                first = false
                await dropCopiesPlacedElsewhere()
            }
            reconcile()
        }
        let tasks = entries.withLock { entries in entries.values.compactMap(\.work) }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// One pass: every copy told its placement as the cache holds it.
    func reconcile() {
        let me = parts.fleet.nodeID
        let placements = parts.cache.placements
        let stores = entries.withLock { Set($0.keys) }.union(
            placements.values.filter { $0.placement.role(of: me) != nil }.map(\.store)
        )
        for store in stores.sorted() {
            guard let record = placements[store] else {
                // No placement at all (not read yet, or removed): its work stops, nothing is erased.
                let work = entries.withLock { $0.removeValue(forKey: store)?.work }
                work?.cancel()
                continue
            }
            let placement = record.placement.role(of: me) == nil ? nil : record.placement
            let gone = record.placement.copies.contains { parts.directory.node($0) == nil }
            apply(store) { $0.place(placement, predecessorGone: gone) }
        }
    }

    /// Runs `change` on `store`'s lifecycle and the work its effects ask for.
    func apply(_ store: String, _ change: (inout CopyLifecycle) -> [CopyLifecycle.Effect]) {
        let (effects, lifecycle) = entries.withLock { entries -> ([CopyLifecycle.Effect], CopyLifecycle) in
            var entry = entries[store] ?? Entry(lifecycle: CopyLifecycle(store: store, node: parts.fleet.nodeID))
            let effects = change(&entry.lifecycle)
            entries[store] = entry
            return (effects, entry.lifecycle)
        }
        guard !effects.isEmpty, let name = try? StoreName(store) else { return }
        for effect in effects { run(effect, for: name, lifecycle: lifecycle) }
    }

    /// Starts the work of one effect.
    private func run(_ effect: CopyLifecycle.Effect, for name: StoreName, lifecycle: CopyLifecycle) {
        let store = name.rawValue
        switch effect {
        case .stopWork:
            // Cancelled; the next work waits for it to end (``chain(_:_:)``).
            entries.withLock { $0[store]?.work?.cancel() }
        case .create:
            chain(store) { [self] in await create(name) }
        case .stopLeading:
            parts.logger.info("stopped leading a store", metadata: ["store": "\(name)"])
        case .lead(let epoch, let promoted):
            if promoted { promotions.add(1, ordering: .relaxed) }
            parts.logger.info(
                "leading a store",
                metadata: ["store": "\(name)", "fleet.epoch": "\(epoch)", "fleet.node": "\(parts.fleet.nodeID)"]
            )
        case .drop:
            chain(store) { [self] in
                do {
                    try await parts.drop(name)
                    parts.logger.notice("dropped a copy placed elsewhere", metadata: ["store": "\(name)"])
                } catch {
                    parts.logger.warning("cannot drop a copy", metadata: ["store": "\(name)", "error": "\(error)"])
                }
                // Dropped: the entry goes unless a placement named this node again meanwhile.
                entries.withLock { entries in
                    if entries[store]?.lifecycle.phase == .idle { entries[store] = nil }
                }
            }
        case .follow, .waitLockDelay, .beginEpoch, .awaitCopy, .catchUp, .retry:
            chain(store) { [self] in
                guard let (event, generation) = await work(effect, for: name) else { return }
                apply(store) { $0.handle(event, generation: generation) }
            }
        }
    }

    /// Runs `body` after the work running for `store`, as its work now.
    private func chain(_ store: String, _ body: @escaping @Sendable () async -> Void) {
        entries.withLock { entries in
            let previous = entries[store]?.work
            entries[store]?.work = Task {
                await previous?.value
                guard !Task.isCancelled else { return }
                await body()
            }
        }
    }

    /// Creates the copy if the node does not hold it.
    private func create(_ name: StoreName) async {
        do {
            if try parts.registry.store(name) == nil { _ = try parts.registry.createStore(name) }
        } catch  where error.code == .storeExists {
            // Made meanwhile.
        } catch {
            parts.logger.warning("cannot create a store copy", metadata: ["store": "\(name)", "error": "\(error)"])
        }
    }

    /// Erases the local copies of stores whose placement no longer names
    /// this node: a move's source, a replaced copy that came back while this
    /// node was away. A store with no placement at all is left alone.
    func dropCopiesPlacedElsewhere() async {
        let me = parts.fleet.nodeID
        let placements = parts.cache.placements
        guard let local = try? parts.registry.stores() else { return }
        for record in local {
            guard let placement = placements[record.id], placement.placement.role(of: me) == nil,
                let name = try? StoreName(record.id)
            else { continue }
            do {
                try await parts.drop(name)
                parts.logger.notice("dropped a copy placed elsewhere", metadata: ["store": "\(name)"])
            } catch {
                parts.logger.warning("cannot drop a copy", metadata: ["store": "\(name)", "error": "\(error)"])
            }
        }
    }

    /// Stops the work this node does for `store` and waits for it to end,
    /// keeping the copy's place: for a copy whose data key was shredded, or
    /// that is being re-sealed (nothing should hold it open).
    func stop(_ store: String) async {
        apply(store) { $0.stop() }
        let work = entries.withLock { $0[store]?.work }
        await work?.value
    }

    /// Starts the work for `store` again after ``stop(_:)`` (its copy
    /// re-sealed meanwhile): it begins as new.
    func restart(_ store: String) async {
        apply(store) { lifecycle in
            lifecycle.restart()
            return []
        }
        reconcile()
    }
}
