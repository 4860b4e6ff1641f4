import Anchorage
import AnchorageLog
import HTTPTypes

/// A write answered only once a replica holds it
/// (``NodeConfiguration/replicaAcknowledgement``).
extension NodeContext {
    /// Refuses a write, before anything is stored, when writes wait for a
    /// replica and none has asked within the bound: `503
    /// replicationUnavailable`.
    func requireFollowingReplica(_ configuration: NodeConfiguration) throws {
        try checkFleetEpoch()
        guard let bound = configuration.replicaAcknowledgement, let followers else { return }
        guard followers.isFollowed(within: bound) else {
            throw APIError.replicationUnavailable(
                "writes here are answered only once a replica holds them, and no replica has pulled from this store "
                    + "in the last \(Self.words(bound)); nothing was stored: start or reconnect a replica, then send it again",
                retryAfter: bound
            )
        }
        // A fleet's primary acknowledges nothing once it may no longer lead.
        do {
            try checkFleetEpoch()
        } catch let error as APIError {
            throw APIError(
                error.status,
                error.code,
                "the write is stored, but this node may no longer lead the store, so it is not acknowledged; read it "
                    + "back before sending it again (objects that exist are refused as duplicates): " + error.message
            ).retrying(after: .seconds(1))
        }
    }

    /// Waits until a replica has confirmed everything the store held when
    /// the write returned, at most the bound: otherwise `503
    /// replicationUnavailable` (the write is stored here, not acknowledged).
    func awaitReplica(_ configuration: NodeConfiguration) async throws {
        guard let bound = configuration.replicaAcknowledgement, let followers, let store else {
            try checkFleetEpoch()
            return
        }
        let head = try store.eventLog().head.seq
        guard await followers.waitForAcknowledgement(of: head, timeout: bound) else {
            throw APIError.replicationUnavailable(
                "the write is stored on this node, but no replica confirmed it within \(Self.words(bound)), so it is not "
                    + "acknowledged: it reaches the replicas when one pulls, and is lost if this node fails first; "
                    + "read it back before sending it again (objects that exist are refused as duplicates)",
                retryAfter: bound
            )
        }
        // The wait may outlast this node's lease (a pause, a slow replica):
        // it acknowledges only while it still leads the store.
        do {
            try checkFleetEpoch()
        } catch let refused as APIError {
            throw APIError(
                refused.status,
                refused.code,
                "the write is stored on this node, but this node stopped leading the store before it could acknowledge "
                    + "it: read it back before sending it again (objects that exist are refused as duplicates)"
            ).retrying(after: .seconds(1))
        }
    }

    /// In a fleet: refuses when this node may no longer lead the store (its
    /// lease deadline passed, or a replica holds a higher epoch).
    private func checkFleetEpoch() throws {
        try fleetGate?()
        if let fleetEpoch, let followers, followers.epochSeen > fleetEpoch {
            throw APIError(
                .serviceUnavailable,
                .notPrimary,
                "a copy of this store holds a higher fleet epoch than this node leads it at: this node is no "
                    + "longer its primary; ask again in a moment"
            ).retrying(after: .seconds(1))
        }
    }

    private static func words(_ bound: Duration) -> String {
        let (seconds, attoseconds) = bound.components
        return attoseconds == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
