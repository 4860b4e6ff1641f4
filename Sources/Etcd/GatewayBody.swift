import Foundation

/// A JSON request body for etcd's gateway, built from its parts: strings
/// (bytes go as base64, 64-bit integers as decimal strings), Booleans,
/// arrays and objects.
enum GatewayBody: Encodable, Sendable {
    case string(String)
    case bool(Bool)
    case array([GatewayBody])
    case object([String: GatewayBody])

    static func bytes(_ bytes: [UInt8]) -> GatewayBody { .string(GatewayJSON.text(bytes)) }
    static func key(_ key: String) -> GatewayBody { .bytes(Array(key.utf8)) }
    static func int(_ value: Int64) -> GatewayBody { .string(String(value)) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .bool(let flag): try container.encode(flag)
        case .array(let items): try container.encode(items)
        case .object(let members): try container.encode(members)
        }
    }

    /// The encoded bytes.
    var data: Data {
        // Encoding strings, Booleans, arrays and objects cannot fail.
        (try? JSONEncoder().encode(self)) ?? Data("{}".utf8)
    }
}
