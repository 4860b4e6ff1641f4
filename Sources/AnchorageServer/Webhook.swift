import Anchorage
import AnchorageLog
import Crypto
import Foundation

/// A registration for background delivery over HTTP: the node posts the
/// changes its principal may read to `url`, from its own anchor, until the
/// receiver answers 2xx (docs/http-api.md, "Webhooks").
///
/// Kept as JSON in the log's node-local cursors (`webhook/<id>`): it
/// survives restarts, is never replicated, and its `anchor` moves only after
/// a delivery was acknowledged, so a receiver that is down gets everything
/// once it is back.
struct Webhook: Codable, Sendable, Hashable {
    var id: String
    /// The app that registered it; `nil` for the owner.
    var principal: String?
    var url: String
    /// The type identifiers delivered; `nil` for every type.
    var types: [String]?
    var frequency: HKUpdateFrequency
    /// The key of the HMAC-SHA256 signature of each delivery's body.
    var secret: String
    /// Delivered and acknowledged through this anchor; `nil` for the start.
    var anchor: String?
    var created: Date

    static let prefix = "webhook/"
    var cursorName: String { Self.prefix + id }

    /// A new webhook with a random id and secret.
    static func new(
        principal: String?,
        url: String,
        types: [String]?,
        frequency: HKUpdateFrequency,
        anchor: String?,
        now: Date
    ) -> Webhook {
        Webhook(
            id: randomToken(bytes: 12),
            principal: principal,
            url: url,
            types: types,
            frequency: frequency,
            secret: randomToken(bytes: 32),
            anchor: anchor,
            created: now
        )
    }

    /// URL-safe base64 of `bytes` random bytes.
    static func randomToken(bytes: Int) -> String {
        let random = (0..<bytes).map { _ in UInt8.random(in: .min ... .max) }
        return Data(random).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// `sha256=<hex>` of the HMAC-SHA256 of `body` under the secret.
    func signature(of body: [UInt8]) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }

    /// The sample types delivered.
    var sampleTypes: [HKSampleType] {
        guard let types else { return HKObjectType.allSampleTypes }
        return types.compactMap { HKObjectType.type(forIdentifier: $0) as? HKSampleType }
    }
}

/// Reads and writes webhooks in the log's cursors.
struct WebhookStore: Sendable {
    let log: EventLog

    func all() throws -> [Webhook] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try log.cursors(withPrefix: Webhook.prefix).compactMap { _, value in
            try? decoder.decode(Webhook.self, from: Data(value))
        }
    }

    func save(_ webhook: Webhook) async throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .secondsSince1970
        try await log.setCursors([(webhook.cursorName, Array(try encoder.encode(webhook)))])
    }

    func delete(_ id: String) async throws {
        try await log.setCursors([(Webhook.prefix + id, nil)])
    }
}

/// Which hosts webhooks may post to: an allow-list, since a webhook makes
/// the node send requests where its registrant says (a door into the
/// node's network otherwise).
struct WebhookHosts: Sendable, Hashable {
    /// `host` or `host:port` entries; `*` allows every host.
    let entries: [String]

    var isEnabled: Bool { !entries.isEmpty }

    /// Checks a webhook URL: http or https, a host on the list, no user
    /// or password, at most 2,048 bytes. Returns why not, or `nil`.
    func problem(with text: String) -> String? {
        guard text.utf8.count <= 2_048 else { return "the url has more than 2048 bytes" }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty
        else {
            return "'\(text.prefix(80))' is not an http or https url"
        }
        guard components.user == nil && components.password == nil else {
            return "the url may not carry a user or password; the node signs each delivery instead"
        }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        let allowed = entries.contains { entry in
            let entry = entry.lowercased()
            return entry == "*" || entry == host || entry == "\(host):\(port)"
        }
        return allowed
            ? nil : "this node posts webhooks only to \(entries.joined(separator: ", ")); \(host):\(port) is not one"
    }
}
