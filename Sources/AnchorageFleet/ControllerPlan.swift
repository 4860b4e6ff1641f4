/// What the controller changes in the placements, given which nodes are
/// live: a pure function of the fleet's state, tested without etcd (the
/// controller applies each decision with ``PlacementStore/change(_:to:by:)``,
/// fenced by its claim).
///
/// - **Promotion.** A store whose primary's node is gone gets a live
///   replica as primary, at the next epoch. A write is acknowledged once it
///   is on two copies (the primary and a replica), so with `n` copies any
///   `n - 1` of them together hold every acknowledged write: promotion waits
///   until that many are live, unless an operator allows an unclean one.
///   The new primary then pulls from the other live copies before it takes
///   writes.
/// - **Re-replication.** A copy whose node has been gone for longer than
///   `replaceAfter` (a restart is not a loss) is replaced by a live node
///   that holds no copy: the least loaded, in a zone the store's other
///   copies do not use while there is one. The new copy pulls what it lacks
///   like any replica.
///
/// At most one decision per store per plan: a store is promoted first, and
/// its lost copies are replaced in a later plan.
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
            /// A copy's node has been gone too long.
            case replacement(removed: String, added: String)
        }

        public var record: PlacementRecord
        public var placement: Placement
        public var reason: Reason
    }

    /// The decisions for `placements`, given the live nodes (with their
    /// zones and loads) and how long each other node has been gone (`nil`:
    /// unknown, counted as just gone).
    public static func decisions(
        placements: [PlacementRecord],
        live: [PlacementPolicy.Candidate],
        goneFor: (String) -> Duration?,
        replaceAfter: Duration,
        allowUnclean: Bool = false
    ) -> [Decision] {
        let liveByID = Dictionary(live.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var loads = Dictionary(live.map { ($0.id, $0.load) }, uniquingKeysWith: { first, _ in first })
        var decisions: [Decision] = []
        for record in placements.sorted(by: { $0.store < $1.store }) {
            let placement = record.placement
            let liveReplicas = placement.replicas.filter { liveByID[$0] != nil }
            if liveByID[placement.primary] == nil {
                let liveCopies = liveReplicas.count
                guard let successor = liveReplicas.first,
                    allowUnclean || liveCopies >= placement.copies.count - 1
                else { continue }
                let promoted = Placement(
                    primary: successor,
                    replicas: placement.copies.filter { $0 != successor },
                    epoch: placement.epoch + 1
                )
                decisions.append(
                    Decision(record: record, placement: promoted, reason: .promotion(liveCopies: liveCopies))
                )
                continue
            }
            // The primary is live: replace the replica gone longest, if any is gone long enough.
            let lost = placement.replicas
                .filter { liveByID[$0] == nil && (goneFor($0) ?? .zero) > replaceAfter }
                .max { (goneFor($0) ?? .zero) < (goneFor($1) ?? .zero) }
            guard let lost else { continue }
            let kept = placement.copies.filter { $0 != lost }
            let usedZones = Set(kept.compactMap { liveByID[$0]?.zone })
            // Free nodes, those in a zone the store does not use first.
            let free = live.filter { !placement.copies.contains($0.id) }
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
            let replaced = Placement(
                primary: placement.primary,
                replicas: placement.replicas.map { $0 == lost ? added : $0 },
                epoch: placement.epoch
            )
            decisions.append(
                Decision(record: record, placement: replaced, reason: .replacement(removed: lost, added: added))
            )
        }
        return decisions
    }
}
