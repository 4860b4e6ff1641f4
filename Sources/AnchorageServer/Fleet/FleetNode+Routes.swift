import Anchorage
import AnchorageFleet
import AnchorageService
import Etcd
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension FleetNode {
    /// The fleet node's routes: the stores' (routed by
    /// ``FleetRouteMiddleware``), and the fleet's administration behind its
    /// secret (docs/http-api.md, "A fleet").
    func router() -> Router<NodeContext> { routes.router() }

    /// Every route of a fleet node (docs/openapi.yaml, `fleet`).
    func addRoutes(to router: some RouterMethods<NodeContext>) { routes.addRoutes(to: router) }

    var routes: NodeRouter<FleetHost> {
        let secret = FleetSecret(fleet.secret)
        let host = FleetHost(
            fleet: fleet,
            fleetSecret: secret,
            tokens: tokens,
            cache: cache,
            directory: directory,
            copies: copies,
            probe: probe,
            forwarder: forwarder,
            maximumBodyBytes: node.configuration.maximumBodyBytes,
            registry: node.host(tokens: tokenSource(secret), kind: .fleet)
        )
        // The routes only a fleet node has: its administration, behind the fleet's secret.
        return NodeRouter(parts: node.routeParts, host: host) { [self] router, _ in addAdminRoutes(to: router, secret) }
    }

    /// The fleet's administration, behind its secret.
    private func addAdminRoutes(to router: any RouterMethods<NodeContext>, _ secret: FleetSecret) {
        let admin = router.group().add(middleware: FleetAdminMiddleware(secret: secret))
        admin.get("/metrics") { [self] _, _ in await metricsResponse() }
        StoreUpdatesRoutes(
            source: FleetStoreUpdatesSource(feed: storeUpdates),
            configuration: node.configuration,
            shutdown: node.shutdown
        )
        .register(on: admin)
        admin.get("/v1/fleet/status") { [self] _, _ in try JSONBodies.response(encoding: try await status()) }
        admin.get("/v1/fleet/copies/{store}") { [self] _, context in
            let name = try StoreName(context.parameters.get("store") ?? "")
            guard let copy = try await copyStatus(name) else {
                throw APIError(.notFound, .notFound, "this node holds no copy of \(name)")
            }
            return try JSONBodies.response(encoding: copy)
        }
        admin.get("/v1/stores") { [cache] request, _ in
            // Paged as a multi-store node pages its stores (docs/openapi.yaml, listStores).
            let query = QueryParameters(request)
            let limit = try query.integer("limit", in: 1...AdminRoutes.maximumPage, default: 1_000)
            let after = try query.string("after").map { text in
                do throws(ServiceError) { return try StoreName(text).rawValue } catch {
                    throw APIError(.badRequest, .invalidArgument, "after: \(error.message)")
                }
            }
            let stores = cache.placements.values.filter { record in after.map { record.store > $0 } ?? true }
                .sorted { $0.store < $1.store }.prefix(limit).map(StoreBody.init)
            return try JSONBodies.response(
                encoding: StorePage(stores: Array(stores), next: stores.count == limit ? stores.last?.id : nil)
            )
        }
        admin.post("/v1/stores") { [self] request, context in try await createStore(request, context: context) }
        admin.post("/v1/stores/{store}/shred") { [self] _, context in
            let name = try StoreName(context.parameters.get("store") ?? "")
            return try JSONBodies.response(encoding: try await shredStore(name))
        }
        admin.post("/v1/stores/{store}/seal") { [self] request, context in
            try await sealStore(request, context: context)
        }
        admin.post("/v1/stores/{store}/rekey") { [self] _, context in
            let name = try StoreName(context.parameters.get("store") ?? "")
            return try JSONBodies.response(encoding: try await rekeyStore(name), status: .accepted)
        }
        admin.post("/v1/stores/{store}/move") { [self] request, context in
            try await moveStore(request, context: context)
        }
        admin.get("/v1/stores/{store}/tokens") { [tokens] _, context in
            let store = try StoreName(context.parameters.get("store") ?? "")
            return try JSONBodies.response(encoding: ["tokens": tokens.tokens(of: store.rawValue)])
        }
        admin.post("/v1/stores/{store}/tokens") { [self] request, context in
            try await issueToken(request, context: context)
        }
        admin.delete("/v1/stores/{store}/tokens/{token}") { [tokens] _, context in
            // Only a token of the store the path names: another store's is not found here.
            let store = try StoreName(context.parameters.get("store") ?? "")
            guard let id = context.parameters.get("token"),
                tokens.tokens(of: store.rawValue).contains(where: { $0.id == id }),
                try await tokens.revoke(id: id)
            else { throw APIError(.notFound, .notFound, "store \(store) has no such token") }
            return Response(status: .noContent)
        }
    }

    /// The fleet's tokens, and its secret as every store's owner.
    private func tokenSource(_ secret: FleetSecret) -> TokenSource {
        let tokens = self.tokens
        return TokenSource(
            record: { bearer, store in
                if secret.matches(bearer) {
                    guard let name = try? StoreName(store) else { return nil }
                    return TokenRecord(
                        id: TokenRecord.fleetID,
                        grant: TokenGrant(store: name, owner: true, replicates: true),
                        created: Date(timeIntervalSince1970: 0)
                    )
                }
                return tokens.record(forSecret: bearer)
            },
            tokens: { name in tokens.tokens(of: name.rawValue) }
        )
    }

    /// A store's placement as the admin routes answer it.
    /// A page of `GET /v1/stores`: `next` while there may be more.
    struct StorePage: Encodable {
        var stores: [StoreBody]
        var next: String?
    }

    struct StoreBody: Encodable {
        var id: String
        var primary: String
        var replicas: [String]
        var epoch: Int64
        var joining: [String]
        var retiring: [String]

        init(_ record: PlacementRecord) {
            id = record.store
            primary = record.placement.primary
            replicas = record.placement.replicas
            epoch = record.placement.epoch
            joining = record.placement.joining
            retiring = record.placement.retiring
        }
    }

    /// `POST /v1/stores {"id"}`: the controller places the store; any other
    /// node forwards the request to it.
    ///
    /// The answer comes once this node's placement cache holds the store, so
    /// the next request to this node finds it (read your writes).
    func createStore(_ request: Request, context: NodeContext) async throws -> Response {
        let body = try await JSONBodies.collect(request, context: context, holding: "the store to create")
        let creation = try AdminRoutes.decode(AdminRoutes.Creation.self, from: body)
        guard let id = creation.id, creation.ids == nil else {
            throw APIError.badRequest("send {\"id\": \"<store>\"}: a fleet creates one store per request")
        }
        let name = try StoreName(id)
        if controller.currentClaim == nil {
            let buffered = Request(head: request.head, body: RequestBody(buffer: ByteBuffer(bytes: body)))
            let answer = try await forwarder.forward(
                buffered,
                to: try await controllerAddress(),
                maximumBodyBytes: 64 * 1_024
            )
            if answer.status.code < 300 { await awaitPlaced(name.rawValue) }
            return answer
        }
        do {
            let (record, created) = try await controller.create(name.rawValue)
            await awaitPlaced(name.rawValue)
            return try JSONBodies.response(encoding: StoreBody(record), status: created ? .created : .ok)
        } catch let error as FleetError {
            switch error.code {
            case .noNodes, .notController:
                throw APIError(.serviceUnavailable, .fleetUnavailable, error.message).retrying(after: .seconds(1))
            default:
                throw APIError(.badRequest, .invalidArgument, error.message)
            }
        } catch let error as EtcdError {
            throw APIError(.serviceUnavailable, .fleetUnavailable, "etcd: \(error.message)")
                .retrying(after: .seconds(1))
        }
    }

    /// Waits until this node's placement cache holds `store` (its watch
    /// trails etcd by a millisecond or so), for at most 5 s on the node's
    /// clock.
    func awaitPlaced(_ store: String) async {
        let cache = self.cache
        await withTaskGroup(of: Void.self) { [clock = node.configuration.clock] group in
            group.addTask { await cache.changes.wait { cache.placement(of: store) != nil } }
            group.addTask { try? await clock.sleep(.seconds(5)) }
            await group.next()
            group.cancelAll()
        }
    }

    /// The controller's node, to forward a controller's request to.
    func controllerAddress() async throws -> String {
        guard let holder = try? await controller.election.holder(), holder.nodeID != fleet.nodeID,
            let node = directory.node(holder.nodeID)
        else {
            throw APIError(.serviceUnavailable, .fleetUnavailable, "the fleet has no controller right now")
                .retrying(after: .seconds(1))
        }
        return node.record.address
    }

    /// `POST /v1/stores/{store}/move {"from", "to"}`: add the copy on `to`,
    /// let it catch up, count it, drop the one on `from`.
    func moveStore(_ request: Request, context: NodeContext) async throws -> Response {
        if controller.currentClaim == nil {
            return
                try await forwarder
                .forward(request, to: try await controllerAddress(), maximumBodyBytes: 64 * 1_024)
        }
        struct Move: Decodable {
            var from: String
            var to: String
        }
        let name = try StoreName(context.parameters.get("store") ?? "")
        let move = try await AdminRoutes.decode(Move.self, request, context: context, holding: "the move")
        do {
            let record = try await controller.move(name.rawValue, from: move.from, to: move.to)
            return try JSONBodies.response(encoding: StoreBody(record), status: .accepted)
        } catch let error as FleetError {
            if error.code == .notController {
                throw APIError(.serviceUnavailable, .fleetUnavailable, error.message).retrying(after: .seconds(1))
            }
            throw APIError(.conflict, .invalidArgument, error.message)
        }
    }

    /// `POST /v1/stores/{store}/tokens`: a token every node accepts.
    func issueToken(_ request: Request, context: NodeContext) async throws -> Response {
        let name = try StoreName(context.parameters.get("store") ?? "")
        guard cache.placement(of: name.rawValue) != nil else {
            throw APIError(.notFound, .notFound, "there is no store \(name)")
        }
        let body = try await AdminRoutes.decode(
            AdminRoutes.Issue.self,
            request,
            context: context,
            holding: "who the token acts as"
        )
        let issued = try await tokens.issue(try body.grant(for: name))
        let answer = AdminRoutes.IssuedBody(
            id: issued.record.id,
            secret: issued.secret,
            grant: issued.record.grant,
            created: issued.record.created
        )
        return try JSONBodies.response(encoding: answer, status: .created)
    }
}

/// Lets in the fleet's secret only.
struct FleetAdminMiddleware: RouterMiddleware {
    typealias Context = NodeContext
    let secret: FleetSecret

    func handle(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        guard secret.matches(try RegistryHost.secret(request)) else {
            throw APIError(
                .forbidden,
                .authorizationDenied,
                "administering the fleet takes its secret (the file given to `anchorage serve --fleet-secret-file`)"
            )
        }
        return try await next(request, context)
    }
}

extension FleetNode {
    /// What forwards a request to another node: a store's primary, or the
    /// controller. It waits for the answer's start no longer than the
    /// fleet's timings allow (``ForwardingDeadline``).
    var forwarder: FleetForwarder {
        FleetForwarder(
            client: client,
            nodeID: fleet.nodeID,
            deadline: ForwardingDeadline(
                leaseTTL: .seconds(fleet.leaseTTL),
                replicaAcknowledgement: node.configuration.replicaAcknowledgement
            )
        )
    }
}
