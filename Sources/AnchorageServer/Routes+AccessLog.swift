import Anchorage
import AnchorageService
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/access-log?from=…&to=…&limit=…&after=…`: the store's access
/// log, oldest first, a page at a time. The owner's token only.
struct AccessLogRoute: Sendable {
    func list(_ request: Request, context: NodeContext) async throws -> Response {
        _ = try context.requireStore()
        guard context.grants == nil else {
            throw APIError(.forbidden, .authorizationDenied, "only the owner's token reads the access log")
        }
        guard let accessLog = context.access?.accessLog else {
            throw APIError(.internalServerError, .internalError, "the node keeps no access log")
        }
        let parameters = QueryParameters(request)
        let utc = TimeZone(identifier: "UTC")!
        let from = try parameters.date("from", in: utc)
        let to = try parameters.date("to", in: utc)
        let limit = try parameters.integer("limit", in: 1...AccessLog.maximumPageSize, default: 100)
        // Given empty, it is no cursor a page handed out (a 400, as the
        // document's pattern says), not the first page.
        let after = parameters.given("after")
        let page = try accessLog.page(after: after, from: from, to: to, limit: limit)
        return JSONBodies.response(ByteBuffer(bytes: try AccessLogEntry.page(page.entries, next: page.next)))
    }
}
