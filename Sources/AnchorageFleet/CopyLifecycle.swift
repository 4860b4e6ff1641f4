/// What one node does for its copy of one store, as a value type: the
/// placement and the work's own outcomes go in as events, the work to start
/// comes out as effects. The node runs the effects (a follower, the steps
/// of a promotion) and feeds their outcomes back; nothing here waits, reads
/// a clock or touches the network, so every transition — and every race
/// between a placement change and work still running — is tested without
/// a fleet.
///
/// A copy is **following** its primary (a replica, or a joining copy until
/// it reports it caught up), **promoting** (the steps of docs/fleet.md,
/// "Epochs"), **leading** (it takes writes), or **stopped** (its work
/// stopped by the node: its key shredded or being re-sealed). Each
/// placement change starts a new **generation**; outcomes carry the
/// generation of the work that produced them, and an outcome of an earlier
/// one changes nothing: a promotion overtaken by a handoff, a follower
/// cancelled by a new primary, cannot act on a placement that no longer
/// holds.
///
/// ```swift
/// var copy = CopyLifecycle(store: "alice", node: "n2")
/// let effects = copy.place(placement, predecessorGone: true)   // [.stopWork, .waitLockDelay(generation: 1)]
/// copy.handle(.lockDelayPassed, generation: 1)                  // [.beginEpoch(3, generation: 1)]
/// ```
public struct CopyLifecycle: Sendable, Hashable {
    /// Where a promotion is.
    public enum PromotionStep: Sendable, Hashable {
        /// Waiting the lock-delay past a predecessor whose lease ended.
        case lockDelay
        /// Appending (or finding) the epoch entry.
        case beginning
        /// Waiting until another copy has pulled the epoch entry at `seq`.
        case awaitingCopy(seq: UInt64)
        /// Pulling from a copy holding the epoch what this one lacks.
        case catchingUp
    }

    public enum Phase: Sendable, Hashable {
        /// No placement names this node (yet): nothing runs.
        case idle
        /// A replica (or a joining copy) following `primary`.
        case following(primary: String, joining: Bool)
        case promoting(PromotionStep)
        /// Leading: writes are taken.
        case leading
        /// The node stopped the copy's work; a ``restart()`` starts it again.
        case stopped
        /// Another copy holds a higher epoch than the placement gives this
        /// node: it waits for the placement to catch up.
        case superseded
    }

    /// Work for the node to start (each running until the next
    /// ``Effect/stopWork``), and what it tells others.
    public enum Effect: Sendable, Hashable {
        /// Stop (cancel, and wait for) whatever runs for this copy.
        case stopWork
        /// Create the copy if the node does not hold it.
        case create
        /// Follow `primary` live (pushing first what only this copy holds);
        /// a joining copy first pulls until caught up and reports
        /// ``Event/caughtUpAndReported``.
        case follow(primary: String, epoch: Int64, joining: Bool, generation: Int)
        /// Wait the lock-delay, then report ``Event/lockDelayPassed``.
        case waitLockDelay(generation: Int)
        /// Append the epoch entry (or find it): ``Event/epochBegun(seq:)``,
        /// ``Event/higherEpochHeld``, or ``Event/failed``.
        case beginEpoch(Int64, generation: Int)
        /// Wait until another copy has pulled the entry at `seq`:
        /// ``Event/epochPulled``.
        case awaitCopy(seq: UInt64, generation: Int)
        /// Pull what a copy holding the epoch has: ``Event/caughtUp``.
        case catchUp(epoch: Int64, generation: Int)
        /// Take writes at `epoch` (and count a promotion when `promoted`).
        case lead(epoch: Int64, promoted: Bool)
        /// Stop taking writes.
        case stopLeading
        /// Erase the copy: the placement no longer names this node.
        case drop
        /// Try the step again after a pause: the same effect, later.
        indirect case retry(Effect, generation: Int)
    }

    /// What happened, from the work the effects started.
    public enum Event: Sendable, Hashable {
        case lockDelayPassed
        case epochBegun(seq: UInt64)
        case higherEpochHeld
        case epochPulled
        case caughtUp
        case caughtUpAndReported
        /// The step failed (etcd or a copy out of reach): try again.
        case failed
    }

    public let store: String
    public let node: String
    public private(set) var phase: Phase = .idle
    /// The placement's epoch the phase is for.
    public private(set) var epoch: Int64 = 0
    /// The placement change the current work belongs to.
    public private(set) var generation = 0
    /// Whether a joining copy has reported it caught up at ``epoch``.
    public private(set) var reported = false

