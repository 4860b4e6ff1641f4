import Foundation
import Synchronization

/// At most `permits` pieces of work at once; the rest wait their turn, first
/// come first served. What keeps expensive reads (a statistics request at
/// the bucket cap) from taking every core and every megabyte together.
///
/// ```swift
/// let limiter = WorkLimiter(permits: 2)
/// let page = try await limiter.run { try await computeStatistics() }
/// ```
final class WorkLimiter: Sendable {
    private struct State {
        var available: Int
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(permits: Int) {
        state = Mutex(State(available: max(1, permits)))
    }

    /// Runs `work` once a permit is free; a task cancelled while waiting
    /// throws `CancellationError` without running it.
    func run<R: Sendable>(_ work: () async throws -> R) async throws -> R {
        try await acquire()
        defer { release() }
        return try await work()
    }

    private func acquire() async throws {
        let id = state.withLock { state -> UInt64? in
            if state.available > 0 {
                state.available -= 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state -> Bool in
                    if Task.isCancelled { return true }
                    state.waiters.append((id, continuation))
                    return false
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Free permits and tasks waiting for one, as tests observe them.
    var permits: (available: Int, waiting: Int) {
        state.withLock { ($0.available, $0.waiters.count) }
    }

    private func release() {
        let next = state.withLock { state in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil as CheckedContinuation<Void, any Error>?
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
