import Anchorage
import AnchorageCore
import AnchorageFleet
import AnchorageLog
import AnchorageService
import CoreMetrics
import Hummingbird
import Synchronization

extension FleetNode {
    /// `GET /metrics` of a fleet node: the node's, plus the fleet's gauges,
    /// read when asked (docs/fleet.md, "Operation"):
    ///
    /// - `anchorage_fleet_copies_primary`, `_replica`, `_joining`: copies this node holds;
    /// - `anchorage_fleet_replica_lag_entries_max`: the most entries any store
    ///   this node leads holds that no replica has confirmed yet;
    /// - `anchorage_fleet_writes_waiting_for_replica`: answers waiting for a
    ///   replica's confirmation now;
    /// - `anchorage_fleet_failovers`: epochs this node began after a
    ///   takeover (promotions and handoffs);
    /// - `anchorage_fleet_placement_changes`: changes it made as the
    ///   controller; `anchorage_fleet_controller`: 1 while it is;
    /// - `anchorage_fleet_lease_seconds_left`: before its lease deadline.
    func metricsResponse() async -> Response {
        let metrics = node.metrics
        let snapshot = copies.snapshot
        var lag: UInt64 = 0
        var waiting = 0
        for (store, copy) in snapshot where copy.role == .primary {
            guard let name = try? StoreName(store) else { continue }
            _ = try? await node.pool.withStore(name) { served in
                let progress = served.followers.progress
                let head = try served.owner.eventLog().head.seq
                lag = max(lag, head > progress.acknowledged ? head - progress.acknowledged : 0)
                waiting += progress.waiting
            }
        }
        for role in [Placement.Role.primary, .replica, .joining] {
            let count = snapshot.values.filter { $0.role == role }.count
            metrics.meter("anchorage_fleet_copies_\(role.rawValue)").set(count)
        }
        metrics.meter("anchorage_fleet_replica_lag_entries_max").set(Int(min(lag, UInt64(Int.max))))
        metrics.meter("anchorage_fleet_writes_waiting_for_replica").set(waiting)
        metrics.meter("anchorage_fleet_failovers").set(copies.promotions.load(ordering: .relaxed))
        metrics.meter("anchorage_fleet_placement_changes")
            .set(controller.decisionsApplied.load(ordering: .relaxed))
        metrics.meter("anchorage_fleet_controller").set(controller.currentClaim == nil ? 0 : 1)
        let left = membership.deadline.map { $0 - membership.clock.instant } ?? .zero
        metrics.meter("anchorage_fleet_lease_seconds_left").set(Double(left / .milliseconds(1)) / 1_000)
        return metrics.response()
    }
}
