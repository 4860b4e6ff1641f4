import AnchorageFleet
import AnchorageService
import Crypto
import Foundation
import HTTPTypes
import Hummingbird

/// The ``StoreHost`` of a fleet node: `/v1/stores/{store}/…` — the token is checked first
/// (a fleet token of that store, or the fleet's secret); the request is
/// served here when this node is the store's primary — or, for a read the
/// client allows a replica to answer (`X-Anchorage-Read: replica`), one of
/// its replicas — and forwarded to the primary otherwise. Every answer
/// says which copy served it: `X-Anchorage-Copy` (`primary` or `replica`),
/// `X-Anchorage-Node` and `X-Anchorage-Epoch`. A read a replica may answer,
/// arriving at a node without a copy, goes to the primary — or to a
/// replica when the primary does not answer.
///
/// A request served here reaches the store through the node's registry
/// (``RegistryHost``); its writes also keep the copy's lease
/// (``FleetCopies/lease(_:epoch:)``): the node leads the store at the
/// placement's epoch and holds its fleet lease.
struct FleetHost: StoreHost {

    static let readHeader = HTTPField.Name("X-Anchorage-Read")!
    static let copyHeader = HTTPField.Name("X-Anchorage-Copy")!
    static let nodeHeader = HTTPField.Name("X-Anchorage-Node")!
    static let epochHeader = HTTPField.Name("X-Anchorage-Epoch")!

    let fleet: FleetConfiguration
    let fleetSecret: FleetSecret
    let tokens: FleetTokens
    let cache: PlacementCache
    let directory: NodeDirectory
    let copies: FleetCopies
    let probe: FleetProbe
    let forwarder: FleetForwarder
    let maximumBodyBytes: Int
    /// Serves the requests this node's copies answer.
    let registry: RegistryHost

    var kind: OpenAPIDocument.NodeKind { .fleet }
    var storePath: String { "/v1/stores/{store}" }

    func serve(
        _ request: Request,
        context: NodeContext,
        next: (Request, NodeContext) async throws -> Response
    ) async throws -> Response {
        let store = context.parameters.get("store") ?? ""
        let secret = try RegistryHost.secret(request)
        // A node that has just started answers once it has read the fleet.
        guard cache.revision > 0, tokens.isReady else {
            throw APIError(
                .serviceUnavailable,
                .fleetUnavailable,
                "this node is still reading the fleet's placements and tokens; ask again in a moment"
            ).retrying(after: .seconds(1))
        }
        let isFleet = fleetSecret.matches(secret)
        if !isFleet {
            guard let record = tokens.record(forSecret: secret) else {
                throw APIError(.unauthorized, .unauthenticated, "the token is not valid")
            }
            guard record.grant.store == store else { throw RegistryHost.notFound }
        }
        let record = cache.placement(of: store)
        let me = fleet.nodeID
        let prefix = "/v1/stores/\(store)/"
        let path = request.uri.path
        if path.hasPrefix(prefix + "sync/") {
            // Replication is between the store's copies, each asked directly.
            guard record?.placement.role(of: me) != nil else { throw RegistryHost.notFound }
            return try await registry.serve(request, context: context, next: next)
        }
        let isWrite = request.method != .get && request.method != .head
        let replicaRead = !isWrite && request.headers[Self.readHeader]?.lowercased() == "replica"
        switch Route.decide(for: record, on: me, replicaReadAllowed: replicaRead) {
        case .unplaced:
            throw RegistryHost.notFound
        case .forward(let primary, let epoch):
            // A read the client lets a replica answer goes to one when the
            // primary does not answer (this node's probes), or gives up.
            let replica = replicaRead ? record.flatMap { answeringReplica(of: $0.placement) } : nil
            guard let node = directory.node(primary), !probe.reports(primary) else {
                if let replica { return try await forwarder.forward(request, to: replica, maximumBodyBytes: 0) }
                throw APIError(
                    .serviceUnavailable,
                    .fleetUnavailable,
                    "the store's primary does not answer this node; the fleet promotes a replica within seconds: "
                        + "ask again then"
                ).retrying(after: .seconds(1))
            }
            // Given up before its answer begins if the store's primary
            // changes, goes, or stops answering this node's probes.
            let (cache, directory, probe) = (cache, directory, probe)
            do {
                return try await forwarder.forward(
                    request,
                    to: node.record.address,
                    maximumBodyBytes: maximumBodyBytes
                ) {
                    await cache.changes.wait {
                        let now = cache.placement(of: store)?.placement
                        return now?.primary != primary || now?.epoch != epoch || directory.node(primary) == nil
                            || probe.reports(primary)
                    }
                }
            } catch let error as APIError where error.code == .fleetUnavailable {
                guard let replica else { throw error }
                return try await forwarder.forward(request, to: replica, maximumBodyBytes: 0)
            }
        case .serve(let role, let epoch):
            var response: Response
            do {
                let lease = isWrite ? copies.lease(store, epoch: epoch) : nil
                response = try await registry.serve(request, context: context, lease: lease, next: next)
            } catch {
                if isWrite { copies.handOverIfDeposed(store, epoch: epoch) }
                throw error
            }
            // An acknowledged write was checked while this node still led: its follower, begun after,
            // pushes it. Only a write refused after it may have been stored needs handing over.
            if isWrite, response.status.code >= 300 { copies.handOverIfDeposed(store, epoch: epoch) }
            response.headers[Self.copyHeader] = role.rawValue
            response.headers[Self.nodeHeader] = me
            response.headers[Self.epochHeader] = String(epoch)
            return response
        }
    }
}

extension FleetHost {
    /// The address of a live replica of `placement` this node's probes
    /// find answering, other than this node.
    func answeringReplica(of placement: Placement) -> String? {
        placement.replicas.lazy.filter { $0 != fleet.nodeID && !probe.reports($0) }
            .compactMap { directory.node($0)?.record.address }.first
    }
}

/// The fleet's secret, kept as its digest: a bearer secret is compared by
/// digest, so the comparison takes the same time whatever it shares with
/// the secret, and the secret is hashed once, not per request.
struct FleetSecret: Sendable {
    private let digest: [UInt8]

    init(_ secret: String) {
        digest = Array(SHA256.hash(data: Array(secret.utf8)))
    }

    func matches(_ secret: String) -> Bool {
        Array(SHA256.hash(data: Array(secret.utf8))) == digest
    }
}
