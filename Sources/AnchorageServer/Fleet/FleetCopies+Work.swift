import Anchorage
import AnchorageFleet
import AnchorageService
import AnchorageSync
import Etcd
import Foundation
import Logging

extension FleetCopies {
    /// Does the work of one effect and says what came of it (`nil`: the
    /// work was cancelled, or reports nothing when it ends).
    func work(_ effect: CopyLifecycle.Effect, for name: StoreName) async -> (CopyLifecycle.Event, Int)? {
        switch effect {
        case .retry(let inner, _):
            try? await parts.clock.sleep(Self.retryPause)
            return Task.isCancelled ? nil : await work(inner, for: name)
        case .waitLockDelay(let generation):
            try? await parts.clock.sleep(parts.fleet.lockDelay)
            return Task.isCancelled ? nil : (.lockDelayPassed, generation)
        case .beginEpoch(let epoch, let generation):
            return await withServed(name) { served in (await beginEpoch(served, epoch: epoch), generation) }
        case .awaitCopy(let seq, let generation):
            return await withServed(name) { served in
                await awaitCopy(served, seq: seq) ? (.epochPulled, generation) : nil
            }
        case .catchUp(let epoch, let generation):
            return await withServed(name) { served in (await catchUp(served, epoch: epoch), generation) }
        case .follow(let primary, let epoch, let joining, let generation):
            await withServed(name) { served in
                await follow(served, primary: primary, epoch: epoch, joining: joining, generation: generation)
            }
            return nil
        case .stopWork, .create, .lead, .stopLeading, .drop:
            return nil
        }
    }

    /// Runs `body` with the store open; tries again after a pause when
    /// opening fails, until cancelled (then `nil`).
    func withServed<R: Sendable>(_ name: StoreName, _ body: (ServedStore) async -> R?) async -> R? {
        while !Task.isCancelled {
            do {
                let lease = try await parts.pool.lease(name)
                let result = await body(lease.resource)
                await lease.release()
                return result
            } catch {
                parts.logger.warning("cannot open a store copy", metadata: ["store": "\(name)", "error": "\(error)"])
                try? await parts.clock.sleep(.seconds(1))
            }
        }
        return nil
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

    /// A replica: hands the primary what only this copy holds, then
    /// follows the primary's log live until cancelled. A joining copy first
    /// pulls until it has caught up, and reports it (`synced/<store>/<node>`)
    /// so that the controller counts it.
    func follow(_ served: ServedStore, primary: String, epoch: Int64, joining: Bool, generation: Int) async {
        let name = served.name
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
                        apply(name.rawValue) { $0.handle(.caughtUpAndReported, generation: generation) }
                    }
                    await replicator.follow(.pull)
                }
            } catch {
                parts.logger.debug("cannot follow the primary", metadata: ["store": "\(name)", "error": "\(error)"])
            }
            // The primary is not live (yet), or following ended: look again shortly.
            try? await parts.clock.sleep(Self.retryPause)
        }
    }

    /// Tells the controller this node's joining copy of `name` has caught
    /// up with the primary at `epoch`.
    func reportSynced(_ name: StoreName, epoch: Int64) async throws {
        let key = parts.fleet.keys.synced(name.rawValue, on: parts.fleet.nodeID)
        _ = try await parts.etcd.put(key, value: Array(#"{"epoch":\#(epoch)}"#.utf8))
        parts.logger.info("a joining copy caught up", metadata: ["store": "\(name)", "fleet.epoch": "\(epoch)"])
    }

    /// Appends the epoch entry, or finds it (begun before a restart).
    func beginEpoch(_ served: ServedStore, epoch: Int64) async -> CopyLifecycle.Event {
        let me = parts.fleet.nodeID
        let wanted = UInt64(max(1, epoch))
        let record = parts.cache.placement(of: served.name.rawValue)
        let revision = record?.placement.epoch == epoch ? record?.modRevision ?? 0 : 0
        do {
            let seq = try await served.owner.beginFleetEpoch(FleetEpoch(epoch: wanted, primary: me, revision: revision))
            return .epochBegun(seq: seq)
        } catch let error as FleetEpochError {
            let mine = try? served.owner.fleetEpochHistory().last { $0.epoch.epoch == wanted && $0.epoch.primary == me }
            guard error.held == wanted, let mine else {
                parts.logger.warning(
                    "a copy holds a higher epoch than the placement gives this node",
                    metadata: ["store": "\(served.name)", "fleet.epoch": "\(wanted)", "held": "\(error.held)"]
                )
                return .higherEpochHeld
            }
            return .epochBegun(seq: mine.seq)
        } catch {
            parts.logger.warning("cannot begin an epoch", metadata: ["store": "\(served.name)", "error": "\(error)"])
            return .failed
        }
    }

    /// The other live copies of the store, as the cache places them.
    private func otherCopies(of name: StoreName) -> [String] {
        let me = parts.fleet.nodeID
        return (parts.cache.placement(of: name.rawValue)?.placement.copies ?? []).filter {
            $0 != me && parts.directory.node($0) != nil
        }
    }

    /// Waits until another copy has pulled the epoch entry at `seq` (from
    /// then on it refuses the old primary, so what it holds of the old epoch
    /// is closed); an unclean promotion with no other copy live goes on
    /// without. `false` when cancelled.
    func awaitCopy(_ served: ServedStore, seq: UInt64) async -> Bool {
        while !Task.isCancelled {
            if parts.fleet.allowUnclean && otherCopies(of: served.name).isEmpty { return true }
            if await served.followers.waitForAcknowledgement(of: seq, timeout: .seconds(1)) { return true }
        }
        return false
    }

    /// Pulls from a copy holding the epoch what this one lacks: with writes
    /// acknowledged on two of three copies, every acknowledged write is then
    /// here. Every other live copy is asked at once and the first to answer
    /// serves (the old primary, frozen but still live, would hold the
    /// promotion up to a request's timeout).
    func catchUp(_ served: ServedStore, epoch: Int64) async -> CopyLifecycle.Event {
        let name = served.name
        let others = otherCopies(of: name)
        if parts.fleet.allowUnclean && others.isEmpty { return .caughtUp }
        let replicators = others.compactMap { node in
            (try? replicator(of: served, on: node)).flatMap { $0 }.map { (node, $0) }
        }
        let from = await withTaskGroup(of: String?.self) { group in
            for (node, replicator) in replicators {
                group.addTask { [parts] in
                    do {
                        let summary = try await replicator.sync(.pull)
                        parts.logger.info(
                            "caught up from a copy",
                            metadata: [
                                "store": "\(name)", "fleet.epoch": "\(epoch)", "from": "\(node)",
                                "applied": "\(summary.pulled?.applied ?? 0)",
                            ]
                        )
                        return node
                    } catch {
                        // That copy does not hold the epoch yet, or is out of reach.
                        parts.logger.debug(
                            "cannot catch up from a copy",
                            metadata: ["from": "\(node)", "error": "\(error)"]
                        )
                        return nil
                    }
                }
            }
            for await node in group where node != nil {
                group.cancelAll()
                return node
            }
            return nil
        }
        return from == nil ? .failed : .caughtUp
    }
}
