/// One condition of a transaction, on one key.
///
/// A key that does not exist has version, create and mod revisions 0, so
/// `EtcdCompare(key, .createRevision, .equal, 0)` means "absent".
///
/// ```swift
/// EtcdCompare("/anchorage/stores/alice", .modRevision, .equal, 41)   // unchanged since read
/// ```
public struct EtcdCompare: Sendable, Hashable {
    public enum Target: Sendable, Hashable {
        case version(Int64)
        case createRevision(Int64)
        case modRevision(Int64)
        case value([UInt8])
        case lease(Int64)
    }

    public enum Result: String, Sendable, Hashable {
        case equal = "EQUAL"
        case notEqual = "NOT_EQUAL"
        case greater = "GREATER"
        case less = "LESS"
    }

    public var key: String
    public var result: Result
    public var target: Target

    public init(_ key: String, _ result: Result, _ target: Target) {
        self.key = key
        self.result = result
        self.target = target
    }

    var body: GatewayBody {
        var fields: [String: GatewayBody] = ["key": .key(key), "result": .string(result.rawValue)]
        switch target {
        case .version(let version):
            fields["target"] = .string("VERSION")
            fields["version"] = .int(version)
        case .createRevision(let revision):
            fields["target"] = .string("CREATE")
            fields["create_revision"] = .int(revision)
        case .modRevision(let revision):
            fields["target"] = .string("MOD")
            fields["mod_revision"] = .int(revision)
        case .value(let value):
            fields["target"] = .string("VALUE")
            fields["value"] = .bytes(value)
        case .lease(let lease):
            fields["target"] = .string("LEASE")
            fields["lease"] = .int(lease)
        }
        return .object(fields)
    }
}

/// One operation of a transaction's branch.
public enum EtcdOperation: Sendable, Hashable {
    case range(EtcdKeys, limit: Int = 0)
    case put(String, value: [UInt8], lease: Int64 = 0)
    case delete(EtcdKeys)

    var body: GatewayBody {
        switch self {
        case .range(let keys, let limit):
            let fields = EtcdClient.rangeFields(
                keys.fields,
                limit: limit,
                revision: 0,
                keysOnly: false,
                countOnly: false,
                serializable: false
            )
            return .object(["request_range": .object(fields)])
        case .put(let key, let value, let lease):
            return .object(["request_put": .object(EtcdClient.putFields(key, value: value, lease: lease))])
        case .delete(let keys):
            return .object(["request_delete_range": .object(keys.fields)])
        }
    }
}

/// What one operation of the branch that ran answered.
public enum EtcdOperationResult: Sendable, Hashable {
    case range(EtcdRangeResult)
    case put
    case delete(deleted: Int64)
}

/// A transaction: if every comparison holds, the success operations run,
/// otherwise the failure ones, atomically, in one revision.
///
/// ```swift
/// // Create a placement only if there is none; otherwise read the one there is.
/// let created = try await etcd.txn(EtcdTxn(
///     compare: [EtcdCompare(key, .equal, .createRevision(0))],
///     success: [.put(key, value: record)],
///     failure: [.range(.key(key))]
/// ))
/// ```
public struct EtcdTxn: Sendable, Hashable {
    public var compare: [EtcdCompare]
    public var success: [EtcdOperation]
    public var failure: [EtcdOperation]

    public init(compare: [EtcdCompare], success: [EtcdOperation], failure: [EtcdOperation] = []) {
        self.compare = compare
        self.success = success
        self.failure = failure
    }
}

/// What a transaction did.
public struct EtcdTxnResult: Sendable, Hashable {
    public var header: EtcdHeader
    /// Whether the comparisons held (the success branch ran).
    public var succeeded: Bool
    /// The answers of the branch that ran, in order.
    public var responses: [EtcdOperationResult]

    /// The key-values the branch's first range read found (none if it
    /// had no range).
    public var firstRange: [EtcdKeyValue] {
        for response in responses { if case .range(let result) = response { return result.kvs } }
        return []
    }
}

extension EtcdTxnResult: Decodable {
    enum Keys: String, CodingKey { case succeeded, responses }

    struct Response: Decodable {
        var range: EtcdRangeResult?
        var put: GatewayHeader?
        var delete: DeleteAnswer?

        enum Keys: String, CodingKey {
            case range = "response_range"
            case put = "response_put"
            case delete = "response_delete_range"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            range = try container.decodeIfPresent(EtcdRangeResult.self, forKey: .range)
            put = try container.decodeIfPresent(GatewayHeader.self, forKey: .put)
            delete = try container.decodeIfPresent(DeleteAnswer.self, forKey: .delete)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        header = try GatewayHeader(from: decoder).header
        succeeded = try container.decodeIfPresent(Bool.self, forKey: .succeeded) ?? false
        responses = try (container.decodeIfPresent([Response].self, forKey: .responses) ?? []).map { response in
            if let range = response.range { return .range(range) }
            if let delete = response.delete { return .delete(deleted: delete.deleted) }
            if response.put != nil { return .put }
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "an unknown response")
            )
        }
    }
}

extension EtcdClient {
    /// Runs a transaction.
    ///
    /// - Throws: ``EtcdError``. `noAnswer` means it may have run: read the
    ///   keys it compares and decide; never send it again blindly.
    public func txn(_ txn: EtcdTxn) async throws -> EtcdTxnResult {
        // A transaction that only reads may go to another member.
        let readsOnly = (txn.success + txn.failure).allSatisfy { if case .range = $0 { true } else { false } }
        return try await call(
            "/v3/kv/txn",
            .object([
                "compare": .array(txn.compare.map(\.body)),
                "success": .array(txn.success.map(\.body)),
                "failure": .array(txn.failure.map(\.body)),
            ]),
            repeat: readsOnly ? .safe : .never
        )
    }
}
