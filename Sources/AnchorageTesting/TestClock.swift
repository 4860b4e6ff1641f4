public import AnchorageModel
import Synchronization

/// A clock that moves only when a test moves it, so back-off, timeouts and
/// deadlines are tested without waiting and without fixed sleeps that could
/// pass by luck.
///
/// Code under test sleeps on it like on any `Clock`; the test sees how many
/// sleepers are parked (so it knows the code is waiting, not merely slow)
/// and advances time to wake them.
///
/// ```swift
/// let clock = TestClock()
/// var configuration = PeerReplicator.Configuration()
/// configuration.clock = clock
/// …
/// try await clock.waitForSleepers(1)      // the replicator is backing off
/// clock.advance(by: .seconds(10))         // and now it retries
/// ```
public final class TestClock: Clock, Sendable {
    /// A point on a test clock: the time since the clock was made.
    public typealias Instant = OffsetInstant

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }

    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// How long from now each sleeper still waits, shortest first.
    public var remaining: [Duration] {
        state.withLock { state in state.sleepers.values.map { state.now.duration(to: $0.deadline) }.sorted() }
    }

    /// Returns once `deadline` is reached by ``advance(by:)``; throws
    /// `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: (any Error)?? = state.withLock { state in
                    if Task.isCancelled { return .some(CancellationError()) }
                    if deadline <= state.now { return .some(nil) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .none
                }
                switch resumeNow {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline has
    /// come, earliest first.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock does not go back")
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Waits (in real time, up to `timeout` seconds) until at least `count`
    /// tasks are asleep on this clock: the code under test has reached its
    /// wait. Throws when they do not arrive.
    public func waitForSleepers(_ count: Int, timeout: Double = 60) async throws {
        try await waitForSleepers(timeout: timeout, "\(count) sleepers") { $0.count >= count }
    }

    /// Waits (in real time, up to `timeout` seconds) until the sleepers
    /// still wait exactly `remaining` (shortest first): tells one wait (a
    /// back-off of 10 s) from another (a request's timeout of 30 s).
    public func waitForSleepers(remaining expected: [Duration], timeout: Double = 60) async throws {
        try await waitForSleepers(timeout: timeout, "sleepers waiting \(expected)") { $0 == expected }
    }

    private func waitForSleepers(
        timeout: Double,
        _ what: String,
        until condition: ([Duration]) -> Bool
    ) async throws {
        do {
            try await waitUntil(what, timeout: timeout) { condition(remaining) }
        } catch {
            throw TestClockError(description: "no \(what) after \(timeout) s; waiting: \(remaining)")
        }
    }
}

/// The sleepers a test waited for did not arrive.
public struct TestClockError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}
