public import AnchorageLog

/// A peer in the same process: the ``PeerTransport`` for tests and for
/// embedding two stores in one program. Batches still travel as encoded
/// bytes, through the same checks as over HTTP.
///
/// An interceptor sees every batch on its way (pulled or pushed) and may
/// change, drop (throw) or delay it: tests use it to truncate, corrupt,
/// duplicate and interrupt exchanges.
///
/// ```swift
/// let transport = InMemoryTransport(serving: otherLog)
/// try await PeerReplicator(log: log, peer: transport).sync(.both)
/// ```
public struct InMemoryTransport: PeerTransport {
    /// The way a batch travels.
    public enum Leg: Sendable, Hashable {
        /// From the serving log to the replicator.
        case pulled
        /// From the replicator to the serving log.
        case pushed
    }

    /// Sees each batch's bytes on their way; may change them or throw.
    public typealias Interceptor = @Sendable (Leg, inout [UInt8]) async throws -> Void

    /// The serving side.
    public let endpoint: SyncEndpoint
    private let interceptor: Interceptor?

    public init(serving log: EventLog, limits: SyncLimits = SyncLimits(), interceptor: Interceptor? = nil) {
        self.endpoint = SyncEndpoint(log: log, limits: limits)
        self.interceptor = interceptor
    }

    /// Serves `endpoint` as it is (with its fleet epoch, for instance).
    public init(serving endpoint: SyncEndpoint, interceptor: Interceptor? = nil) {
        self.endpoint = endpoint
        self.interceptor = interceptor
    }

    public var peerDescription: String { "memory:\(endpoint.log.storeID)" }

    public func identity(_ mine: PeerIdentity) async throws -> PeerIdentity {
        try endpoint.identity(answering: mine)
    }

    public func pull(_ request: PullRequest) async throws -> [UInt8] {
        try endpoint.checkEpoch(of: request.epoch)
        await endpoint.waitBeforePull(request)
        var bytes = try endpoint.pull(request)
        try await interceptor?(.pulled, &bytes)
        return bytes
    }

    public func push(_ batch: [UInt8]) async throws -> BatchReceipt {
        var bytes = batch
        try await interceptor?(.pushed, &bytes)
        return try await endpoint.push(bytes)
    }

    public func waitForChange(after head: UInt64, timeout: Duration) async throws -> UInt64 {
        await endpoint.waitForChange(after: head, timeout: timeout)
    }

    public func waitForChange(after head: UInt64, timeout: Duration, epoch: UInt64?) async throws -> UInt64 {
        try endpoint.checkEpoch(of: epoch)
        return await endpoint.waitForChange(after: head, timeout: timeout)
    }
}
