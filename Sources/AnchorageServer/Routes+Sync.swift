import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageSync
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// The replication endpoints (docs/sync-protocol.md): a peer's replicator
/// exchanges identities, pulls batches, pushes batches and waits for this
/// node's head. Tokens need the replication grant.
struct SyncRoutes: Sendable {
    let configuration: NodeConfiguration
    let shutdown: ShutdownSignal
    let replicators: [PeerReplicator]
    let received: ReceivedBatches

    static let batchType = "application/vnd.anchorage.batch"

    func endpoint(_ context: NodeContext) throws -> SyncEndpoint {
        guard context.replicates else {
            throw APIError(.forbidden, .authorizationDenied, "this token lacks the replication grant")
        }
        let store = try context.requireStore()
        return SyncEndpoint(
            log: try store.eventLog(),
            limits: configuration.syncLimits,
            clock: configuration.clock,
            epoch: { try store.fleetEpoch()?.epoch }
        )
    }

    func identity(_ request: Request, context: NodeContext) async throws -> Response {
        let endpoint = try endpoint(context)
        let body = try await request.body.collect(upTo: context.maximumBodyBytes)
        let asker = try JSONDecoder().decode(PeerIdentity.self, from: Data(Array(buffer: body)))
        context.followers?.saw(epoch: asker.epoch)
        return try JSONBodies.response(encoding: try endpoint.identity(answering: asker))
    }

    func pull(_ request: Request, context: NodeContext) async throws -> Response {
        let endpoint = try endpoint(context)
        let body = try await request.body.collect(upTo: context.maximumBodyBytes)
        let pull = try JSONDecoder().decode(PullRequest.self, from: Data(Array(buffer: body)))
        // A puller holding a higher fleet epoch acknowledges nothing here.
        context.followers?.saw(epoch: pull.epoch)
        try endpoint.checkEpoch(of: pull.epoch)
        // The puller has applied this log up to `since`: its acknowledgement.
        if pull.incarnation == endpoint.log.incarnation { context.followers?.heard(position: pull.since) }
        if endpoint.pullWaits(pull) {
            // A live follower's pull: it waits here for the next entry.
            let timeout = Duration.milliseconds(pull.waitMilliseconds ?? 0)
            _ = await waitForChange(endpoint, after: pull.since, timeout: timeout, context: context)
        }
        let bytes = try endpoint.pull(pull)
        return Response(
            status: .ok,
            headers: [.contentType: Self.batchType],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    func push(_ request: Request, context: NodeContext) async throws -> Response {
        let endpoint = try endpoint(context)
        try context.writes.beforeWrite(.replication, to: try context.requireStore())
        let body = try await request.body.collect(upTo: context.maximumBodyBytes)
        let receipt = try await endpoint.push(Array(buffer: body))
        received.count(receipt)
        return try JSONBodies.response(encoding: receipt)
    }

    func wait(_ request: Request, context: NodeContext) async throws -> Response {
        let endpoint = try endpoint(context)
        let query = QueryParameters(request)
        guard let after = try query.position("after") else {
            throw APIError.badRequest("give after=<position>: the head the peer already knows")
        }
        let epoch = try query.position("epoch")
        context.followers?.saw(epoch: epoch)
        try endpoint.checkEpoch(of: epoch)
        // A replica waits after what it has applied: its acknowledgement.
        context.followers?.heard(position: after)
        let seconds = min(try query.integer("timeout", in: 0...Int.max, default: 25), configuration.maximumWaitSeconds)
        let head = await waitForChange(endpoint, after: after, timeout: .seconds(seconds), context: context)
        struct Head: Encodable { var head: UInt64 }
        return try JSONBodies.response(encoding: Head(head: head))
    }

    /// Waits until the store's head passes `after`, `timeout` passes (at
    /// most the node's limit), the node shuts down or the store closes;
    /// returns the head. A replica's wait counts as following the store
    /// while it lasts.
    private func waitForChange(
        _ endpoint: SyncEndpoint,
        after: UInt64,
        timeout: Duration,
        context: NodeContext
    ) async -> UInt64 {
        let timeout = min(timeout, .seconds(configuration.maximumWaitSeconds))
        let ending = shutdown.stream(also: context.storeClosing)
        let wait = {
            await withTaskGroup(of: UInt64?.self) { group in
                group.addTask { await endpoint.waitForChange(after: after, timeout: timeout) }
                group.addTask {
                    for await _ in ending { break }
                    return nil
                }
                let first = await group.next() ?? nil
                group.cancelAll()
                return first ?? endpoint.log.head.seq
            }
        }
        guard let followers = context.followers else { return await wait() }
        return await followers.waiting(wait)
    }

    func peers(_ request: Request, context: NodeContext) async throws -> Response {
        guard context.grants == nil else {
            throw APIError(.forbidden, .authorizationDenied, "only the owner's and peers' tokens read the peers")
        }
        return try JSONBodies.response(
            encoding: PeerList(peers: replicators.map(\.status), pushesReceived: received.snapshot)
        )
    }

    struct PeerList: Encodable {
        var peers: [PeerStatus]
        var pushesReceived: ReceivedBatches.Counts
    }
}

/// The batches peers pushed to this node, and how many of them held only
/// entries it had already (a peer re-sending what it sent before).
final class ReceivedBatches: Sendable {
    struct Counts: Encodable {
        var batches = 0
        var entries = 0
        var redundantBatches = 0
    }

    private let counts = Mutex(Counts())

    func count(_ receipt: BatchReceipt) {
        counts.withLock { counts in
            counts.batches += 1
            counts.entries += receipt.applied
            if receipt.applied == 0 && receipt.skipped > 0 { counts.redundantBatches += 1 }
        }
    }

    var snapshot: Counts { counts.withLock { $0 } }
}
