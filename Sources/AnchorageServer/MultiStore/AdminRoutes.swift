import Anchorage
import AnchorageService
import AnchorageSync
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The administration of a multi-store node, reached with the
/// administrator's token (`anchorage tokens issue --admin`): create, list
/// and delete stores, issue, list and revoke their tokens, add, list and
/// remove the peers each store replicates with (docs/http-api.md, "Many
/// stores in one node"). The same registry calls as `anchorage stores`,
/// `anchorage tokens` and `anchorage peers`.
struct AdminRoutes: Sendable {
    let registry: NodeRegistry
    /// Deletes a store the node may be serving (ends its requests first).
    let deleteStore: @Sendable (StoreName) async throws -> Void
    /// Destroys a sealed store's data key (ends its requests first).
    let shredStore: @Sendable (StoreName) async throws -> ShreddedKey
    /// What the node's rounds with a store's peer did (by peer id).
    let peerStatus: @Sendable (String, StoreName) -> PeerStatus?

    /// At most this many stores per page of `GET /v1/stores`.
    static let maximumPage = 10_000
    /// At most this many stores created by one request.
    static let maximumCreated = 1_000

    /// Adds the routes to `router`, behind the administrator's token.
    func register(on router: some RouterMethods<NodeContext>) {
        let admin = router.group().add(middleware: AdminMiddleware(registry: registry))
        admin.get("/v1/stores", use: list)
        admin.post("/v1/stores", use: create)
        admin.delete("/v1/stores/{store}", use: delete)
        admin.get("/v1/stores/{store}/tokens", use: tokens)
        admin.post("/v1/stores/{store}/tokens", use: issue)
        admin.delete("/v1/stores/{store}/tokens/{token}", use: revoke)
        admin.put("/v1/stores/{store}/quota", use: setQuota)
        admin.post("/v1/stores/{store}/shred", use: shred)
        admin.get("/v1/stores/{store}/peers", use: peers)
        admin.post("/v1/stores/{store}/peers", use: addPeer)
        admin.delete("/v1/stores/{store}/peers/{peer}", use: removePeer)
    }

    /// What `POST /v1/stores` takes: one id, or several created together.
    struct Creation: Decodable {
        var id: String?
        var ids: [String]?
    }

    /// What `POST /v1/stores/{store}/tokens` takes: who the token acts as.
    struct Issue: Decodable {
        var owner: Bool?
        var peer: Bool?
        var app: String?
        var appName: String?
        var read: [String]?
        var share: [String]?

        /// The grant the body asks for, on store `name`.
        func grant(for name: StoreName) throws -> TokenGrant {
            switch (owner == true, peer == true, app) {
            case (true, false, nil) where read == nil && share == nil && appName == nil:
                return TokenGrant(store: name, owner: true)
            case (false, true, nil) where read == nil && share == nil && appName == nil:
                return TokenGrant(store: name, owner: false, replicates: true)
            case (false, false, let app?):
                return TokenGrant(store: name, app: app, appName: appName, read: read ?? [], share: share ?? [])
            default:
                throw APIError.badRequest(
                    "say who the token acts as: {\"owner\": true}, {\"peer\": true} or {\"app\": \"<bundle id>\", \"read\": […], \"share\": […]}"
                )
            }
        }
    }

    /// A token just issued: its secret is in this answer and nowhere else.
    struct IssuedBody: Encodable {
        var id: String
        var secret: String
        var grant: TokenGrant
        var created: Date
    }

    func list(_ request: Request, context: NodeContext) async throws -> Response {
        let query = QueryParameters(request)
        let limit = try query.integer("limit", in: 1...Self.maximumPage, default: 1_000)
        let after = try query.string("after").map { text in
            do throws(ServiceError) { return try StoreName(text) } catch {
                throw APIError(.badRequest, .invalidArgument, "after: \(error.message)")
            }
        }
        let stores = try registry.stores(after: after, limit: limit)
        struct Page: Encodable {
            var stores: [StoreRecord]
            var next: String?
        }
        return try JSONBodies.response(
            encoding: Page(stores: stores, next: stores.count == limit ? stores.last?.id : nil)
        )
    }

    func create(_ request: Request, context: NodeContext) async throws -> Response {
        let creation = try await Self.decode(Creation.self, request, context: context, holding: "the stores to create")
        let texts: [String]
        switch (creation.id, creation.ids) {
        case (let id?, nil): texts = [id]
        case (nil, let ids?) where !ids.isEmpty && ids.count <= Self.maximumCreated: texts = ids
        default:
            throw APIError.badRequest("send {\"id\": \"<store>\"} or {\"ids\": [1 to \(Self.maximumCreated) ids]}")
        }
        let names = try texts.map { try StoreName($0) }
        let records = try registry.createStores(names)
        return try JSONBodies.response(encoding: ["stores": records], status: .created)
    }

    func delete(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try Self.store(context)
        try await deleteStore(name)
        return Response(status: .noContent)
    }

    func shred(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try Self.existing(context, registry)
        return try JSONBodies.response(encoding: try await shredStore(name))
    }

    func tokens(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try Self.existing(context, registry)
        let records = try registry.tokens(of: name).sorted { ($0.created, $0.id) < ($1.created, $1.id) }
        return try JSONBodies.response(encoding: ["tokens": records])
    }

