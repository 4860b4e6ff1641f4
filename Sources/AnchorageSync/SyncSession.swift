public import AnchorageLog

/// Which way entries travel.
public enum SyncDirection: String, Sendable, Hashable, CaseIterable, Codable {
    /// The peer's entries into this store.
    case pull
    /// This store's entries into the peer.
    case push
    /// Both.
    case both

    var includesPull: Bool { self != .push }
    var includesPush: Bool { self != .pull }
}

/// One round of replication with one peer in one direction, as a state
/// machine without I/O: it says what to do next, a driver
/// (``PeerReplicator``) does it and reports the outcome back. Tested
/// without sockets.
///
/// A pull round: identify → pull → apply → pull … → finished. A push round:
/// identify → push … → finished. The checkpoint decides where a round
/// starts; when it is missing or belongs to another incarnation of the
/// peer, the round starts from the beginning and the version vector keeps
/// the sender from sending what the receiver holds: a scan, never a
/// re-transfer.
///
/// ```swift
/// var session = SyncSession(direction: .pull, local: localIdentity)
/// var action = session.start()
/// // .identify → action = try session.identified(peer, checkpoint: checkpoint)
/// ```
public struct SyncSession: Sendable {
    /// What the driver does next.
    public enum Action: Sendable, Equatable {
        /// Exchange identities; report with ``identified(_:checkpoint:)``.
        case identify
        /// Ask the peer for its entries after `since` (of its incarnation
        /// `incarnation`), sending this store's current version vector;
        /// report with ``received(_:)``.
        case pull(incarnation: UInt64, since: UInt64)
        /// Apply the batch just received, with its checkpoint; report with
        /// ``applied(_:hasMore:)``.
        case apply
        /// Read this store's entries after `since`, skipping those the
        /// peer's `versionVector` covers, and send them; report with
        /// ``pushed(_:hasMore:)``.
        case push(since: UInt64, versionVector: [StoreID: UInt64])
        /// The round is over.
        case finished(SyncRound)
    }

    /// The direction of this round (``SyncDirection/pull`` or
    /// ``SyncDirection/push``).
    public let direction: SyncDirection
    /// This store's identity.
    public let local: PeerIdentity
    /// The peer, once identified.
    public private(set) var peer: PeerIdentity?
    /// What the round did so far.
    public private(set) var round: SyncRound
    private var since: UInt64 = 0
    private var restarts = 0

    /// How many times a round identifies again after a moved checkpoint
    /// or a new incarnation before it gives up.
    public static let maximumRestarts = 3

    public init(direction: SyncDirection, local: PeerIdentity) {
        precondition(direction != .both, "a session runs one direction; run two for both")
        self.direction = direction
        self.local = local
        self.round = SyncRound(direction: direction)
    }

    /// The first action.
    public mutating func start() -> Action {
        .identify
    }

    /// The peer's identity arrived; `checkpoint` is this store's
    /// checkpoint for the peer (pull rounds). With `waiting`, a pull round
    /// pulls even when caught up: its first pull waits for the peer's next
    /// entry (``PullRequest/waitMilliseconds``).
    public mutating func identified(
        _ peer: PeerIdentity,
        checkpoint: Anchor?,
        waiting: Bool = false
    ) throws(SyncError) -> Action {
        try SyncEndpoint.checkVersion(peer.protocolVersion)
        guard peer.storeID != local.storeID else {
            throw SyncError(.wrongPeer, "the peer is this store itself (\(local.storeID)); check the peer's address")
        }
        try local.checkSealing(of: peer)
        if let known = self.peer, known.storeID != peer.storeID {
            throw SyncError(
                .wrongPeer,
                "the peer's address now answers as store \(peer.storeID), not \(known.storeID); check the configuration"
            )
        }
        self.peer = peer
        round.peerStoreID = peer.storeID
        round.peerHead = peer.head
        switch direction {
        case .pull:
            if let checkpoint, checkpoint.storeID == peer.storeID, checkpoint.incarnation == peer.incarnation,
                checkpoint.seq <= peer.head
            {
                since = checkpoint.seq
            } else {
                if checkpoint != nil { round.checkpointFallbacks += 1 }
                since = 0
            }
            round.through = since
            // A waiting pull is sent even when caught up: it waits for the next entry.
            guard since < peer.head || waiting else { return finish() }
            return .pull(incarnation: peer.incarnation, since: since)
        default:
            since = peer.checkpoint ?? 0
            if peer.checkpoint == nil && local.head > 0 { round.checkpointFallbacks += 1 }
            round.through = since
            guard since < local.head else { return finish() }
            return .push(since: since, versionVector: peer.versionVector)
        }
    }

