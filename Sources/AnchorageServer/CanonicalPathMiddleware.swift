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
    /// `..` segment.
    static func isCanonical(_ path: String) -> Bool {
        guard path != "/" else { return true }
        guard path.utf8.first == UInt8(ascii: "/") else { return false }
        for segment in path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            if segment.isEmpty || segment.elementsEqual(".".utf8) || segment.elementsEqual("..".utf8) {
                return false
            }
        }
        return true
    }
}
