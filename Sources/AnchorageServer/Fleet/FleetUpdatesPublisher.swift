import AnchorageCore
import AnchorageFleet
import AnchorageService
import Etcd
import Foundation
import Logging

/// Publishes the anchors of the stores this node leads to the fleet's
/// store-updates feed (``FleetStoreUpdates``), off the write path.
///
/// It follows the node's own feed (``StoreUpdatesFeed``: durable, its
/// anchors portable on a fleet node) from the position it last published,
/// kept in etcd in the same transaction as what it published; an update
/// of a store the placement says this node leads is published, in batches.
/// A store this node is promoted to lead has its anchor published at once
/// (its copy holds every write the old primary acknowledged, and the old
/// primary may have died before publishing them), unless etcd holds it.
///
/// ```swift
/// let publisher = FleetUpdatesPublisher(feed: fleetFeed, local: node.storeUpdates, cache: cache, nodeID: "n1")
/// Task { await publisher.run() }
/// ```
struct FleetUpdatesPublisher: Sendable {
    let feed: FleetStoreUpdates
    let local: StoreUpdatesFeed
    let cache: PlacementCache
    let nodeID: String
    let clock: StoreClock
    let logger: Logger

    /// Publishes until cancelled.
    func run() async {
        // Promotions are seen against the placements as they stood once read.
        await cache.changes.wait { cache.revision > 0 }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await followLocalFeed() }
            group.addTask { await publishPromotions() }
        }
    }

    /// What a store's anchor is published under: the placement this node
    /// leads it by — its epoch, and its mod revision, the publication's
    /// fence.
    struct Lead: Sendable, Hashable {
        var epoch: Int64
        var placementRevision: Int64
    }

    /// An anchor to publish, and the placement it is published under.
    typealias Head = (anchor: String, lead: Lead)

    /// The stores the placement says this node leads.
    private func ledStores() -> [String: Lead] {
        var led: [String: Lead] = [:]
        for (store, record) in cache.placements where record.placement.primary == nodeID {
            led[store] = Lead(epoch: record.placement.epoch, placementRevision: record.modRevision)
        }
        return led
    }

    /// Waits until this node's copy of the placements has seen one of
    /// `fenced` move (what failed a publication's fence).
    private func waitUntilSeen(movedAmong fenced: [String: Lead]) async {
        await cache.changes.wait {
            fenced.contains { cache.placement(of: $0.key)?.modRevision != $0.value.placementRevision }
        }
    }

    private func followLocalFeed() async {
        var position: StoreUpdatesCursor?
        var started = false
        while !Task.isCancelled {
            do {
                if !started {
                    guard let start = try await startingPosition() else { continue }
                    position = start
                    started = true
                }
                let page = try await local.waitForUpdates(after: position, limit: 1_000, timeout: .seconds(30))
                var heads: [String: Head] = [:]
                for update in page.updates where update.kind == .changed {
                    guard let anchor = update.anchor, let record = cache.placement(of: update.store),
                        record.placement.primary == nodeID
                    else { continue }
                    heads[update.store] = (
                        anchor, Lead(epoch: record.placement.epoch, placementRevision: record.modRevision)
                    )
                }
                if let fenced = try await publish(heads, position: page.newCursor) {
                    // A placement moved before this node's copy of them saw it: the page is read again once
                    // it has (a store this node no longer leads is left to its new primary).
                    await waitUntilSeen(movedAmong: fenced)
                    continue
                }
                position = page.newCursor
            } catch is CancellationError {
                return
            } catch {
                logger.warning("cannot publish store updates to the fleet's feed; trying again: \(error)")
                try? await clock.sleep(.seconds(1))
            }
        }
    }

    /// Where this node's own feed was published up to; from its head, with
    /// every store it leads published, when etcd holds no position that
    /// fits this node's feed. `nil` when a placement moved meanwhile (once
    /// this node has seen it).
    private func startingPosition() async throws -> StoreUpdatesCursor? {
        let key = feed.keys.storeUpdatesPublished(by: nodeID)
        let answer = try await feed.etcd.range(.key(key))
        if let value = answer.kvs.first?.value,
            let cursor = try? StoreUpdatesCursor(parsing: String(decoding: value, as: UTF8.self)),
            (try? local.check(cursor)) != nil
        {
            return cursor
        }
        let head = try local.headCursor()
        if let fenced = try await publishIfNewer(ledStores(), position: head) {
            await waitUntilSeen(movedAmong: fenced)
            return nil
        }
        return head
    }

    /// Publishes `heads` in batches, the last batch with `position` (this
    /// node's feed published up to there), if given; each batch fenced on
    /// its stores' placements, so a node deposed meanwhile publishes
    /// nothing for them.
    ///
    /// - Returns: the stores of the batch whose fence failed (that batch
    ///   and the later ones are not published); `nil` when all were.
    private func publish(_ heads: [String: Head], position: StoreUpdatesCursor?) async throws -> [String: Lead]? {
        guard !heads.isEmpty else { return nil }
        let place = position.map {
            EtcdOperation.put(feed.keys.storeUpdatesPublished(by: nodeID), value: Array($0.description.utf8))
        }
        // One epoch a transaction: the value records the epoch it was led at.
        let byEpoch = Dictionary(grouping: heads.sorted { $0.key < $1.key }) { $0.value.lead.epoch }
        let batches = byEpoch.sorted { $0.key < $1.key }.flatMap { epoch, entries in
            stride(from: 0, to: entries.count, by: FleetStoreUpdates.maximumBatch).map { start in
                (epoch, Array(entries[start..<min(start + FleetStoreUpdates.maximumBatch, entries.count)]))
            }
        }
        for (index, (epoch, entries)) in batches.enumerated() {
            let published = try await feed.publish(
                entries.map { ($0.key, $0.value.anchor) },
                node: nodeID,
                epoch: epoch,
                fences: entries.map {
                    EtcdCompare(feed.keys.store($0.key), .equal, .modRevision($0.value.lead.placementRevision))
                },
                extra: index == batches.count - 1 ? place.map { [$0] } ?? [] : []
            )
            guard published else { return Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value.lead) }) }
        }
        return nil
    }

    /// Publishes the anchors this node's feed recorded for `stores` that
    /// etcd does not hold already.
    ///
    /// - Returns: as ``publish(_:position:)``.
    private func publishIfNewer(_ stores: [String: Lead], position: StoreUpdatesCursor?) async throws -> [String: Lead]?
    {
        var heads: [String: Head] = [:]
        for (store, lead) in stores {
            guard let name = try? StoreName(store), let anchor = try local.registry.publishedAnchor(of: name) else {
                continue
            }
            heads[store] = (anchor, lead)
        }
        guard !heads.isEmpty else { return nil }
        // Read what etcd holds, a batch at a time: an unchanged anchor is not written again.
        let names = heads.keys.sorted()
        let decoder = JSONDecoder()
        for start in stride(from: 0, to: names.count, by: FleetStoreUpdates.maximumBatch) {
            let batch = names[start..<min(start + FleetStoreUpdates.maximumBatch, names.count)]
            let answer = try await feed.etcd.txn(
                EtcdTxn(compare: [], success: batch.map { .range(.key(feed.keys.storeHead($0))) })
            )
            for (store, response) in zip(batch, answer.responses) {
                guard case .range(let result) = response, let kv = result.kvs.first,
                    let held = try? decoder.decode(FleetStoreUpdates.PublishedHead.self, from: Data(kv.value))
                else { continue }
                if held.anchor == heads[store]?.anchor { heads[store] = nil }
            }
        }
        return try await publish(heads, position: position)
    }

    /// Publishes the anchor of each store this node comes to lead (or
    /// leads by a placement changed otherwise: publishing an anchor etcd
    /// holds already is skipped).
    private func publishPromotions() async {
        var known = ledStores()
        var seen = cache.changes.changes
        while !Task.isCancelled {
            await cache.changes.wait { cache.changes.changes != seen }
            guard !Task.isCancelled else { return }
            seen = cache.changes.changes
            let now = ledStores()
            let promoted = now.filter { known[$0.key] != $0.value }
            known = now
            guard !promoted.isEmpty else { continue }
            while !Task.isCancelled {
                do {
                    // A fence that fails means the placement moved again: the next change is handled as its own.
                    _ = try await publishIfNewer(promoted, position: nil)
                    break
                } catch {
                    logger.warning("cannot publish the anchors of stores this node now leads; trying again: \(error)")
                    try? await clock.sleep(.seconds(1))
                }
            }
        }
    }
}
