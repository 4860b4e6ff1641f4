import Foundation

/// Where a store lives: its primary (the copy that takes writes), its
/// replicas, and the epoch, which every change of primary raises; while a
/// copy is being added, the node adding it (``joining``), and the copies
/// that go once it has caught up (``retiring``).
///
/// ```swift
/// let placement = Placement(primary: "n1", replicas: ["n2", "n3"], epoch: 1)
/// placement.copies    // ["n1", "n2", "n3"]
/// ```
public struct Placement: Codable, Sendable, Hashable {
    public var primary: String
    public var replicas: [String]
    public var epoch: Int64
    /// Nodes adding a copy: they follow the primary like replicas, but
    /// count as copies (for promotion, for acknowledgements that matter)
    /// only once they have caught up and the controller moved them to
    /// ``replicas``: add, sync, then count.
    public var joining: [String]
    /// Copies that go once a joining copy is counted (a move, or a node
    /// handing its stores over); a retiring primary hands over first.
    public var retiring: [String]
    /// The id (32 hex digits) of the data key every copy of a sealed
    /// store seals under; `nil` for a store that does not seal. The
    /// placement names the key, never holds it: each node unwraps it with
    /// the fleet's wrapping key (``FleetKeys/dataKey(_:)``).
    public var keyID: String?

    public init(
        primary: String,
        replicas: [String],
        epoch: Int64,
        joining: [String] = [],
        retiring: [String] = [],
        keyID: String? = nil
    ) {
        self.primary = primary
        self.replicas = replicas
        self.epoch = epoch
        self.joining = joining
        self.retiring = retiring
        self.keyID = keyID
    }

    enum CodingKeys: String, CodingKey {
        case primary, replicas, epoch, joining, retiring, keyID
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        primary = try container.decode(String.self, forKey: .primary)
        replicas = try container.decode([String].self, forKey: .replicas)
        epoch = try container.decode(Int64.self, forKey: .epoch)
        joining = try container.decodeIfPresent([String].self, forKey: .joining) ?? []
        retiring = try container.decodeIfPresent([String].self, forKey: .retiring) ?? []
        keyID = try container.decodeIfPresent(String.self, forKey: .keyID)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(primary, forKey: .primary)
        try container.encode(replicas, forKey: .replicas)
        try container.encode(epoch, forKey: .epoch)
        if !joining.isEmpty { try container.encode(joining, forKey: .joining) }
        if !retiring.isEmpty { try container.encode(retiring, forKey: .retiring) }
        try container.encodeIfPresent(keyID, forKey: .keyID)
    }

    /// Every node holding a counted copy, the primary first.
    public var copies: [String] { [primary] + replicas }

    /// Every node holding a copy, counted or joining.
    public var holders: [String] { copies + joining }

    /// The role of `node`, or `nil` when it holds no copy.
    public func role(of node: String) -> Role? {
        node == primary ? .primary : replicas.contains(node) ? .replica : joining.contains(node) ? .joining : nil
    }

    public enum Role: String, Codable, Sendable, Hashable {
        case primary
        case replica
        /// A copy being added: it follows the primary, not yet counted.
        case joining
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
        for node in holders { try FleetKeys.check(node, "the node id") }
        guard Set(holders).count == holders.count else {
            throw FleetError(.invalidArgument, "a placement names a node twice: \(holders)")
        }
        guard Set(retiring).isSubset(of: copies) else {
            throw FleetError(.invalidArgument, "a placement retires a node that holds no counted copy: \(retiring)")
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
