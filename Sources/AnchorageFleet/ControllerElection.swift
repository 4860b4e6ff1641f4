public import Etcd

/// The right to place stores, held by one node at a time: the key
/// `controller`, created with the node's lease. Its create revision is the
/// claim's **token**, and every transaction a controller makes also
/// compares it, so a controller that lost its lease (paused past its TTL,
/// cut off) changes nothing even if it still believes it decides.
///
/// ```swift
/// let election = ControllerElection(etcd: etcd, nodeID: "n1")
/// if let claim = try await election.campaign(lease: membership.lease!) {
///     try await placements.create("alice", by: claim)
/// }
/// ```
public struct ControllerElection: Sendable {
    let etcd: EtcdClient
    let keys: FleetKeys
    public let nodeID: String

    public init(etcd: EtcdClient, keys: FleetKeys = FleetKeys(), nodeID: String) {
        self.etcd = etcd
        self.keys = keys
        self.nodeID = nodeID
    }

    /// A controller's claim: who holds it and the token its transactions compare.
    public struct Claim: Sendable, Hashable {
        public var nodeID: String
        public var token: Int64
    }

    /// Becomes the controller if nobody is, with `lease` (the node's):
    /// returns the claim, or `nil` when another node holds it (see
    /// ``holder()``). A node that holds it already gets its claim back.
    public func campaign(lease: Int64) async throws -> Claim? {
        try await campaignOrHolder(lease: lease).claim
    }

    /// Like ``campaign(lease:)``, and says who holds the claim when it is
    /// another node (`nil` in both: nobody could be read).
    public func campaignOrHolder(lease: Int64) async throws -> (claim: Claim?, holder: Claim?) {
        let key = keys.controller
        let attempt = EtcdTxn(
            compare: [EtcdCompare(key, .equal, .createRevision(0))],
            success: [.put(key, value: Array(nodeID.utf8), lease: lease), .range(.key(key))],
            failure: [.range(.key(key))]
        )
        let answer: [EtcdKeyValue]
        do {
            answer = try await etcd.txn(attempt).firstRange
        } catch let error as EtcdError where error.code == .noAnswer {
            // It may have been taken: the key says by whom.
            answer = try await etcd.range(.key(key)).kvs
        }
        guard let holder = answer.first else { return (nil, nil) }
        let claim = Claim(nodeID: String(decoding: holder.value, as: UTF8.self), token: holder.createRevision)
        guard holder.value == Array(nodeID.utf8), holder.lease == lease else { return (nil, claim) }
        return (claim, claim)
    }

    /// Ends another node's claim, if it still holds it (a controller its
    /// peers cannot reach): its transactions fail from then on, whatever
    /// it believes, and any node may campaign. Returns whether it ended.
    public func depose(_ claim: Claim) async throws -> Bool {
        try await etcd.txn(
            EtcdTxn(compare: [keys.fence(claim)], success: [.delete(.key(keys.controller))])
        ).succeeded
    }

    /// Who holds the claim now, if anyone.
    public func holder() async throws -> Claim? {
        guard let kv = try await etcd.range(.key(keys.controller)).kvs.first else { return nil }
        return Claim(nodeID: String(decoding: kv.value, as: UTF8.self), token: kv.createRevision)
    }

    /// Gives the claim up (on a clean shutdown), if it is still this one.
    public func resign(_ claim: Claim) async throws {
        _ = try await etcd.txn(
            EtcdTxn(
                compare: [keys.fence(claim)],
                success: [.delete(.key(keys.controller))]
            )
        )
    }
}

extension FleetKeys {
    /// The comparison that makes a transaction apply only while `claim`
    /// holds: the controller key still has the claim's create revision.
    func fence(_ claim: ControllerElection.Claim) -> EtcdCompare {
        EtcdCompare(controller, .equal, .createRevision(claim.token))
    }
}
