import AnchorageCore
import AnchorageFleet
import Etcd
import Foundation
import Logging
import Synchronization

/// The fleet's one controller: every node campaigns for the claim, the one
/// holding it places new stores and applies ``ControllerPlan``'s decisions
/// (promotions, replacements), each fenced by its claim, so a deposed
/// controller changes nothing.
final class FleetController: Sendable {
    let fleet: FleetConfiguration
    let etcd: EtcdClient
    let membership: NodeMembership
    let directory: NodeDirectory
    let cache: PlacementCache
    let placements: PlacementStore
    let election: ControllerElection
    let logger: Logger
    private let claim = Mutex<ControllerElection.Claim?>(nil)
    /// Stores this node placed that its cache may not hold yet, with
    /// their primaries.
    private let created = Mutex<[String: String]>([:])
    /// The node holding the claim, as last seen (this one or another).
    private let holder = Mutex<String?>(nil)
    /// Placement changes made (promotions and replacements).
    let decisionsApplied = Atomic<Int>(0)

    init(
        fleet: FleetConfiguration,
        etcd: EtcdClient,
        membership: NodeMembership,
        directory: NodeDirectory,
        cache: PlacementCache,
        logger: Logger
    ) {
        self.fleet = fleet
        self.etcd = etcd
        self.membership = membership
        self.directory = directory
        self.cache = cache
        placements = PlacementStore(etcd: etcd, keys: fleet.keys, copies: fleet.copies, seals: fleet.seals)
        election = ControllerElection(etcd: etcd, keys: fleet.keys, nodeID: fleet.nodeID)
        self.logger = logger
    }

    /// The node controlling the fleet, as last seen: one this node probes.
    var controllerNode: String? { holder.withLock { $0 } }

    /// The claim, while this node is the controller.
    var currentClaim: ControllerElection.Claim? { claim.withLock { $0 } }

    /// Campaigns and, while holding the claim, plans and applies, until
    /// cancelled.
    func run() async {
        while !Task.isCancelled {
            await step()
            try? await membership.clock.sleep(fleet.controllerInterval)
        }
    }

    /// One round: claim if free, then apply what is due.
    func step() async {
        guard let lease = membership.lease, membership.holdsLease() else {
            claim.withLock { $0 = nil }
            return
        }
        var held = claim.withLock { $0 }
        if held == nil {
            do {
                let (won, other) = try await election.campaignOrHolder(lease: lease)
                holder.withLock { $0 = other?.nodeID }
                held = won
                if let won {
                    claim.withLock { $0 = won }
                    logger.info("controlling the fleet", metadata: ["fleet.node": "\(fleet.nodeID)"])
                } else if let other {
                    try await deposeIfUnreachable(other)
                }
            } catch {
                logger.debug("cannot campaign", metadata: ["error": "\(error)"])
            }
        }
        guard let held else { return }
        holder.withLock { $0 = fleet.nodeID }
        let live = directory.nodes
        let records = Array(cache.placements.values)
        let synced: [ControllerPlan.SyncedCopy: Int64]
        do {
            synced = try await syncedCopies()
        } catch {
            logger.debug("cannot read the joining copies' reports", metadata: ["error": "\(error)"])
            return
        }
        let unreachable: [String: Set<String>]
        do {
            unreachable = try await unreachableNodes(live: Set(live.keys))
        } catch {
            logger.debug("cannot read the unreachable nodes' reports", metadata: ["error": "\(error)"])
            return
        }
        var loads: [String: Int] = [:]
        for record in records { for node in record.placement.copies { loads[node, default: 0] += 1 } }
        let decisions = ControllerPlan.decisions(
            placements: records,
            live: live.values.map {
                PlacementPolicy.Candidate(
                    id: $0.id,
                    zone: $0.record.zone,
                    load: loads[$0.id] ?? 0,
                    capacity: $0.record.capacity
                )
            },
            goneFor: { directory.goneFor($0) },
            replaceAfter: fleet.replaceAfter,
            allowUnclean: fleet.allowUnclean,
            synced: synced,
            draining: Set(live.values.filter { $0.record.draining == true }.map(\.id)),
            balanceLimit: fleet.balanceLimit,
            unreachable: unreachable
        )
        // Many decisions at once (a node lost with a thousand copies): as
        // many a transaction as etcd takes; a transaction that fails (one
        // record changed meanwhile, or the claim is gone) is retried
        // decision by decision.
        let changes = decisions.map { ($0.record, $0.placement, also($0)) }
        for run in placements.transactions(changes) {
            let chunk = Array(decisions[run])
            if chunk.count > 1, (try? await placements.changeAll(Array(changes[run]), by: held)) != nil {
                for decision in chunk { applied(decision) }
                continue
            }
            for decision in chunk {
                do {
                    switch try await placements.change(
                        decision.record,
                        to: decision.placement,
                        by: held,
                        also: also(decision)
                    ) {
                    case .changed: applied(decision)
                    case .conflict: break  // read again next round
                    }
                } catch let error as FleetError where error.code == .notController {
                    claim.withLock { $0 = nil }
                    logger.notice("no longer the controller", metadata: ["fleet.node": "\(fleet.nodeID)"])
                    return
                } catch {
                    logger.warning(
                        "cannot change a placement",
                        metadata: ["store": "\(decision.record.store)", "error": "\(error)"]
                    )
                }
            }
        }
    }

