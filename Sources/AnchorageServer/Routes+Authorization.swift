import Anchorage
import Foundation
import Hummingbird

/// `GET /v1/authorization`: whom the request's token acts as, and for an
/// app what its token reads and shares — what a client (the web page)
/// asks first, instead of probing routes that would refuse it.
///
/// ```sh
/// curl -s localhost:8080/v1/authorization -H "Authorization: Bearer $TOKEN"
/// # {"principal":"app","app":{"bundleIdentifier":"com.example.dashboard","name":"Dashboard"},
/// #  "read":["HKQuantityTypeIdentifierStepCount"],"share":[]}
/// ```
struct AuthorizationRoute: Sendable {
    /// The answer: `principal` is `owner` or `app`; the rest is an app's.
    struct Answer: Encodable {
        struct App: Encodable {
            var name: String
            var bundleIdentifier: String
        }

        var principal: String
        var app: App?
        var read: [String]?
        var share: [String]?
    }

    func show(_ request: Request, context: NodeContext) async throws -> Response {
        _ = try context.requireStore()
        guard let grants = context.grants, let app = grants.principal else {
            return try JSONBodies.response(encoding: Answer(principal: "owner"))
        }
        return try JSONBodies.response(
            encoding: Answer(
                principal: "app",
                app: .init(name: app.name, bundleIdentifier: app.bundleIdentifier),
                read: grants.read.map(\.identifier).sorted(),
                share: grants.share.map(\.identifier).sorted()
            )
        )
    }
}
