/// Which keys a request names: one key, every key under a prefix, or a
/// half-open range.
///
/// ```swift
/// try await etcd.range(.prefix("/anchorage/stores/"), limit: 1_000)
/// ```
public enum EtcdKeys: Sendable, Hashable {
    case key(String)
    case prefix(String)
    /// From `start` up to, not including, `end`.
    case range(start: String, end: String)
    /// `start` and every key after it.
    case from(String)

    /// The request fields `key` and `range_end`.
    var fields: [String: GatewayBody] {
        switch self {
        case .key(let key): return ["key": .key(key)]
        case .prefix(let prefix):
            return ["key": .key(prefix), "range_end": .bytes(Self.end(ofPrefix: Array(prefix.utf8)))]
        case .range(let start, let end): return ["key": .key(start), "range_end": .key(end)]
        case .from(let start): return ["key": .key(start), "range_end": .bytes([0])]
        }
    }

    /// The first key after every key that starts with `prefix` (etcd's
    /// rule: the prefix with its last byte below 0xff incremented; all keys
    /// for an empty prefix or one of 0xff bytes only).
    static func end(ofPrefix prefix: [UInt8]) -> [UInt8] {
        var end = prefix
        while let last = end.last {
            if last < 0xff {
                end[end.count - 1] = last + 1
                return end
            }
            end.removeLast()
        }
        return [0]
    }

    /// The same keys, starting after `key` (for the next page).
    func after(_ key: [UInt8]) -> [String: GatewayBody] {
        var fields = self.fields
        fields["key"] = .bytes(key + [0])
        return fields
    }
}

/// What a range read found.
public struct EtcdRangeResult: Sendable, Hashable {
    public var header: EtcdHeader
    /// The keys found, in key order (without values when asked for keys only).
    public var kvs: [EtcdKeyValue]
    /// Whether more keys matched than `limit` let through.
    public var more: Bool
    /// How many keys matched in all.
    public var count: Int64
}

extension EtcdRangeResult: Decodable {
    enum Keys: String, CodingKey { case header, kvs, more, count }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        header = try GatewayHeader(from: decoder).header
        kvs = try container.decodeIfPresent([EtcdKeyValue].self, forKey: .kvs) ?? []
        more = try container.decodeIfPresent(Bool.self, forKey: .more) ?? false
        count = try container.int64(.count)
    }
}

extension EtcdClient {
    /// Reads keys.
    ///
    /// - Parameters:
    ///   - limit: at most this many keys (0: all).
    ///   - revision: as of this revision (0: the latest); a compacted one is
    ///     refused (``EtcdError/isCompacted``).
    ///   - keysOnly: without their values.
    ///   - countOnly: only how many there are.
    ///   - serializable: from the member asked, without the leader (may be
    ///     stale; answered even when the cluster has lost its majority).
    public func range(
        _ keys: EtcdKeys,
        limit: Int = 0,
        revision: Int64 = 0,
        keysOnly: Bool = false,
        countOnly: Bool = false,
        serializable: Bool = false
    ) async throws -> EtcdRangeResult {
        try await call(
            "/v3/kv/range",
            .object(
                Self.rangeFields(
                    keys.fields,
                    limit: limit,
                    revision: revision,
                    keysOnly: keysOnly,
                    countOnly: countOnly,
                    serializable: serializable
                )
            ),
            repeat: .safe
        )
    }

    /// Reads every key of `keys` in pages of `pageSize`, all at one
    /// revision (the first page's), so the result is one consistent view.
    ///
    /// ```swift
    /// let (stores, revision) = try await etcd.rangeAll(.prefix("/anchorage/stores/"))
    /// // then watch from revision + 1
    /// ```
    public func rangeAll(
        _ keys: EtcdKeys,
        pageSize: Int = 1_000,
        keysOnly: Bool = false
    ) async throws -> (kvs: [EtcdKeyValue], revision: Int64) {
        var page = try await range(keys, limit: pageSize, keysOnly: keysOnly)
        let revision = page.header.revision
        var all = page.kvs
        while page.more, let last = page.kvs.last {
            page = try await call(
                "/v3/kv/range",
                .object(
                    Self.rangeFields(
                        keys.after(last.key),
                        limit: pageSize,
                        revision: revision,
                        keysOnly: keysOnly,
                        countOnly: false,
                        serializable: false
                    )
                ),
                repeat: .safe
            )
            all += page.kvs
        }
        return (all, revision)
    }

    static func rangeFields(
        _ keys: [String: GatewayBody],
        limit: Int,
        revision: Int64,
        keysOnly: Bool,
        countOnly: Bool,
        serializable: Bool
    ) -> [String: GatewayBody] {
        var fields = keys
        if limit > 0 { fields["limit"] = .int(Int64(limit)) }
        if revision > 0 { fields["revision"] = .int(revision) }
        if keysOnly { fields["keys_only"] = .bool(true) }
        if countOnly { fields["count_only"] = .bool(true) }
        if serializable { fields["serializable"] = .bool(true) }
        return fields
    }

    /// Writes `value` under `key`, attached to `lease` (0: none). Returns
    /// the header of the revision that holds it.
    ///
    /// - Throws: ``EtcdError``; `noAnswer` means it may or may not be
    ///   written: read the key to know.
    @discardableResult
    public func put(_ key: String, value: [UInt8], lease: Int64 = 0) async throws -> EtcdHeader {
        let fields = Self.putFields(key, value: value, lease: lease)
        return try await call("/v3/kv/put", .object(fields), repeat: .never, as: GatewayHeader.self).header
    }

    static func putFields(_ key: String, value: [UInt8], lease: Int64) -> [String: GatewayBody] {
        var fields: [String: GatewayBody] = ["key": .key(key), "value": .bytes(value)]
        if lease != 0 { fields["lease"] = .int(lease) }
        return fields
    }

    /// Deletes the keys; returns how many there were.
    @discardableResult
    public func delete(_ keys: EtcdKeys) async throws -> (header: EtcdHeader, deleted: Int64) {
        let answer = try await call("/v3/kv/deleterange", .object(keys.fields), repeat: .never, as: DeleteAnswer.self)
        return (answer.header, answer.deleted)
    }

    /// Discards the history before `revision` (watches and reads at older
    /// revisions are then refused as compacted).
    public func compact(before revision: Int64) async throws {
        _ = try await call(
            "/v3/kv/compaction",
            .object(["revision": .int(revision), "physical": .bool(true)]),
            repeat: .safe,
            as: GatewayHeader.self
        )
    }
}

struct DeleteAnswer: Decodable {
    var header: EtcdHeader
    var deleted: Int64

    enum Keys: String, CodingKey { case deleted }

    init(from decoder: any Decoder) throws {
        header = try GatewayHeader(from: decoder).header
        deleted = try decoder.container(keyedBy: Keys.self).int64(.deleted)
    }
}
