/// What the controller changes in the placements, given which nodes are
/// live: a pure function of the fleet's state, tested without etcd (the
/// controller applies each decision with ``PlacementStore/change(_:to:by:also:)``,
/// fenced by its claim).
///
/// - **Promotion.** A store whose primary's node is gone — its lease
///   ended, or every live replica of the store reports it cannot reach it
///   (``Suspicion``: a primary none of its replicas reaches can acknowledge
///   nothing) — gets a live replica as primary, at the next epoch. A write is acknowledged once it
///   is on two copies (the primary and a replica), so with `n` copies any
///   `n - 1` of them together hold every acknowledged write: promotion waits
///   until that many are live, unless an operator allows an unclean one.
///   The new primary then pulls from the other live copies before it takes
///   writes.
/// - **Handoff.** A live primary whose node is draining (it was asked to
///   stop) or whose copy retires (a move) hands the store to a live replica
///   that stays, at the next epoch; it follows the new primary from then on.
/// - **Re-replication and moves: add, sync, then count.** A replica whose
///   node has been gone longer than `replaceAfter` (a restart is not a
///   loss), or that retires, gets a successor: a free live node (the least
///   loaded, in a zone the store's other copies do not use while there is
///   one) joins, pulls until it has caught up with the primary at the
///   current epoch and says so; only then does it count as a replica, and
///   the copy it replaces goes. Until then promotion counts the old copy,
///   so a half-filled copy never decides what was acknowledged.
/// - **Balance.** With nothing else to do for them, stores are handed from
///   nodes leading more to nodes leading fewer, up to `balanceLimit` a plan
///   (``balancing(placements:after:live:draining:limit:)``).
///
/// At most one decision per store per plan, in that order.
///
/// ```swift
/// let decisions = ControllerPlan.decisions(
///     placements: records, live: nodes, goneFor: { node in gone[node] }, replaceAfter: .seconds(60)
/// )
/// ```
public enum ControllerPlan {
    /// One change of one store's placement.
    public struct Decision: Sendable, Hashable {
        public enum Reason: Sendable, Hashable {
            /// The primary's node is gone; the store had this many live copies.
            case promotion(liveCopies: Int)
            /// The primary's node is live, but none of the store's live
            /// replicas (this many) reaches it.
            case unreachable(liveCopies: Int)
            /// The primary's node drains, or its copy retires.
            case handoff(from: String)
            /// A node joins to replace a lost or retiring copy.
            case addition(joining: String)
            /// The joining copy caught up and counts; `removed` went.
            case counting(added: String, removed: String?)
            /// A joining copy's node has been gone too long.
            case abandonment(joining: String)
            /// The primary's node leads more stores than the new primary's.
            case balancing(from: String)
        }

        public var record: PlacementRecord
        public var placement: Placement
        public var reason: Reason
    }

    /// A joining copy that reported it caught up, and at which epoch.
    public struct SyncedCopy: Sendable, Hashable {
        public var store: String
        public var node: String

        public init(store: String, node: String) {
            self.store = store
            self.node = node
        }
    }