    /// A pull's batch arrived and decoded; checks that it answers the
    /// request.
    public mutating func received(_ batch: EntryBatch) throws(SyncError) -> Action {
        guard direction == .pull, let peer else {
            throw SyncError(.protocolViolation, "a batch arrived that no pull asked for")
        }
        guard batch.storeID == peer.storeID, batch.incarnation == peer.incarnation else {
            throw SyncError(
                .wrongPeer,
                "the batch comes from store \(batch.storeID), not from the peer that was asked (\(peer.storeID))"
            )
        }
        guard batch.from == since else {
            throw SyncError(
                .protocolViolation,
                "the batch starts after entry \(batch.from), but entries after \(since) were asked for"
            )
        }
        round.batches += 1
        round.peerHead = max(round.peerHead, batch.head)
        return .apply
    }

    /// The pulled batch was applied (or held nothing new).
    public mutating func applied(_ receipt: BatchReceipt, hasMore: Bool) -> Action {
        record(receipt)
        guard let peer, hasMore, since < round.peerHead else { return finish() }
        return .pull(incarnation: peer.incarnation, since: since)
    }

    /// The pushed batch was applied by the peer.
    public mutating func pushed(_ receipt: BatchReceipt, hasMore: Bool) -> Action {
        round.batches += 1
        record(receipt)
        guard let peer, hasMore else { return finish() }
        return .push(since: since, versionVector: peer.versionVector)
    }

    /// The receiver's checkpoint moved (another exchange applied entries
    /// first), or the peer's incarnation changed: identify again.
    public mutating func restart(after error: SyncError) throws(SyncError) -> Action {
        restarts += 1
        guard restarts <= Self.maximumRestarts else { throw error }
        round.restarts += 1
        return .identify
    }

    private mutating func record(_ receipt: BatchReceipt) {
        round.applied += receipt.applied
        round.skipped += receipt.skipped
        if receipt.applied == 0 && receipt.skipped > 0 { round.redundantBatches += 1 }
        since = receipt.checkpoint
        round.through = since
    }

    private mutating func finish() -> Action {
        .finished(round)
    }
}

/// What one round of replication did.
public struct SyncRound: Sendable, Hashable, Codable {
    /// Pull or push.
    public var direction: SyncDirection
    /// The peer's store id, once known.
    public var peerStoreID: StoreID?
    /// The peer's head as last seen.
    public var peerHead: UInt64 = 0
    /// The position the receiver's checkpoint reached (the peer's for a
    /// pull, this store's for a push).
    public var through: UInt64 = 0
    /// Batches exchanged.
    public var batches = 0
    /// Entries the receiver appended.
    public var applied = 0
    /// Entries the receiver held already.
    public var skipped = 0
    /// Batches whose every entry the receiver held already.
    public var redundantBatches = 0
    /// Rounds that started from the version vector because the checkpoint
    /// was missing or from another incarnation.
    public var checkpointFallbacks = 0
    /// Times the round identified again (moved checkpoint, new incarnation).
    public var restarts = 0

    public init(direction: SyncDirection) {
        self.direction = direction
    }
}
