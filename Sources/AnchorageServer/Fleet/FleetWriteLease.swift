import AnchorageService

/// A fleet node's right to write a store it leads: held while the node
/// leads it at ``epoch`` and holds its fleet lease (``FleetCopies``).
///
/// ```swift
/// var writes = WriteGuard(followers: followers)
/// writes.lease = copies.lease("alice", epoch: 3)
/// ```
struct FleetWriteLease: WriteLease {
    let copies: FleetCopies
    let store: String
    let fleetEpoch: Int64

    init(copies: FleetCopies, store: String, epoch: Int64) {
        self.copies = copies
        self.store = store
        fleetEpoch = epoch
    }

    var epoch: UInt64 { UInt64(max(fleetEpoch, 0)) }

    func check() throws(ServiceError) {
        try copies.check(store, epoch: fleetEpoch)
    }
}
