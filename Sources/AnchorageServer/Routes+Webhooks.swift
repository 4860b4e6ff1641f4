import Anchorage
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `POST`, `GET /v1/webhooks` and `DELETE /v1/webhooks/{id}`: background
/// delivery over HTTP (docs/http-api.md, "Webhooks").
struct WebhookRoutes: Sendable {
    let configuration: NodeConfiguration

    /// The deliverer of the request's store.
    func deliverer(for context: NodeContext) throws -> WebhookDeliverer {
        guard let deliverer = context.webhooks else {
            throw APIError(
                .forbidden,
                .authorizationDenied,
                "webhooks are off on this node; its operator turns them on with --webhook-host"
            )
        }
        return deliverer
    }

    /// What `POST /v1/webhooks` takes.
    struct Registration: Decodable {
        var url: String
        var types: [String]?
        var frequency: String?
        var since: String?
    }

    func register(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        let deliverer = try self.deliverer(for: context)
        let hosts = WebhookHosts(entries: configuration.webhookHosts)
        guard hosts.isEnabled else {
            throw APIError(
                .forbidden,
                .authorizationDenied,
                "webhooks are off on this node; its operator turns them on with --webhook-host"
            )
        }
        let body = try await JSONBodies.collect(request, context: context, holding: "the registration")
        let registration: Registration
        do {
            registration = try JSONDecoder().decode(Registration.self, from: body)
        } catch let error as DecodingError {
            throw APIError(.badRequest, .invalidJSON, DecodingErrorWords.describe(error))
        }
        if let problem = hosts.problem(with: registration.url) {
            throw APIError(.badRequest, .invalidArgument, "url: \(problem)")
        }
        var types: [String]?
        if let names = registration.types {
            guard !names.isEmpty, names.count <= 200 else {
                throw APIError.badRequest("types: name 1 to 200 types, or leave it out for every type")
            }
            types = try names.map { name in
                do throws(TextFormError) {
                    return try TextForms.sampleType(name).identifier
                } catch {
                    throw APIError(.badRequest, .unknownType, "types: \(error.description)")
                }
            }
        }
        let frequency = try Self.frequency(registration.frequency)
        let anchor: HKQueryAnchor
        do {
            if let since = registration.since {
                anchor = try HKQueryAnchor(string: since)
                _ = try store.position(of: anchor)
            } else {
                anchor = try store.currentAnchor()
            }
        } catch let error as HKError {
            throw APIError(.badRequest, .anchorNotValid, "since: \(error.message)")
        }
        let principal = context.grants?.principal?.bundleIdentifier
        let existing = try deliverer.webhooks.all().filter { $0.principal == principal }
        guard existing.count < configuration.maximumWebhooksPerPrincipal else {
            throw APIError(
                .conflict,
                .invalidArgument,
                "there are \(existing.count) webhooks already, the most one app may have; delete one first"
            )
        }
        let webhook = Webhook.new(
            principal: principal,
            url: registration.url,
            types: types,
            frequency: frequency,
            anchor: anchor.stringValue,
            now: Date()
        )
        try await deliverer.webhooks.save(webhook)
        deliverer.start(webhook)
        return try Self.json(.created, Self.describe(webhook, status: nil, withSecret: true))
    }

    func list(_ request: Request, context: NodeContext) async throws -> Response {
        _ = try context.requireStore()
        let deliverer = try self.deliverer(for: context)
        let principal = context.grants?.principal?.bundleIdentifier
        let mine = try deliverer.webhooks.all().filter { $0.principal == principal }
            .sorted { $0.created < $1.created }
        let described = mine.map { Self.describe($0, status: deliverer.status(of: $0.id), withSecret: false) }
        return try Self.json(.ok, ["webhooks": described])
    }

    func delete(_ request: Request, context: NodeContext) async throws -> Response {
        _ = try context.requireStore()
        let deliverer = try self.deliverer(for: context)
        let id = try context.parameters.require("id")
        let principal = context.grants?.principal?.bundleIdentifier
        guard try deliverer.webhooks.all().contains(where: { $0.id == id && $0.principal == principal }) else {
            throw APIError(.notFound, .notFound, "there is no webhook '\(id.prefix(40))' of yours")
        }
        await deliverer.stop(id)
        try await deliverer.webhooks.delete(id)
        return Response(status: .noContent)
    }

    static func frequency(_ text: String?) throws -> HKUpdateFrequency {
        switch text ?? "immediate" {
        case "immediate": .immediate
        case "hourly": .hourly
        case "daily": .daily
        case "weekly": .weekly
        default: throw APIError.badRequest("frequency is immediate, hourly, daily or weekly")
        }
    }

    /// A webhook as the API shows it; the secret only when it is created.
    static func describe(_ webhook: Webhook, status: WebhookDeliverer.Status?, withSecret: Bool) -> [String: Any] {
        var fields: [String: Any] = [
            "id": webhook.id,
            "url": webhook.url,
            "frequency": "\(webhook.frequency)",
            "anchor": webhook.anchor ?? NSNull(),
            "types": webhook.types ?? NSNull(),
        ]
        if withSecret { fields["secret"] = webhook.secret }
        if let status {
            fields["failures"] = status.failures
            fields["lastError"] = status.lastError ?? NSNull()
            fields["lastDelivery"] = status.lastDelivery.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull()
            fields["nextAttempt"] = status.nextAttempt.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull()
        }
        return fields
    }

    static func json(_ status: HTTPResponse.Status, _ object: Any) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return JSONBodies.response(ByteBuffer(bytes: data), status: status)
    }
}
