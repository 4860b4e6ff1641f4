import Foundation

/// Where a store lives: its primary (the copy that takes writes), its
/// replicas, and the epoch, which every change of primary raises.
///
/// ```swift
/// let placement = Placement(primary: "n1", replicas: ["n2", "n3"], epoch: 1)
/// placement.copies    // ["n1", "n2", "n3"]
/// ```
public struct Placement: Codable, Sendable, Hashable {
    public var primary: String
    public var replicas: [String]
    public var epoch: Int64

    public init(primary: String, replicas: [String], epoch: Int64) {
        self.primary = primary
        self.replicas = replicas
        self.epoch = epoch
    }

    /// Every node holding a copy, the primary first.
    public var copies: [String] { [primary] + replicas }

    /// The role of `node`, or `nil` when it holds no copy.
    public func role(of node: String) -> Role? {
        node == primary ? .primary : replicas.contains(node) ? .replica : nil
    }

    public enum Role: String, Codable, Sendable, Hashable {
        case primary
        case replica
    }

    var bytes: [UInt8] { Array((try? FleetJSON.encoder.encode(self)) ?? Data()) }

    init(bytes: [UInt8], key: String) throws(FleetError) {
        guard let placement = try? JSONDecoder().decode(Placement.self, from: Data(bytes)) else {
            throw FleetError(.malformedRecord, "\(key) does not hold a placement")
        }
        self = placement
    }

    /// Refuses a placement naming no primary, a node twice, or an unusable id.
    func check() throws(FleetError) {
        for node in copies { try FleetKeys.check(node, "the node id") }
        guard Set(copies).count == copies.count else {
            throw FleetError(.invalidArgument, "a placement names a node twice: \(copies)")
        }
        guard epoch >= 1 else { throw FleetError(.invalidArgument, "a placement's epoch starts at 1") }
    }
}

/// A store's placement as etcd holds it, with the revision a
/// compare-and-swap compares.
public struct PlacementRecord: Sendable, Hashable {
    public var store: String
    public var placement: Placement
    public var modRevision: Int64
}