    /// The decisions for `placements`, given the live nodes (with their
    /// zones and loads), how long each other node has been gone (`nil`:
    /// unknown, counted as just gone), the joining copies that caught up
    /// (with the epoch they caught up at), the nodes draining, how many
    /// stores may be handed over for balance, and which live nodes report
    /// which others unreachable (node → reporters).
    public static func decisions(
        placements: [PlacementRecord],
        live: [PlacementPolicy.Candidate],
        goneFor: (String) -> Duration?,
        replaceAfter: Duration,
        allowUnclean: Bool = false,
        synced: [SyncedCopy: Int64] = [:],
        draining: Set<String> = [],
        balanceLimit: Int = 0,
        unreachable: [String: Set<String>] = [:]
    ) -> [Decision] {
        let liveByID = Dictionary(live.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var loads = Dictionary(live.map { ($0.id, $0.load) }, uniquingKeysWith: { first, _ in first })
        var decisions: [Decision] = []
        for record in placements.sorted(by: { $0.store < $1.store }) {
            let placement = record.placement
            func isLive(_ node: String) -> Bool { liveByID[node] != nil }
            func handsOver(_ node: String) -> Bool { draining.contains(node) || placement.retiring.contains(node) }
            func lost(_ node: String) -> Bool { !isLive(node) && (goneFor(node) ?? .zero) > replaceAfter }
            let liveReplicas = placement.replicas.filter(isLive)
            func decide(_ changed: Placement, _ reason: Decision.Reason) {
                decisions.append(Decision(record: record, placement: changed, reason: reason))
            }
            func promoted(_ successor: String) -> Placement {
                var changed = placement
                changed.primary = successor
                changed.replicas = placement.copies.filter { $0 != successor }
                changed.epoch = placement.epoch + 1
                return changed
            }
            let reporters = unreachable[placement.primary] ?? []
            let cutOff = !liveReplicas.isEmpty && liveReplicas.allSatisfy { reporters.contains($0) }
            if !isLive(placement.primary) || cutOff {
                // Replicas that stay are preferred over ones handing over.
                let successor = liveReplicas.first { !handsOver($0) } ?? liveReplicas.first
                guard let successor, allowUnclean || liveReplicas.count >= placement.copies.count - 1 else { continue }
                let count = liveReplicas.count
                decide(
                    promoted(successor),
                    isLive(placement.primary) ? .unreachable(liveCopies: count) : .promotion(liveCopies: count)
                )
                continue
            }
            if handsOver(placement.primary), let successor = liveReplicas.first(where: { !handsOver($0) }) {
                decide(promoted(successor), .handoff(from: placement.primary))
                continue
            }
            if let joiner = placement.joining.first(where: {
                isLive($0) && synced[SyncedCopy(store: record.store, node: $0)] == placement.epoch
            }) {
                let removed =
                    placement.replicas.first { placement.retiring.contains($0) }
                    ?? placement.replicas.filter(lost).max { (goneFor($0) ?? .zero) < (goneFor($1) ?? .zero) }
                var changed = placement
                changed.replicas = placement.replicas.filter { $0 != removed } + [joiner]
                changed.joining = placement.joining.filter { $0 != joiner }
                changed.retiring = placement.retiring.filter { $0 != removed }
                decide(changed, .counting(added: joiner, removed: removed))
                continue
            }
            if let gone = placement.joining.first(where: lost) {
                var changed = placement
                changed.joining = placement.joining.filter { $0 != gone }
                decide(changed, .abandonment(joining: gone))
                continue
            }
            let replaced = placement.replicas.contains { placement.retiring.contains($0) || lost($0) }
            guard placement.joining.isEmpty, replaced else { continue }
            let staying = placement.copies.filter { !placement.retiring.contains($0) && !lost($0) }
            let usedZones = Set(staying.compactMap { liveByID[$0]?.zone })
            // Free nodes (not draining), those in a zone the store does not use first.
            let free = live.filter { !placement.holders.contains($0.id) && !draining.contains($0.id) }
                .map { candidate in
                    var weighed = candidate
                    weighed.load = loads[candidate.id] ?? candidate.load
                    return weighed
                }
            let fresh = free.filter { $0.zone.map { !usedZones.contains($0) } ?? true }
            guard let added = PlacementPolicy.choose(count: 1, from: fresh.isEmpty ? free : fresh).first else {
                continue
            }
            loads[added, default: 0] += 1
            var changed = placement
            changed.joining = [added]
            decide(changed, .addition(joining: added))
        }
        // A node some live node cannot reach is handed nothing for balance.
        let reached = live.filter { unreachable[$0.id, default: []].isDisjoint(with: liveByID.keys) }
        return decisions
            + balancing(
                placements: placements,
                after: decisions,
                live: reached,
                draining: draining,
                limit: balanceLimit
            )
    }
}
