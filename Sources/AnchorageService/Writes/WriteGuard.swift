public import Anchorage
import AnchorageLog

/// What every write into a store must keep, whoever sends it — an HTTP
/// request, a CLI command, a replica's push: the store's storage quota,
/// acknowledgement by a replica, and in a fleet the lease of the epoch this
/// node leads the store at.
///
/// Checked once before the write (a refusal stores nothing) and once after
/// it (a refusal means the write is stored here but not acknowledged).
///
/// ```swift
/// var writes = WriteGuard()
/// writes.storageQuota = WriteGuard.StorageQuota(store: "alice", bytes: 1 << 30)
/// let saved = try await SampleWrites.save(batch, to: store, guarded: writes)
/// ```
public struct WriteGuard: Sendable {
    /// A store's storage quota: once its files use `bytes`, writes that add
    /// data are refused (`quotaExceeded`). The write that crosses it goes
    /// through; deletes always do.
    public struct StorageQuota: Sendable, Hashable {
        /// The store's id, for the message.
        public var store: String
        public var bytes: Int

        public init(store: String, bytes: Int) {
            self.store = store
            self.bytes = bytes
        }
    }

    /// What a write does, which decides what it must keep.
    public enum Write: Sendable, Hashable {
        /// Saves objects: every guarantee.
        case save
        /// Deletes objects: every guarantee but the quota.
        case delete
        /// Applies entries a peer sent: the quota only (epochs are checked
        /// by the replication protocol itself).
        case replication
    }

    /// `nil`: no quota.
    public var storageQuota: StorageQuota?
    /// What the store's replicas confirmed (`nil`: the store has none that
    /// report here).
    public var followers: ReplicaFollowers?
    /// When set, a write is acknowledged only once a replica confirmed it,
    /// waiting at most this long; refused before it is stored when no
    /// replica asked within it.
    public var replicaAcknowledgement: Duration?
    /// In a fleet: the lease this node leads the store under.
    public var lease: (any WriteLease)?

    public init(
        storageQuota: StorageQuota? = nil,
        followers: ReplicaFollowers? = nil,
        replicaAcknowledgement: Duration? = nil,
        lease: (any WriteLease)? = nil
    ) {
        self.storageQuota = storageQuota
        self.followers = followers
        self.replicaAcknowledgement = replicaAcknowledgement
        self.lease = lease
    }

    /// Refuses a write before anything is stored: the lease is not held,
    /// the quota is reached, or writes wait for a replica and none asked
    /// within the bound.
    public func beforeWrite(_ write: Write, to store: HKHealthStore) throws(ServiceError) {
        if write != .replication { try checkLease() }
        if write != .delete, let storageQuota {
            let used: Int
            do { used = try store.eventLog().storedBytes() } catch {
                throw ServiceError(.storageFailed, "the size of store \(storageQuota.store) cannot be read: \(error)")
            }
            guard used < storageQuota.bytes else {
                throw ServiceError(
                    .quotaExceeded,
                    "the store \(storageQuota.store) uses \(used) bytes and its quota is \(storageQuota.bytes): "
                        + "delete samples, or ask the node's administrator for a larger quota"
                )
            }
        }
        guard write != .replication, let bound = replicaAcknowledgement, let followers else { return }
        guard followers.isFollowed(within: bound) else {
            throw ServiceError(
                .replicationUnavailable,
                "writes here are answered only once a replica holds them, and no replica has pulled from this store "
                    + "in the last \(Self.words(bound)); nothing was stored: start or reconnect a replica, then send it again",
                retryAfter: bound
            )
        }
    }

    /// Refuses to acknowledge a write that is stored: no replica confirmed
    /// it within the bound, or this node stopped leading the store while
    /// it was written.
    public func afterWrite(_ write: Write, to store: HKHealthStore) async throws(ServiceError) {
        guard write != .replication else { return }
        if let bound = replicaAcknowledgement, let followers {
            let head: UInt64
            do { head = try store.eventLog().head.seq } catch {
                throw ServiceError(.storageFailed, "the store's log cannot be read: \(error)")
            }
            guard await followers.waitForAcknowledgement(of: head, timeout: bound) else {
                throw ServiceError(
                    .replicationUnavailable,
                    "the write is stored on this node, but no replica confirmed it within \(Self.words(bound)), so it "
                        + "is not acknowledged: it reaches the replicas when one pulls, and is lost if this node fails "
                        + "first; read it back before sending it again (objects that exist are refused as duplicates)",
                    retryAfter: bound
                )
            }
        }
        // The write (and the wait) may outlast this node's lease: it
        // acknowledges only while it still leads the store.
        do { try checkLease() } catch {
            throw ServiceError(
                error.code,
                "the write is stored on this node, but this node stopped leading the store before it could "
                    + "acknowledge it: read it back before sending it again (objects that exist are refused as "
                    + "duplicates): " + error.message,
                retryAfter: error.retryAfter ?? .seconds(1)
            )
        }
    }

    /// Refuses when this node may no longer lead the store: its lease says
    /// so, or a replica holds a higher epoch.
    private func checkLease() throws(ServiceError) {
        guard let lease else { return }
        try lease.check()
        if let followers, followers.epochSeen > lease.epoch {
            throw ServiceError(
                .notPrimary,
                "a copy of this store holds a higher fleet epoch than this node leads it at: this node is no "
                    + "longer its primary; ask again in a moment",
                retryAfter: .seconds(1)
            )
        }
    }

    private static func words(_ bound: Duration) -> String {
        let (seconds, attoseconds) = bound.components
        return attoseconds == 0 ? "\(seconds) s" : "\(Double(seconds) + Double(attoseconds) / 1e18) s"
    }
}
