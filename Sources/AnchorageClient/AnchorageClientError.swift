/// Why a request to a node failed: the node's error code (docs/http-api.md,
/// "Errors") to match on, the HTTP status, and the node's message.
///
/// ```swift
/// do {
///     _ = try await client.changes(since: anchor)
/// } catch AnchorageClientError.Code.anchorNotValid {
///     anchor = nil  // the store was restored: start over
/// } catch let error as AnchorageClientError where error.status == 401 {
///     print("check the token: \(error.message)")
/// }
/// ```
public struct AnchorageClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The node's code (`unauthenticated`, `anchorNotValid`…), or
    /// ``Code/unreachable`` and ``Code/invalidResponse`` for failures on the
    /// way.
    public let code: Code
    /// The HTTP status the node answered with; `nil` when it did not answer.
    public let status: Int?
    /// The node's message, or what went wrong on the way to it.
    public let message: String

    public init(_ code: Code, status: Int?, _ message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    public var description: String {
        status.map { "\(code) (\($0)): \(message)" } ?? "\(code): \(message)"
    }

    /// An error code. The node's codes are open-ended: any code it sends is
    /// a `Code`, and the ones below are those clients usually match.
    public struct Code: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The code as the node writes it.
        public let name: String

        public init(_ name: String) { self.name = name }

        public init(stringLiteral name: String) { self.name = name }

        public var description: String { name }

        /// 401: no token, or an unknown one.
        public static let unauthenticated = Code("unauthenticated")
        /// 403: a save or delete of a type the token may not share.
        public static let authorizationDenied = Code("authorizationDenied")
        /// 400 or 410: `since` is not an anchor of this store (another
        /// store's, from before a restore, or ahead of its log). Start over
        /// without one.
        public static let anchorNotValid = Code("anchorNotValid")
        /// 400: a value breaks a rule (a limit, a date, a unit).
        public static let invalidArgument = Code("invalidArgument")
        /// 400: a type name that is not a HealthKit type.
        public static let unknownType = Code("unknownType")
        /// 404: no such route, sample or store (for this token).
        public static let notFound = Code("notFound")
        /// 429: beyond the token's share; the node's `Retry-After` says when.
        public static let rateLimited = Code("rateLimited")
        /// 503: the store cannot be used, or the node is stopping.
        public static let unavailable = Code("unavailable")
        /// The node could not be reached, or the connection broke (no status).
        public static let unreachable = Code("unreachable")
        /// The node answered something the API does not describe: a body
        /// that does not decode, or an error without the error body.
        public static let invalidResponse = Code("invalidResponse")

        /// Lets `catch AnchorageClientError.Code.unauthenticated` match an
        /// ``AnchorageClientError`` with that code.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? AnchorageClientError)?.code == pattern
        }
    }
}
