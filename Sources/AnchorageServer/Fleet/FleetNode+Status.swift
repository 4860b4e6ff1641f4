import Anchorage
import AnchorageFleet
import AnchorageLog
import AnchorageService
import Foundation
import Synchronization

extension TokenRecord {
    /// The id of the record a fleet's secret acts as: the owner of every
    /// store, with the replication grant; it records no grants.
    static let fleetID = "fleet"
}

extension FleetNode {
    /// What `GET /v1/fleet/status` answers: this node, the live nodes, and
    /// the copies this node holds.
    struct Status: Encodable {
        struct Node: Encodable {
            var id: String
            var address: String
            var zone: String?
        }

        struct Copy: Encodable {
            var store: String
            var role: String
            var epoch: Int64
            /// A primary: its epoch is begun and caught up.
            var ready: Bool
            /// The copy's last position.
            var head: UInt64?
            /// The highest epoch the copy's log holds.
            var heldEpoch: UInt64?
            /// A primary: entries no replica has confirmed yet.
            var unconfirmed: UInt64?
        }

        var node: String
        var controller: Bool
        /// Whether the node may count on its lease now (a primary takes
        /// writes only then).
        var holdsLease: Bool
        /// Seconds left before the node's lease deadline.
        var leaseSecondsLeft: Double?
        var nodes: [Node]
        var copies: [Copy]
        /// Epochs this node began after a takeover.
        var promotions: Int
        /// Placement changes this node made as the controller.
        var placementChanges: Int
    }

    /// What `GET /v1/fleet/copies/{store}` answers: this node's copy of a
    /// store, with its state digest (equal on every copy once they have
    /// converged).
    struct CopyStatus: Encodable {
        var store: String
        var role: String
        var epoch: Int64
        var ready: Bool
        var head: UInt64
        var heldEpoch: UInt64?
        var digest: String
    }

    func copyStatus(_ name: StoreName) async throws -> CopyStatus? {
        guard let copy = copies.snapshot[name.rawValue] else { return nil }
        return try await node.pool.withStore(name) { served in
            CopyStatus(
                store: name.rawValue,
                role: copy.role.rawValue,
                epoch: copy.epoch,
                ready: copy.ready,
                head: try served.owner.eventLog().head.seq,
                heldEpoch: try served.owner.fleetEpoch()?.epoch,
                digest: try served.owner.stateDigest()
            )
        }
    }

    func status() async throws -> Status {
        let now = membership.clock.instant
        var copies: [Status.Copy] = []
        for (store, copy) in self.copies.snapshot.sorted(by: { $0.key < $1.key }) {
            var entry = Status.Copy(store: store, role: copy.role.rawValue, epoch: copy.epoch, ready: copy.ready)
            if let name = try? StoreName(store) {
                _ = try? await node.pool.withStore(name) { served in
                    let head = try served.owner.eventLog().head.seq
                    entry.head = head
                    entry.heldEpoch = try? served.owner.fleetEpoch()?.epoch
                    if copy.role == .primary {
                        let acknowledged = served.followers.progress.acknowledged
                        entry.unconfirmed = head > acknowledged ? head - acknowledged : 0
                    }
                }
            }
            copies.append(entry)
        }
        return Status(
            node: fleet.nodeID,
            controller: controller.currentClaim != nil,
            holdsLease: membership.holdsLease(at: now),
            leaseSecondsLeft: membership.deadline.map { Double(now.duration(to: $0) / .milliseconds(1)) / 1_000 },
            nodes: directory.nodes.values.sorted { $0.id < $1.id }.map {
                Status.Node(id: $0.id, address: $0.record.address, zone: $0.record.zone)
            },
            copies: copies,
            promotions: self.copies.promotions.load(ordering: .relaxed),
            placementChanges: controller.decisionsApplied.load(ordering: .relaxed)
        )
    }
}
