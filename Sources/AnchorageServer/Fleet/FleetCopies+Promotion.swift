import Anchorage
import AnchorageFleet
import AnchorageService
import AnchorageSync
import Logging
import Synchronization

extension FleetCopies {
    /// Makes this node the store's primary at `epoch` (docs/fleet.md,
    /// "Failover"), then marks it ready to take writes:
    ///
    /// 1. after a takeover from a node whose lease ended, waits the
    ///    lock-delay past its expiry (a predecessor still live — a handoff,
    ///    or one its replicas cannot reach — is fenced by the epoch alone);
    /// 2. appends the epoch entry (or finds it, after a restart);
    /// 3. after a takeover, waits until another copy has pulled the entry
    ///    (from then on that copy refuses the old primary, so what it holds
    ///    of the old epoch is closed), then pulls from a copy holding the
    ///    epoch what it lacks: with writes acknowledged on two of three
    ///    copies, every acknowledged write is now here.
    func promote(_ name: StoreName, epoch: Int64, revision: Int64) async {
        let me = parts.fleet.nodeID
        let wanted = UInt64(max(1, epoch))
        await withServed(name) { served in
            let owner = served.owner
            let copies = parts.cache.placement(of: name.rawValue)?.placement.copies ?? []
            if epoch > 1, copies.contains(where: { parts.directory.node($0) == nil }) {
                try? await Task.sleep(for: parts.fleet.lockDelay)
            }
            var begun: UInt64?
            while begun == nil, !Task.isCancelled, holds(name, .primary, epoch: epoch) {
                do {
                    begun = try await owner.beginFleetEpoch(FleetEpoch(epoch: wanted, primary: me, revision: revision))
                } catch let error as FleetEpochError {
                    // Begun before a restart, or another node's higher epoch is here.
                    let mine = try? owner.fleetEpochHistory().last {
                        $0.epoch.epoch == wanted && $0.epoch.primary == me
                    }
                    guard error.held == wanted, let mine else {
                        parts.logger.warning(
                            "a copy holds a higher epoch than the placement gives this node",
                            metadata: ["store": "\(name)", "fleet.epoch": "\(wanted)", "held": "\(error.held)"]
                        )
                        return
                    }
                    begun = mine.seq
                } catch {
                    parts.logger.warning("cannot begin an epoch", metadata: ["store": "\(name)", "error": "\(error)"])
                    try? await Task.sleep(for: .seconds(1))
                }
            }
            guard let seq = begun else { return }
            if epoch > 1 {
                guard await catchUp(served, through: seq, epoch: epoch) else { return }
                promotions.add(1, ordering: .relaxed)
            }
            markReady(name, epoch: epoch)
            parts.logger.info(
                "leading a store",
                metadata: ["store": "\(name)", "fleet.epoch": "\(epoch)", "fleet.node": "\(me)"]
            )
        }
    }

    /// Steps 3 of ``promote(_:epoch:revision:)``; false when the node stopped
    /// leading the store meanwhile.
    private func catchUp(_ served: ServedStore, through seq: UInt64, epoch: Int64) async -> Bool {
        let name = served.name
        let me = parts.fleet.nodeID
        func others() -> [String] {
            (parts.cache.placement(of: name.rawValue)?.placement.copies ?? []).filter {
                $0 != me && parts.directory.node($0) != nil
            }
        }
        // Another copy pulls the epoch entry (an unclean promotion with no
        // other copy live goes on without).
        while !Task.isCancelled, holds(name, .primary, epoch: epoch) {
            if parts.fleet.allowUnclean && others().isEmpty { return true }
            if await served.followers.waitForAcknowledgement(of: seq, timeout: .seconds(1)) { break }
        }
        while !Task.isCancelled, holds(name, .primary, epoch: epoch) {
            for node in others() {
                do {
                    guard let replicator = try replicator(of: served, on: node) else { continue }
                    let summary = try await replicator.sync(.pull)
                    parts.logger.info(
                        "caught up from a copy",
                        metadata: [
                            "store": "\(name)", "fleet.epoch": "\(epoch)", "from": "\(node)",
                            "applied": "\(summary.pulled?.applied ?? 0)",
                        ]
                    )
                    return true
                } catch {
                    // That copy does not hold the epoch yet, or is out of reach: the next.
                    parts.logger.debug(
                        "cannot catch up from a copy",
                        metadata: ["from": "\(node)", "error": "\(error)"]
                    )
                }
            }
            if parts.fleet.allowUnclean && others().isEmpty { return true }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return false
    }
}