    func issue(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try Self.existing(context, registry)
        let body = try await Self.decode(Issue.self, request, context: context, holding: "who the token acts as")
        let grant = try body.grant(for: name)
        let issued = try registry.issueToken(grant)
        let answer = IssuedBody(
            id: issued.record.id,
            secret: issued.secret,
            grant: issued.record.grant,
            created: issued.record.created
        )
        return try JSONBodies.response(encoding: answer, status: .created)
    }

    func revoke(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try Self.store(context)
        guard let id = context.parameters.get("token"),
            let record = try registry.tokens(of: name).first(where: { $0.id == id })
        else { throw APIError(.notFound, .notFound, "store \(name) has no such token") }
        try registry.revokeToken(id: record.id)
        return Response(status: .noContent)
    }

    /// What `POST /v1/stores/{store}/peers` takes.
    struct PeerAddition: Decodable {
        var url: String
        var token: String?
        var direction: SyncDirection?
    }

    /// A peer as answers show it: never its token.
    struct PeerBody: Encodable {
        var id: String
        var url: URL
        var direction: SyncDirection
        var created: Date
        /// What the node's rounds with it did; `null` before the first.
        var status: PeerStatus?
    }

    /// What `PUT /v1/stores/{store}/quota` takes: bytes, or `null` for none.
    /// The field must be there: `{}` (or a misspelt field) is refused, not
    /// read as "no quota" (schemathesis found it lifting the quota).
    struct Quota: Decodable {
        var maximumBytes: Int?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard container.contains(.maximumBytes) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.maximumBytes,
                    .init(codingPath: [], debugDescription: "give maximumBytes: a number of bytes, or null for none")
                )
            }
            maximumBytes = try container.decode(Int?.self, forKey: .maximumBytes)
        }

        enum CodingKeys: String, CodingKey { case maximumBytes }
    }

    func setQuota(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try Self.store(context)
        let body = try await Self.decode(Quota.self, request, context: context, holding: "the store's quota")
        let record = try registry.setQuota(of: name, maximumBytes: body.maximumBytes)
        return try JSONBodies.response(encoding: record)
    }

    func peers(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try Self.existing(context, registry)
        let peers = try registry.peers(of: name).map { peer in
            PeerBody(
                id: peer.id,
                url: peer.url,
                direction: peer.direction,
                created: peer.created,
                status: peerStatus(peer.id, name)
            )
        }
        return try JSONBodies.response(encoding: ["peers": peers])
    }

    func addPeer(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try Self.existing(context, registry)
        let body = try await Self.decode(PeerAddition.self, request, context: context, holding: "the peer to add")
        guard let url = URL(string: body.url) else {
            throw APIError(.badRequest, .invalidArgument, "'url' is not a URL")
        }
        let peer = try registry.addPeer(to: name, url: url, token: body.token, direction: body.direction ?? .both)
        let answer = PeerBody(id: peer.id, url: peer.url, direction: peer.direction, created: peer.created)
        return try JSONBodies.response(encoding: answer, status: .created)
    }

    func removePeer(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try Self.store(context)
        try registry.removePeer(context.parameters.get("peer") ?? "", of: name)
        return Response(status: .noContent)
    }

    // MARK: Reading and writing

    private static func store(_ context: NodeContext) throws -> StoreName {
        try StoreName(context.parameters.get("store") ?? "")
    }

    /// The path's store, which must exist (and not be being deleted).
    private static func existing(_ context: NodeContext, _ registry: NodeRegistry) throws -> StoreName {
        let name = try store(context)
        guard try registry.store(name) != nil else { throw APIError(.notFound, .notFound, "there is no store \(name)") }
        return name
    }

    static func decode<T: Decodable>(
        _ type: T.Type,
        _ request: Request,
        context: NodeContext,
        holding what: String
    ) async throws -> T {
        try decode(type, from: try await JSONBodies.collect(request, context: context, holding: what))
    }

    /// Decodes a request body already read: broken JSON is `400
    /// invalidJSON`, a number that does not fit its field `400
    /// invalidArgument` (``JSONNumberOutOfRange``).
    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        do {
            return try JSONNumbers.decode(type, from: body)
        } catch let error as DecodingError {
            throw APIError(.badRequest, .invalidJSON, DecodingErrorWords.describe(error))
        }
    }
}

/// Lets in the node administrator's token only, or with `consumers` its
/// consumers' tokens too (the store-updates feed).
struct AdminMiddleware: RouterMiddleware {
    typealias Context = NodeContext
    let registry: NodeRegistry
    var consumers = false

    func handle(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        let record = try RegistryHost.token(request, registry: registry)
        guard record.grant.admin || (consumers && record.grant.consumer) else {
            let why =
                record.grant.consumer
                ? "a consumer's token reads the store updates and the stores' change feeds"
                : "this token reaches one store's data"
            let takes =
                consumers
                ? "the node's store updates take its administrator's token or a consumer's (anchorage tokens issue --consumer)"
                : "managing the node takes its administrator's token (anchorage tokens issue --admin)"
            throw APIError(.forbidden, .authorizationDenied, "\(why); \(takes)")
        }
        return try await next(request, context)
    }
}
