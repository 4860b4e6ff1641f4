import HTTPTypes
import Hummingbird

/// Sets the largest body each request may send, by route, for the routes
/// that collect one (``NodeContext/maximumBodyBytes``), and refuses a
/// request whose `Content-Length` declares more at once, before reading
/// any of its body: `413 bodyTooLarge`, and the connection closes.
struct RequestBodyLimitMiddleware: RouterMiddleware {
    typealias Context = NodeContext

    let configuration: NodeConfiguration

    func handle(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    )
        async throws -> Response
    {
        let limit = configuration.maximumBodyBytes(forPath: request.uri.path)
        if let declared = request.headers[.contentLength], (UInt64(declared) ?? .max) > UInt64(limit) {
            throw APIError(
                .contentTooLarge,
                .bodyTooLarge,
                "the request body declares \(declared.prefix(20)) bytes; this endpoint takes at most \(limit)"
            ).closingConnection()
        }
        var context = context
        context.maximumBodyBytes = limit
        return try await next(request, context)
    }
}
