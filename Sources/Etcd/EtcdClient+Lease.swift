/// A lease etcd granted: keys attached to it vanish when it expires.
public struct EtcdLease: Sendable, Hashable {
    public var id: Int64
    /// Seconds etcd counts from the grant (and from each keep-alive).
    public var ttl: Int64
}

/// A lease's remaining life, as etcd reports it.
public struct EtcdLeaseTime: Sendable, Hashable {
    public var id: Int64
    /// Seconds left; -1 when the lease has expired or does not exist.
    public var ttl: Int64
    /// The TTL it was granted with.
    public var grantedTTL: Int64
    /// The keys attached to it (when asked for).
    public var keys: [String]
}

extension EtcdClient {
    /// Grants a lease of `ttl` seconds.
    ///
    /// A grant without an answer may have created a lease nobody uses: it
    /// expires after `ttl`, so the client asks another member instead.
    public func grantLease(ttl: Int64) async throws -> EtcdLease {
        struct Answer: Decodable {
            var id: Int64
            var ttl: Int64
            var error: String?

            enum Keys: String, CodingKey {
                case id = "ID"
                case ttl = "TTL"
                case error
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                id = try container.int64(.id)
                ttl = try container.int64(.ttl)
                error = try container.decodeIfPresent(String.self, forKey: .error)
            }
        }
        let answer = try await call("/v3/lease/grant", .object(["TTL": .int(ttl)]), repeat: .safe, as: Answer.self)
        if let error = answer.error, !error.isEmpty { throw EtcdError(.refused, error) }
        guard answer.id != 0 else { throw EtcdError(.refused, "etcd granted no lease") }
        return EtcdLease(id: answer.id, ttl: answer.ttl)
    }

    /// Renews a lease; returns the seconds it now has, 0 when it has
    /// already expired (or was revoked): its keys are gone, and a holder
    /// must stop acting on them.
    ///
    /// Count a lease from the moment a keep-alive was *sent*, never from
    /// etcd's answer: an answer can come late.
    public func keepAlive(_ lease: Int64) async throws -> Int64 {
        struct Answer: Decodable {
            var ttl: Int64

            enum Keys: String, CodingKey { case result }
            enum Result: String, CodingKey { case ttl = "TTL" }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                guard container.contains(.result) else {
                    ttl = 0
                    return
                }
                ttl = try container.nestedContainer(keyedBy: Result.self, forKey: .result).int64(.ttl)
            }
        }
        return try await call("/v3/lease/keepalive", .object(["ID": .int(lease)]), repeat: .safe, as: Answer.self).ttl
    }

    /// Ends a lease at once; its keys are deleted.
    ///
    /// - Throws: ``EtcdError`` `refused` (``EtcdError/isLeaseNotFound``)
    ///   when it had already ended.
    public func revoke(_ lease: Int64) async throws {
        _ = try await call("/v3/lease/revoke", .object(["ID": .int(lease)]), repeat: .never, as: GatewayHeader.self)
    }

    /// A lease's remaining time, and its keys when `keys` is true.
    public func timeToLive(_ lease: Int64, keys: Bool = false) async throws -> EtcdLeaseTime {
        struct Answer: Decodable {
            var time: EtcdLeaseTime

            enum Keys: String, CodingKey {
                case id = "ID"
                case ttl = "TTL"
                case grantedTTL
                case keys
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                let keys = try container.decodeIfPresent([String].self, forKey: .keys) ?? []
                time = EtcdLeaseTime(
                    id: try container.int64(.id),
                    ttl: try container.int64(.ttl),
                    grantedTTL: try container.int64(.grantedTTL),
                    keys: keys.map { String(decoding: GatewayJSON.bytes($0), as: UTF8.self) }
                )
            }
        }
        var fields: [String: GatewayBody] = ["ID": .int(lease)]
        if keys { fields["keys"] = .bool(true) }
        return try await call("/v3/lease/timetolive", .object(fields), repeat: .safe, as: Answer.self).time
    }
}
