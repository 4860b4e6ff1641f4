import Anchorage
import AnchorageFleet
import AnchorageService
import Logging
import ServiceLifecycle

extension FleetNode {
    /// On SIGTERM, before the node stops serving: it says it drains, the
    /// controller hands every store it leads to a replica at the next
    /// epoch, and it waits — while still answering the new primaries' pulls
    /// and following them — until it leads no store and its copies hold the
    /// new epochs (at most ``FleetConfiguration/handoffTimeout``). Then it
    /// stops, and leaves the fleet.
    func handOff() async {
        let clock = node.configuration.clock
        let started = clock.instant
        let me = fleet.nodeID
        func led() -> [PlacementRecord] {
            cache.placements.values.filter { $0.placement.primary == me }
        }
        guard !led().isEmpty else { return }
        do {
            try await membership.drain()
        } catch {
            logger.warning("cannot say the node drains; its stores fail over instead", metadata: ["error": "\(error)"])
            return
        }
        logger.notice("handing the stores this node leads over", metadata: ["stores": "\(led().count)"])
        while started.duration(to: clock.instant) < fleet.handoffTimeout {
            var done = led().isEmpty
            if done {
                // Each copy here follows its new primary and holds its epoch:
                // the new primary has a copy that pulled it.
                for (store, copy) in copies.snapshot where copy.role != .primary {
                    guard let name = try? StoreName(store) else { continue }
                    let held = try? await node.pool.withStore(name) { served in try served.owner.fleetEpoch()?.epoch }
                    if (held ?? nil).map({ $0 < UInt64(copy.epoch) }) ?? true { done = false }
                }
            }
            if done {
                logger.notice("handed the stores over", metadata: ["seconds": "\(started.duration(to: clock.instant))"])
                return
            }
            try? await clock.sleep(.milliseconds(100))
        }
        logger.warning("the handoff did not finish in time; the remaining stores fail over")
    }
}

/// Runs the fleet node's handoff when the node is asked to stop, before
/// anything else stops.
struct FleetHandoff: Service {
    let node: FleetNode

    func run() async throws {
        try? await gracefulShutdown()
        await node.handOff()
    }
}
