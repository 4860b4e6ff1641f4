import Hummingbird

/// Answers `404 notFound` for a path spelled otherwise than the routes
/// are: with an empty segment (`//healthz`), a trailing slash
/// (`/healthz/`) or a dot segment (`/v1/./samples`).
///
/// The router would match such a spelling to a route, while the rules that
/// look at the path itself — only `GET /healthz` is answered without a
/// token, a peer's token reaches only `/v1/sync/…`, the access log, the
/// metrics' route labels — would see another path than the route that
/// answers. One spelling per route keeps them the same.
///
/// ```swift
/// router.add(middleware: CanonicalPathMiddleware())
/// ```
struct CanonicalPathMiddleware: RouterMiddleware {
    typealias Context = NodeContext

    func handle(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        guard Self.isCanonical(request.uri.path) else {
            throw APIError(
                .notFound,
                .notFound,
                "no such path: a path is matched as docs/http-api.md spells it, without an empty segment, "
                    + "a trailing slash or a dot segment"
            )
        }
        return try await next(request, context)
    }

    /// Whether `path` is `/`, or starts with `/` and has no empty, `.` or
    /// `..` segment. One pass over the bytes, nothing allocated: it runs on
    /// every request.
    static func isCanonical(_ path: String) -> Bool {
        guard path != "/" else { return true }
        var utf8 = path.utf8.makeIterator()
        guard utf8.next() == UInt8(ascii: "/") else { return false }
        // The current segment's length, and whether it is all dots so far.
        var length = 0
        var dots = true
        func ends() -> Bool { length > 0 && !(dots && length <= 2) }
        while let byte = utf8.next() {
            if byte == UInt8(ascii: "/") {
                guard ends() else { return false }
                length = 0
                dots = true
            } else {
                length += 1
                dots = dots && byte == UInt8(ascii: ".")
            }
        }
        return ends()
    }
}
