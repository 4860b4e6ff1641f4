import Foundation

/// A key and its value as etcd holds it, with its revisions.
public struct EtcdKeyValue: Sendable, Hashable {
    public var key: [UInt8]
    public var value: [UInt8]
    /// The revision of the key's creation (its last, if it was deleted and
    /// created again): a fencing token for whoever created it.
    public var createRevision: Int64
    /// The revision of the last change.
    public var modRevision: Int64
    /// How many times the key was changed since its creation (1 at first).
    public var version: Int64
    /// The lease the key is attached to (0 for none).
    public var lease: Int64

    public init(
        key: [UInt8],
        value: [UInt8] = [],
        createRevision: Int64 = 0,
        modRevision: Int64 = 0,
        version: Int64 = 0,
        lease: Int64 = 0
    ) {
        self.key = key
        self.value = value
        self.createRevision = createRevision
        self.modRevision = modRevision
        self.version = version
        self.lease = lease
    }

    /// The key as text (keys are UTF-8 in practice; invalid bytes are replaced).
    public var keyText: String { String(decoding: key, as: UTF8.self) }
}

/// What every etcd answer carries: the store's revision when it answered.
public struct EtcdHeader: Sendable, Hashable {
    public var clusterID: UInt64
    public var memberID: UInt64
    public var revision: Int64
    public var raftTerm: UInt64
}

// MARK: The gateway's JSON

/// The JSON gateway's forms: bytes in base64, 64-bit integers as strings,
/// fields at their zero value left out.
enum GatewayJSON {
    static func bytes(_ text: String?) -> [UInt8] {
        text.flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? []
    }

    static func text(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }
}

/// A 64-bit integer the gateway writes as a string (or a number); 0 when absent.
struct GatewayInt64: Decodable, Sendable {
    var value: Int64

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self), let value = Int64(text) {
            self.value = value
        } else if let text = try? container.decode(String.self), let value = UInt64(text) {
            self.value = Int64(bitPattern: value)  // ids (cluster, member) use all 64 bits
        } else if let value = try? container.decode(Int64.self) {
            self.value = value
        } else if let value = try? container.decode(UInt64.self) {
            self.value = Int64(bitPattern: value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a 64-bit integer")
        }
    }
}

extension KeyedDecodingContainer {
    func int64(_ key: Key) throws -> Int64 {
        try decodeIfPresent(GatewayInt64.self, forKey: key)?.value ?? 0
    }
}

struct GatewayHeader: Decodable {
    var header: EtcdHeader

    init(from decoder: any Decoder) throws {
        header =
            try decoder.container(keyedBy: Keys.self).decodeIfPresent(EtcdHeader.self, forKey: .header)
            ?? EtcdHeader(clusterID: 0, memberID: 0, revision: 0, raftTerm: 0)
    }

    enum Keys: String, CodingKey { case header }
}

extension EtcdHeader: Decodable {
    enum Keys: String, CodingKey {
        case clusterID = "cluster_id"
        case memberID = "member_id"
        case revision
        case raftTerm = "raft_term"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        clusterID = UInt64(bitPattern: try container.int64(.clusterID))
        memberID = UInt64(bitPattern: try container.int64(.memberID))
        revision = try container.int64(.revision)
        raftTerm = UInt64(bitPattern: try container.int64(.raftTerm))
    }
}

extension EtcdKeyValue: Decodable {
    enum Keys: String, CodingKey {
        case key, value, version, lease
        case createRevision = "create_revision"
        case modRevision = "mod_revision"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        key = GatewayJSON.bytes(try container.decodeIfPresent(String.self, forKey: .key))
        value = GatewayJSON.bytes(try container.decodeIfPresent(String.self, forKey: .value))
        createRevision = try container.int64(.createRevision)
        modRevision = try container.int64(.modRevision)
        version = try container.int64(.version)
        lease = try container.int64(.lease)
    }
}
