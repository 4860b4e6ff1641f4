import AnchorageLog
import Foundation

/// A store's fleet epochs (``FleetEpoch``). An Anchorage addition: the
/// fleet's nodes call these; an app never needs to.
extension HKHealthStore {
    /// The highest fleet epoch this copy holds, or `nil` before any.
    ///
    /// ```swift
    /// if let held = try store.fleetEpoch(), held.epoch > myEpoch { stopTakingWrites() }
    /// ```
    public func fleetEpoch() throws(HKError) -> FleetEpoch? {
        let engine = try openEngine()
        return try engine.read { txn in try engine.index.fleetEpoch(in: txn) }
    }

    /// Appends `epoch` as an entry, atomically checked to be higher than
    /// every epoch this copy holds; returns the entry's position.
    ///
    /// The owner only. Replicas learn the entry by pulling it, like any
    /// other; from then on they refuse to follow a lower epoch.
    ///
    /// ```swift
    /// let seq = try await store.beginFleetEpoch(FleetEpoch(epoch: 5, primary: "n3", revision: rev))
    /// ```
    ///
    /// - Throws: ``FleetEpochError`` when this copy holds `epoch` or a
    ///   higher one already (nothing is appended); `HKError` when the
    ///   caller is not the owner or storage fails.
    @discardableResult
    public func beginFleetEpoch(_ epoch: FleetEpoch) async throws -> UInt64 {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner begins a fleet epoch")
        }
        let engine = try await openEngine()
        let index = engine.index
        let requested = epoch.epoch
        let anchors = try await engine.log.append(
            [.save(id: UUID(), kind: StoreKind.fleetEpoch, payload: epoch.payload)],
            precondition: { txn in
                if let held = try index.fleetEpoch(in: txn), held.epoch >= requested {
                    throw FleetEpochError(requested: requested, held: held.epoch)
                }
                return nil
            }
        )
        return anchors[0].seq
    }

    /// Every epoch entry of this copy's log, in log order, with its
    /// position: the store's fleet history. Reads the whole log a page at a
    /// time. Owner only.
    ///
    /// ```swift
    /// for (seq, epoch) in try store.fleetEpochHistory() { print(seq, epoch.epoch, epoch.primary) }
    /// ```
    public func fleetEpochHistory() throws(HKError) -> [(seq: UInt64, epoch: FleetEpoch)] {
        guard caller.isOwner else {
            throw HKError(.errorAuthorizationDenied, "only the store's owner reads the fleet's epochs")
        }
        let engine = try openEngine()
        var found: [(seq: UInt64, epoch: FleetEpoch)] = []
        var anchor: Anchor?
        do {
            while true {
                let page = try engine.log.entries(after: anchor, limit: 4_096, kinds: [StoreKind.fleetEpoch])
                for entry in page.entries {
                    if let epoch = entry.payload.flatMap({ FleetEpoch(payload: $0) }) {
                        found.append((entry.seq, epoch))
                    }
                }
                anchor = page.next
                if !page.hasMore { break }
            }
        } catch {
            throw HKError.wrapping(error)
        }
        return found
    }
}
