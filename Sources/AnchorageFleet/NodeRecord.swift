import Foundation

/// What a live node says of itself under `nodes/<id>`: where it answers,
/// its zone (placement keeps a store's copies in distinct zones when zones
/// are given) and how many store copies it takes.
public struct NodeRecord: Codable, Sendable, Hashable {
    /// The node's base URL, such as `http://10.0.0.5:8080`.
    public var address: String
    public var zone: String?
    /// The number of store copies it takes, relative to the others (1 or more).
    public var capacity: Int
    /// The node is stopping: the controller hands the stores it leads to
    /// other copies (``ControllerPlan``, handoff).
    public var draining: Bool?

    public init(address: String, zone: String? = nil, capacity: Int = 1, draining: Bool? = nil) {
        self.address = address
        self.zone = zone
        self.capacity = max(1, capacity)
        self.draining = draining
    }

    public var bytes: [UInt8] { Array((try? FleetJSON.encoder.encode(self)) ?? Data()) }

    init(bytes: [UInt8], key: String) throws(FleetError) {
        guard let record = try? JSONDecoder().decode(NodeRecord.self, from: Data(bytes)) else {
            throw FleetError(.malformedRecord, "\(key) does not hold a node record")
        }
        self = record
    }
}

/// A live node: its id and record.
public struct FleetNode: Sendable, Hashable {
    public var id: String
    public var record: NodeRecord
    /// The lease its key is attached to.
    public var lease: Int64
}

enum FleetJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
