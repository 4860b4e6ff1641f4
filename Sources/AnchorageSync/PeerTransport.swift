/// How a replicator talks to one peer: four requests, whatever carries
/// them. ``InMemoryTransport`` serves a log in the same process (tests,
/// embedding); `HTTPPeerTransport` in `AnchorageServer` speaks to a node's
/// `/v1/sync` endpoints.
///
/// ```swift
/// let replicator = PeerReplicator(log: log, peer: InMemoryTransport(serving: otherLog))
/// try await replicator.sync(.both)
/// ```
public protocol PeerTransport: Sendable {
    /// A description of the peer for status pages and logs (a URL).
    var peerDescription: String { get }

    /// Sends this store's identity; returns the peer's, with the peer's
    /// checkpoint for this store.
    func identity(_ mine: PeerIdentity) async throws -> PeerIdentity

    /// Asks for the peer's entries after `request.since`; returns the
    /// encoded ``EntryBatch``.
    func pull(_ request: PullRequest) async throws -> [UInt8]

    /// Sends an encoded ``EntryBatch`` of this store's entries for the
    /// peer to apply.
    func push(_ batch: [UInt8]) async throws -> BatchReceipt

    /// Waits until the peer's head passes `head`, or `timeout` passes;
    /// returns the peer's head. The answer at the timeout doubles as a
    /// heartbeat: a peer that does not answer within it is gone.
    func waitForChange(after head: UInt64, timeout: Duration) async throws -> UInt64

    /// ``waitForChange(after:timeout:)`` from a fleet copy holding fleet
    /// epoch `epoch`: a peer holding a lower one refuses
    /// (``SyncError/Code/staleEpoch``) rather than count the wait as an
    /// acknowledgement. Transports that cannot carry it ignore `epoch`.
    func waitForChange(after head: UInt64, timeout: Duration, epoch: UInt64?) async throws -> UInt64
}

extension PeerTransport {
    public func waitForChange(after head: UInt64, timeout: Duration, epoch: UInt64?) async throws -> UInt64 {
        try await waitForChange(after: head, timeout: timeout)
    }
}