    public init(store: String, node: String) {
        self.store = store
        self.node = node
    }

    /// Whether the copy takes writes at `epoch` now.
    public func leads(at epoch: Int64) -> Bool { phase == .leading && self.epoch == epoch }

    /// The primary a following copy follows.
    public var following: String? {
        if case .following(let primary, _) = phase { return primary }
        return nil
    }

    /// The store's placement as the node sees it now (`nil`: it has none,
    /// or it names other nodes). `predecessorGone`: some copy's node has no
    /// lease (a promotion after an expiry waits the lock-delay).
    public mutating func place(_ placement: Placement?, predecessorGone: Bool = false) -> [Effect] {
        guard let placement, let role = placement.role(of: node) else {
            guard phase != .idle else { return [] }
            let leading = phase == .leading
            phase = .idle
            epoch = 0
            generation += 1
            return (leading ? [.stopLeading] : []) + [.stopWork, .drop]
        }
        if phase == .stopped { return [] }  // restarted by the node, which then places again
        switch role {
        case .primary:
            if epoch == placement.epoch, phase == .leading || phase == .superseded || isPromoting { return [] }
            let leading = phase == .leading
            epoch = placement.epoch
            generation += 1
            reported = false
            let first: [Effect] = (leading ? [.stopLeading] : []) + [.stopWork, .create]
            if placement.epoch > 1, predecessorGone {
                phase = .promoting(.lockDelay)
                return first + [.waitLockDelay(generation: generation)]
            }
            phase = .promoting(.beginning)
            return first + [.beginEpoch(placement.epoch, generation: generation)]
        case .replica, .joining:
            let joining = role == .joining
            if epoch == placement.epoch, phase == .following(primary: placement.primary, joining: joining) {
                return []
            }
            // A joining copy counted as a replica goes on following as it was.
            if epoch == placement.epoch, phase == .following(primary: placement.primary, joining: true), !joining {
                phase = .following(primary: placement.primary, joining: false)
                return []
            }
            let leading = phase == .leading
            epoch = placement.epoch
            generation += 1
            reported = false
            phase = .following(primary: placement.primary, joining: joining)
            return (leading ? [.stopLeading] : []) + [
                .stopWork, .create,
                .follow(primary: placement.primary, epoch: placement.epoch, joining: joining, generation: generation),
            ]
        }
    }

    private var isPromoting: Bool {
        if case .promoting = phase { return true }
        return false
    }

    /// An outcome of the work started for `generation`.
    public mutating func handle(_ event: Event, generation: Int) -> [Effect] {
        guard generation == self.generation else { return [] }  // work of a placement that no longer holds
        switch (phase, event) {
        case (.promoting(.lockDelay), .lockDelayPassed):
            phase = .promoting(.beginning)
            return [.beginEpoch(epoch, generation: generation)]
        case (.promoting(.beginning), .epochBegun(let seq)):
            guard epoch > 1 else {
                phase = .leading
                return [.lead(epoch: epoch, promoted: false)]
            }
            phase = .promoting(.awaitingCopy(seq: seq))
            return [.awaitCopy(seq: seq, generation: generation)]
        case (.promoting(.beginning), .higherEpochHeld):
            phase = .superseded
            return []
        case (.promoting(.awaitingCopy), .epochPulled):
            phase = .promoting(.catchingUp)
            return [.catchUp(epoch: epoch, generation: generation)]
        case (.promoting(.catchingUp), .caughtUp):
            phase = .leading
            return [.lead(epoch: epoch, promoted: true)]
        case (.promoting(.beginning), .failed):
            return [.retry(.beginEpoch(epoch, generation: generation), generation: generation)]
        case (.promoting(.awaitingCopy(let seq)), .failed):
            return [.retry(.awaitCopy(seq: seq, generation: generation), generation: generation)]
        case (.promoting(.catchingUp), .failed):
            return [.retry(.catchUp(epoch: epoch, generation: generation), generation: generation)]
        case (.following(_, true), .caughtUpAndReported):
            reported = true
            return []
        default:
            return []
        }
    }

    /// The node stops the copy's work (its key shredded, or re-sealing it).
    public mutating func stop() -> [Effect] {
        guard phase != .idle, phase != .stopped else { return [] }
        let leading = phase == .leading
        phase = .stopped
        generation += 1
        return (leading ? [.stopLeading] : []) + [.stopWork]
    }

    /// Starts the work again after ``stop()``: the next ``place(_:predecessorGone:)``
    /// begins it as new.
    public mutating func restart() {
        guard phase == .stopped else { return }
        phase = .idle
        epoch = 0
    }
}
