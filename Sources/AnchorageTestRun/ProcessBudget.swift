import Foundation
import Synchronization

/// How many child processes' worth of work the test process lets run at
/// once: one permit per core (`ANCHORAGE_TEST_PROCESSES` overrides it). A
/// test that starts processes (a node, an etcd cluster, a fleet) holds its
/// permits from start to end, all taken at once so that two tests never
/// each hold half of what both need; waiters are served in order.
///
/// Swift Testing runs every test at once; without this, a 2-core machine
/// would start a dozen nodes and etcd members together, and each would
/// miss its deadlines while the others ran.
///
/// ```swift
/// try await ProcessBudget.shared.withPermits(2) { try await startFleet() }
/// ```
public final class ProcessBudget: Sendable {
    /// The test process's budget.
    public static let shared = ProcessBudget(capacity: ProcessBudget.defaultCapacity)

    /// The permits there are.
    public let capacity: Int

    private struct Waiter {
        let permits: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var available: Int
        var waiters: [Waiter] = []
    }

    private let state: Mutex<State>

    /// A budget of `capacity` permits (at least one).
    public init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = Mutex(State(available: max(1, capacity)))
    }

    static var defaultCapacity: Int {
        if let text = ProcessInfo.processInfo.environment["ANCHORAGE_TEST_PROCESSES"], let count = Int(text) {
            return count
        }
        return ProcessInfo.processInfo.activeProcessorCount
    }

    /// Permits free now.
    public var available: Int { state.withLock { $0.available } }

    /// Asks waiting for their permits now.
    public var waiting: Int { state.withLock { $0.waiters.count } }

    /// Runs `body` holding `permits` (at most the capacity), taken together
    /// once they are all free, in the order they were asked for.
    public func withPermits<R>(_ permits: Int, _ body: @Sendable () async throws -> R) async rethrows -> R {
        let count = min(max(1, permits), capacity)
        await acquire(count)
        defer { release(count) }
        return try await body()
    }

    private func acquire(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.waiters.isEmpty && state.available >= count {
                    state.available -= count
                    return true
                }
                state.waiters.append(Waiter(permits: count, continuation: continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func release(_ count: Int) {
        let woken = state.withLock { state -> [Waiter] in
            state.available += count
            var woken: [Waiter] = []
            while let first = state.waiters.first, first.permits <= state.available {
                state.available -= first.permits
                woken.append(state.waiters.removeFirst())
            }
            return woken
        }
        for waiter in woken { waiter.continuation.resume() }
    }
}
