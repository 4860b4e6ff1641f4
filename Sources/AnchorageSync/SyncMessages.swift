public import AnchorageLog

/// The replication protocol's version; docs/sync-protocol.md specifies it.
public enum SyncProtocol {
    /// The version this build speaks.
    public static let version = 1

    /// What a store answering an identity can do beyond version 1, named in
    /// its identity's ``PeerIdentity/features``.
    public enum Feature {
        /// A pull may wait for entries (``PullRequest/waitMilliseconds``):
        /// a live follower's wait and pull in one request.
        public static let waitingPull = "waitingPull"
    }

    /// The features this build's endpoints serve.
    public static let features = [Feature.waitingPull]
}

/// Who a store is and what it holds: the first message of every exchange.
///
/// ```swift
/// let mine = try PeerIdentity(of: log)
/// let theirs = try await transport.identity(of: mine)
/// ```
public struct PeerIdentity: Codable, Sendable, Hashable {
    /// The protocol version the store speaks.
    public var protocolVersion: Int
    /// The store's permanent id.
    public var storeID: StoreID
    /// The store's incarnation: it changes when a backup is restored.
    public var incarnation: UInt64
    /// The store's head (its last position).
    public var head: UInt64
    /// For each origin, the highest counter the store holds.
    public var versionVector: [StoreID: UInt64]
    /// In an answer: how far the answering store has applied the asker's
    /// log (the asker's position; absent when it holds no checkpoint for
    /// the asker's current incarnation). A pusher resumes from here.
    public var checkpoint: UInt64?
    /// The highest fleet epoch the store holds (docs/fleet.md, "Epochs");
    /// absent for a store outside a fleet. A replica never follows a
    /// store whose epoch is lower than its own.
    public var epoch: UInt64?
    /// In an answer: what the answering store can do beyond version 1
    /// (``SyncProtocol/Feature``); absent from older nodes, which serve
    /// none.
    public var features: [String]?
    /// The key id the store is sealed under (docs/log-format.md, "Sealed
    /// entries"); absent for a store that does not seal. Two stores
    /// replicate only when they name the same one: the stores of one
    /// person share its data key.
    public var keyID: KeyID?

    public init(
        protocolVersion: Int = SyncProtocol.version,
        storeID: StoreID,
        incarnation: UInt64,
        head: UInt64,
        versionVector: [StoreID: UInt64],
        checkpoint: UInt64? = nil,
        epoch: UInt64? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.storeID = storeID
        self.incarnation = incarnation
        self.head = head
        self.versionVector = versionVector
        self.checkpoint = checkpoint
        self.epoch = epoch
    }

    /// The identity of `log` now.
    public init(of log: EventLog) throws {
        self.init(
            storeID: log.storeID,
            incarnation: log.incarnation,
            head: log.head.seq,
            versionVector: try log.versionVector()
        )
        keyID = log.sealingKeyID
    }

    /// Refuses a peer whose store is sealed under another key id (or is
    /// sealed when this one is not, or the reverse).
    func checkSealing(of peer: PeerIdentity) throws(SyncError) {
        guard peer.keyID != keyID else { return }
        func describe(_ id: KeyID?) -> String { id.map { "sealed under data key \($0)" } ?? "not sealed" }
        throw SyncError(
            .wrongPeer,
            "the peer's store \(peer.storeID) is \(describe(peer.keyID)), and this store \(storeID) is "
                + "\(describe(keyID)); only the stores of one person, sealed under one data key, replicate"
        )
    }
}

/// A request for the entries of a peer's log after one of its positions.
public struct PullRequest: Codable, Sendable, Hashable {
    /// The peer's incarnation the position belongs to.
    public var incarnation: UInt64
    /// The peer's position the batch starts after (0: the beginning).
    public var since: UInt64
    /// The most entries to send.
    public var maxEntries: Int
    /// The most bytes to send (at least one entry is sent).
    public var maxBytes: Int
    /// The puller's version vector: entries it covers are not sent.
    public var versionVector: [StoreID: UInt64]
    /// The puller's highest fleet epoch, when it is a fleet copy: a store
    /// holding a lower one is no longer the primary, and refuses the pull
    /// (``SyncError/Code/staleEpoch``) rather than count it as an
    /// acknowledgement.
    public var epoch: UInt64?
    /// When set and the store holds nothing after ``since``, the answer
    /// waits up to this long (bounded by the store's limit) for an entry,
    /// then sends what arrived: a live follower's wait and pull in one
    /// request. Only for a store whose identity names
    /// ``SyncProtocol/Feature/waitingPull``; others answer at once.
    public var waitMilliseconds: Int?

    public init(
        incarnation: UInt64,
        since: UInt64,
        maxEntries: Int,
        maxBytes: Int,
        versionVector: [StoreID: UInt64],
        epoch: UInt64? = nil,
        waitMilliseconds: Int? = nil
    ) {
        self.incarnation = incarnation
        self.since = since
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.versionVector = versionVector
        self.epoch = epoch
        self.waitMilliseconds = waitMilliseconds
    }
}

/// What the receiver of a batch did with it.
public struct BatchReceipt: Codable, Sendable, Hashable {
    /// Entries appended to the receiver's log.
    public var applied: Int
    /// Entries the receiver held already.
    public var skipped: Int
    /// The sender's position the receiver's checkpoint now stands at.
    public var checkpoint: UInt64

    public init(applied: Int, skipped: Int, checkpoint: UInt64) {
        self.applied = applied
        self.skipped = skipped
        self.checkpoint = checkpoint
    }
}
