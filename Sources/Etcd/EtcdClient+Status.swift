/// A member's view of the cluster.
public struct EtcdStatus: Sendable, Hashable {
    public var header: EtcdHeader
    /// The member's etcd version, such as "3.4.23".
    public var version: String
    /// The size of its database file, in bytes.
    public var dbSize: Int64
    /// The member id of the leader it knows (0: none).
    public var leader: UInt64
    public var raftIndex: UInt64
    public var raftTerm: UInt64
}

extension EtcdStatus: Decodable {
    enum Keys: String, CodingKey { case version, dbSize, leader, raftIndex, raftTerm }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        header = try GatewayHeader(from: decoder).header
        version = try container.decodeIfPresent(String.self, forKey: .version) ?? ""
        dbSize = try container.int64(.dbSize)
        leader = UInt64(bitPattern: try container.int64(.leader))
        raftIndex = UInt64(bitPattern: try container.int64(.raftIndex))
        raftTerm = UInt64(bitPattern: try container.int64(.raftTerm))
    }
}

extension EtcdClient {
    /// The status of the member that answers first (in endpoint order,
    /// starting with the last that answered).
    public func status() async throws -> EtcdStatus {
        try await call("/v3/maintenance/status", .object([:]), repeat: .safe)
    }
}
