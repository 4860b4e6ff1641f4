import Anchorage
import AnchorageService
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Turns every error a handler throws into ``APIError``'s JSON form, and
/// logs server-side failures without request data.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = NodeContext
    /// The node's kind: which operations docs/openapi.yaml gives it, so
    /// that a method a path does not take is `405` with `Allow`, not `404`.
    let kind: OpenAPIDocument.NodeKind

    func handle(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    )
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // No route: a path this node serves with other methods is 405.
            guard let allowed = OpenAPIDocument.methods(ofPath: request.uri.path, for: kind) else {
                return try APIError.from(error).response(from: request, context: context)
            }
            var response = try APIError(
                .methodNotAllowed,
                .methodNotAllowed,
                "\(request.method.rawValue) is not a method of this path; it takes \(allowed.joined(separator: ", "))"
            ).response(from: request, context: context)
            response.headers[.allow] = allowed.joined(separator: ", ")
            return response
        } catch {
            let apiError = APIError.from(error)
            if apiError.status == .serviceUnavailable {
                // Expected and retried by clients (a failover, a replica
                // gone): not a failure of the node.
                context.logger.debug(
                    "request refused for now",
                    metadata: ["path": "\(request.uri.path)", "code": "\(apiError.code.rawValue)"]
                )
            } else if apiError.status.kind == .serverError {
                context.logger.error(
                    "request failed",
                    metadata: ["path": "\(request.uri.path)", "error": "\(String(describing: type(of: error)))"]
                )
            }
            return try apiError.response(from: request, context: context)
        }
    }
}

/// The stores requests act through: the owner's, and one per principal
/// token, all sharing one engine.
final class NodeAccess: Sendable {
    let owner: HKHealthStore
    /// Token digests and their stores; empty when the node has no tokens.
    private let stores: [(digest: [UInt8], store: HKHealthStore, token: AccessPolicy.Token)]
    /// The web page's sessions: each acts as the owner, without replication.
    let signIn: WebSignIn?

    init(owner: HKHealthStore, directory: URL, policy: AccessPolicy, signIn: WebSignIn? = nil) {
        self.owner = owner
        self.signIn = signIn
        var stores: [(digest: [UInt8], store: HKHealthStore, token: AccessPolicy.Token)] = []
        var byPrincipal: [String: HKHealthStore] = [:]
        for token in policy.tokens {
            let store: HKHealthStore
            if let principal = token.principal {
                store =
                    byPrincipal[principal.bundleIdentifier]
                    ?? HKHealthStore(directory: directory, principal: principal)
                byPrincipal[principal.bundleIdentifier] = store
            } else {
                store = owner
            }
            stores.append((Self.digest(token.secret), store, token))
        }
        self.stores = stores
    }

    var requiresTokens: Bool { !stores.isEmpty }

    /// The store acting as `principal` (the owner's for `nil`), while a
    /// token of it is configured.
    func store(forPrincipal principal: String?) -> HKHealthStore? {
        guard let principal else { return owner }
        return stores.first { $0.token.principal?.bundleIdentifier == principal }?.store
    }

    /// The store for a request's `Authorization` header, and the token's
    /// grants (`nil` for the owner).
    func store(forAuthorization header: String?) throws -> (HKHealthStore, AccessPolicy.Token?) {
        // The token is nil only when the node requires none.
        guard requiresTokens else { return (owner, nil) }
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else {
            throw APIError(.unauthorized, .unauthenticated, "send Authorization: Bearer <token>")
        }
        let presented = Self.digest(String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces))
        // Compare against every token in full, so timing says nothing.
        var found: (HKHealthStore, AccessPolicy.Token?)?
        for (digest, store, token) in stores where Self.equalInConstantTime(digest, presented) {
            found = (store, token)
        }
        if found == nil, let signIn, signIn.isSession(digest: presented) {
            // A web page's session: the owner's rights, nothing more.
            found = (owner, .owner(""))
        }
        guard let found else { throw APIError(.unauthorized, .unauthenticated, "the token is not valid") }
        return found
    }

    /// Every principal store, to close on shutdown.
    var principalStores: [HKHealthStore] {
        var seen = Set<ObjectIdentifier>()
        return stores.map(\.store).filter { $0 !== owner && seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// Tokens are compared by their SHA-256 digests, so every comparison
    /// takes the same time whatever the presented token's length.
    private static func digest(_ secret: String) -> [UInt8] { NodeRegistry.secretDigest(secret) }

    /// Whether two digests are equal, in a time that does not depend on
    /// where they differ (the web page's sign-in compares with it too).
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
