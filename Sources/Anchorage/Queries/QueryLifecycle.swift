import AnchorageModel
import Foundation
import Synchronization

/// A query's execution state.
final class QueryLifecycle: Sendable {
    private struct State {
        var executed = false
        var stopped = false
        var delivered = false
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// Held while a handler runs: handler calls of one query never overlap.
    /// Recursive, so a handler may call `execute` or `stop` on its own query.
    private let delivery = NSRecursiveLock()
    /// A seam for tests: awaited before a long-running query reads each
    /// committed batch, so a test can hold the query back while batches
    /// pile up (a consumer that lags) without blocking a thread.
    let beforeEachBatch = Mutex<(@Sendable () async -> Void)?>(nil)

    /// Awaits ``beforeEachBatch``, if a test set it.
    func batchArrived() async {
        if let pause = beforeEachBatch.withLock({ $0 }) { await pause() }
    }

    /// Marks the query executed; `false` if it already was.
    func markExecuted() -> Bool {
        state.withLock { state in
            guard !state.executed else { return false }
            state.executed = true
            return true
        }
    }

    /// Records the task running the query, cancelling it at once if the
    /// query was stopped meanwhile.
    func attach(_ task: Task<Void, Never>) {
        let stopped = state.withLock { state in
            state.task = task
            return state.stopped
        }
        if stopped { task.cancel() }
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    var hasExecuted: Bool { state.withLock { $0.executed } }

    /// Whether a handler was called (the first results were delivered).
    var hasDelivered: Bool { state.withLock { $0.delivered } }

    func stop() {
        let task = state.withLock { state in
            state.stopped = true
            return state.task
        }
        task?.cancel()
    }

    func deliver(_ body: () -> Void) {
        delivery.lock()
        defer { delivery.unlock() }
        guard !isStopped else { return }
        state.withLock { $0.delivered = true }
        body()
    }

    /// Calls `body` even after a stop (for the error of a second `execute`).
    func deliverAlways(_ body: () -> Void) {
        delivery.lock()
        defer { delivery.unlock() }
        body()
    }
}

/// The queries one `HKHealthStore` is running, so `close()` can stop them.
final class QueryRegistry: Sendable {
    private struct State {
        var running: [ObjectIdentifier: HKQuery] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    func add(_ query: HKQuery) {
        state.withLock { $0.running[ObjectIdentifier(query)] = query }
    }

    func remove(_ query: HKQuery) {
        _ = state.withLock { $0.running.removeValue(forKey: ObjectIdentifier(query)) }
    }

    /// Whether `query` is still running: its task has not ended.
    func isRunning(_ query: HKQuery) -> Bool {
        state.withLock { $0.running[ObjectIdentifier(query)] != nil }
    }

    func stopAll() -> [HKQuery] {
        state.withLock { state in
            let all = Array(state.running.values)
            state.running = [:]
            return all
        }
    }

    /// Marks the store closed; `false` if it already was.
    func markClosed() -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.closed = true
            return true
        }
    }

    var isClosed: Bool { state.withLock { $0.closed } }
}
