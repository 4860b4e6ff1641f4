public import AnchorageLog
public import Foundation

/// What a replicator knows of its peer, for `GET /v1/peers` and logs.
public struct PeerStatus: Sendable, Hashable, Codable {
    /// What the replicator is doing.
    public enum State: String, Sendable, Hashable, Codable {
        /// Not started, or stopped.
        case idle
        /// Exchanging entries.
        case syncing
        /// Caught up, waiting for the next change.
        case waiting
        /// Waiting before retrying after a failure.
        case backingOff
    }

    /// The peer's address.
    public var peer: String
    /// The peer's store id, once it answered.
    public var storeID: StoreID?
    /// What the replicator is doing now.
    public var state: State = .idle
    /// When the peer last answered.
    public var lastContact: Date?
    /// When a round last finished without error.
    public var lastSuccess: Date?
    /// The last failure's code and message, until a round succeeds.
    public var lastError: String?
    /// Failures in a row.
    public var consecutiveFailures = 0
    /// Entries the peer holds that this store has not pulled yet (the
    /// peer's head minus the checkpoint), as last seen.
    public var lagEntries: UInt64 = 0
    /// Entries pulled and appended here.
    public var pulledEntries = 0
    /// Entries pushed and appended by the peer.
    public var pushedEntries = 0
    /// Entries received that this store held already.
    public var skippedEntries = 0
    /// Batches pulled whose every entry this store held already.
    public var redundantBatches = 0
    /// Batches exchanged.
    public var batches = 0
    /// Rounds that started from the version vector (lost or foreign
    /// checkpoint).
    public var checkpointFallbacks = 0

    public init(peer: String) {
        self.peer = peer
    }

    mutating func record(_ round: SyncRound, at date: Date) {
        storeID = round.peerStoreID ?? storeID
        lastContact = date
        lastSuccess = date
        lastError = nil
        consecutiveFailures = 0
        batches += round.batches
        checkpointFallbacks += round.checkpointFallbacks
        switch round.direction {
        case .pull:
            pulledEntries += round.applied
            skippedEntries += round.skipped
            redundantBatches += round.redundantBatches
            lagEntries = round.peerHead > round.through ? round.peerHead - round.through : 0
        default:
            pushedEntries += round.applied
        }
    }

    mutating func record(_ error: any Error, at date: Date) {
        consecutiveFailures += 1
        if let error = error as? SyncError {
            if error.code != .unreachable && error.code != .timedOut { lastContact = date }
            lastError = error.description
        } else {
            lastError = String(describing: error)
        }
    }
}