    /// What a decision's transaction also does: a counted copy's report goes.
    private func also(_ decision: ControllerPlan.Decision) -> [EtcdOperation] {
        guard case .counting(let added, _) = decision.reason else { return [] }
        return [.delete(.key(fleet.keys.synced(decision.record.store, on: added)))]
    }

    private func applied(_ decision: ControllerPlan.Decision) {
        decisionsApplied.add(1, ordering: .relaxed)
        logger.notice(
            "placement changed",
            metadata: [
                "store": "\(decision.record.store)", "reason": "\(decision.reason)",
                "fleet.epoch": "\(decision.placement.epoch)", "primary": "\(decision.placement.primary)",
            ]
        )
    }

    /// The joining copies' reports (`synced/<store>/<node>` → the epoch
    /// they caught up at).
    func syncedCopies() async throws -> [ControllerPlan.SyncedCopy: Int64] {
        struct Report: Decodable { var epoch: Int64 }
        var found: [ControllerPlan.SyncedCopy: Int64] = [:]
        for kv in try await etcd.rangeAll(.prefix(fleet.keys.synced)).kvs {
            guard let path = fleet.keys.id(in: kv.keyText, under: fleet.keys.synced),
                let slash = path.firstIndex(of: "/"),
                let report = try? JSONDecoder().decode(Report.self, from: Data(kv.value))
            else { continue }
            let copy = ControllerPlan.SyncedCopy(
                store: String(path[..<slash]),
                node: String(path[path.index(after: slash)...])
            )
            found[copy] = report.epoch
        }
        return found
    }

    /// Ends the claim of a controller more than half of the other live
    /// nodes report unreachable, without waiting for its lease to end: it
    /// is fenced off (its transactions compare the claim's token), so the
    /// only cost of a wrong suspicion is a new controller.
    func deposeIfUnreachable(_ other: ControllerElection.Claim) async throws {
        let live = Set(directory.nodes.keys)
        guard live.contains(other.nodeID) else { return }  // its lease ended: the claim went with it
        let reporters = try await unreachableNodes(live: live)[other.nodeID] ?? []
        guard reporters.count * 2 > live.count - 1 else { return }
        if try await election.depose(other) {
            logger.notice(
                "deposed a controller the other nodes cannot reach",
                metadata: ["fleet.node": "\(other.nodeID)", "reporters": "\(reporters.sorted())"]
            )
        }
    }

    /// The nodes live nodes report unreachable (`unreachable/<node>/<reporter>`),
    /// with the live reporters.
    func unreachableNodes(live: Set<String>) async throws -> [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        for kv in try await etcd.rangeAll(.prefix(fleet.keys.unreachable), keysOnly: true).kvs {
            guard let path = fleet.keys.id(in: kv.keyText, under: fleet.keys.unreachable),
                let slash = path.firstIndex(of: "/")
            else { continue }
            let reporter = String(path[path.index(after: slash)...])
            guard live.contains(reporter) else { continue }
            found[String(path[..<slash]), default: []].insert(reporter)
        }
        return found
    }

