public import Anchorage
import Synchronization

/// What a store's replicas have confirmed, learned from their own requests:
/// a replica that pulls sends the position it has applied (`since`), and one
/// that follows live waits after it (`sync/wait?after=`). That position is
/// its acknowledgement — Kafka's rule, the follower's fetch position — so
/// confirming a write costs no message of its own.
///
/// A ``WriteGuard`` with a replica-acknowledgement bound answers a save or
/// delete only once a replica has confirmed it.
///
/// ```swift
/// followers.heard(position: pull.since)                 // a replica's request
/// let confirmed = await followers.waitForAcknowledgement(of: head, timeout: .seconds(5))
/// ```
public final class ReplicaFollowers: Sendable {
    private struct Waiter {
        let id: UInt64
        let seq: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        /// The highest position a replica confirmed.
        var acknowledged: UInt64 = 0
        /// When a replica last asked (a reading of the clock).
        var lastContact: Duration?
        /// Live waits of replicas open now: each is a replica following.
        var openWaits = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// The highest fleet epoch a replica's request carried.
        var epochSeen: UInt64 = 0
    }

    private let state = Mutex(State())
    private let clock: StoreClock

    public init(clock: StoreClock) {
        self.clock = clock
    }

    /// A replica asked, having applied this store's log up to `position`.
    public func heard(position: UInt64) {
        let now = clock.now()
        let confirmed: [Waiter] = state.withLock { state in
            state.lastContact = now
            guard position > state.acknowledged else { return [] }
            state.acknowledged = position
            let ready = state.waiters.filter { $0.seq <= position }
            state.waiters.removeAll { $0.seq <= position }
            return ready
        }
        for waiter in confirmed { waiter.continuation.resume(returning: true) }
    }

    /// A replica's request carried fleet epoch `epoch`: when it is higher
    /// than this copy's, this copy is deposed (``epochSeen``).
    public func saw(epoch: UInt64?) {
        guard let epoch else { return }
        state.withLock { $0.epochSeen = max($0.epochSeen, epoch) }
    }

    /// The highest position a replica confirmed, and how many answers
    /// wait for a replica now.
    public var progress: (acknowledged: UInt64, waiting: Int) {
        state.withLock { ($0.acknowledged, $0.waiters.count) }
    }

    /// The highest fleet epoch a replica's request carried (0: none).
    public var epochSeen: UInt64 { state.withLock { $0.epochSeen } }

    /// Whether a replica follows the store: one waits live for its next
    /// write now, or asked within `bound`.
    public func isFollowed(within bound: Duration) -> Bool {
        let now = clock.now()
        return state.withLock { state in
            state.openWaits > 0 || state.lastContact.map { now - $0 <= bound } ?? false
        }
    }

    /// Runs a replica's live wait (`sync/wait`), counted as following the
    /// store while it lasts.
    public func waiting<T>(_ body: () async throws -> T) async rethrows -> T {
        state.withLock { $0.openWaits += 1 }
        defer {
            let now = clock.now()
            state.withLock { state in
                state.openWaits -= 1
                state.lastContact = now
            }
        }
        return try await body()
    }

    /// Waits until a replica has confirmed position `seq`, at most
    /// `timeout` (on the node's clock); returns whether one did.
    public func waitForAcknowledgement(of seq: UInt64, timeout: Duration) async -> Bool {
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }
        return await withCheckedContinuation { continuation in
            let id: UInt64? = state.withLock { state in
                guard state.acknowledged < seq else { return nil }
                state.nextID += 1
                state.waiters.append(Waiter(id: state.nextID, seq: seq, continuation: continuation))
                return state.nextID
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            // Started once the waiter is registered, so it cannot fire first.
            timer = Task { [clock] in
                try? await clock.sleep(timeout)
                self.expire(id)
            }
        }
    }

    /// Ends a wait that timed out, if it still waits.
    private func expire(_ id: UInt64) {
        let expired: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        expired?.continuation.resume(returning: false)
    }
}