    /// Starts moving `store`'s copy from node `from` to node `to`: `to`
    /// joins, and once it has caught up it counts and `from` goes (after
    /// handing the store over, if it leads it).
    ///
    /// - Throws: ``FleetError`` `notController`, or `invalidArgument` when
    ///   `from` holds no counted copy, `to` is not live or holds one, or a
    ///   copy is being added already.
    func move(_ store: String, from: String, to: String) async throws -> PlacementRecord {
        try await changePlacement(of: store) { placement in
            guard placement.copies.contains(from) else {
                throw FleetError(.invalidArgument, "node '\(from)' holds no counted copy of '\(store)'")
            }
            guard directory.node(to) != nil, placement.role(of: to) == nil else {
                throw FleetError(.invalidArgument, "node '\(to)' is not live, or holds a copy of '\(store)' already")
            }
            guard placement.joining.isEmpty else {
                throw FleetError(
                    .invalidArgument,
                    "a copy of '\(store)' is being added already; move it once it counts"
                )
            }
            placement.joining = [to]
            placement.retiring = [from]
        }
    }

    /// Names a new data key in the placement of `store`, a store placed
    /// before the fleet sealed, if this node is the controller; the copies
    /// are sealed under it as the nodes see the request that follows.
    ///
    /// - Throws: ``FleetError`` `notController`; `invalidArgument` for no
    ///   such store, one sealed already, or a placement changed meanwhile.
    func seal(_ store: String) async throws -> PlacementRecord {
        try await changePlacement(of: store) { placement in
            if let keyID = placement.keyID {
                throw FleetError(.invalidArgument, "store '\(store)' is sealed already, under data key \(keyID)")
            }
            placement.keyID = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        }
    }

    /// Changes `store`'s placement as `change` says, if this node is the
    /// controller and nothing changed it meanwhile.
    ///
    /// - Throws: ``FleetError`` `notController`; `invalidArgument` for no
    ///   such store or a placement changed meanwhile; what `change` throws.
    private func changePlacement(
        of store: String,
        _ change: (inout Placement) throws -> Void
    ) async throws -> PlacementRecord {
        guard let held = claim.withLock({ $0 }) else {
            throw FleetError(.notController, "this node is not the fleet's controller")
        }
        guard let record = try await placements.placement(of: store) else {
            throw FleetError(.invalidArgument, "there is no store '\(store)'")
        }
        var placement = record.placement
        try change(&placement)
        do {
            switch try await placements.change(record, to: placement, by: held) {
            case .changed(let changed): return changed
            case .conflict:
                throw FleetError(.invalidArgument, "the placement of '\(store)' changed meanwhile; ask again")
            }
        } catch let error as FleetError where error.code == .notController {
            claim.withLock { $0 = nil }
            throw error
        }
    }

    /// Places a new store, if this node is the controller.
    ///
    /// - Throws: ``FleetError`` `notController`.
    func create(_ store: String) async throws -> (record: PlacementRecord, created: Bool) {
        guard let held = claim.withLock({ $0 }) else {
            throw FleetError(.notController, "this node is not the fleet's controller")
        }
        do {
            // The stores each node leads: the cache's, and those this node
            // placed that the cache has not seen yet (many placed at once).
            let placements = cache.placements
            var primaries: [String: Int] = [:]
            for record in placements.values { primaries[record.placement.primary, default: 0] += 1 }
            let unseen = created.withLock { created in
                created = created.filter { placements[$0.key] == nil }
                return created
            }
            for primary in unseen.values { primaries[primary, default: 0] += 1 }
            let (record, made) = try await self.placements.create(store, by: held, primaries: primaries)
            if made { created.withLock { $0[store] = record.placement.primary } }
            return (record, made)
        } catch let error as FleetError where error.code == .notController {
            claim.withLock { $0 = nil }
            throw error
        }
    }
}
