import Synchronization

/// Wakes tasks waiting for something a node keeps current to change (the
/// placements, the live nodes, what its probes report): whoever changes it
/// calls ``notify()``, and each waiter checks its own condition again. No
/// polling, no timer: a waiter costs nothing until a change comes.
///
/// ```swift
/// let signal = ChangeSignal()
/// await signal.wait { cache.placement(of: "alice")?.placement.epoch != 3 }   // returns once it holds, or on cancellation
/// signal.notify()                                                             // from whoever changed it
/// ```
public final class ChangeSignal: Sendable {
    private struct State {
        var changes: UInt64 = 0
        var next: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        /// Waits under way (between their start and their end).
        var active: Set<UInt64> = []
        /// Waits cancelled before they were registered.
        var cancelled: Set<UInt64> = []
    }

    private let state = Mutex(State())

    public init() {}

    /// How many changes were signalled (a waiter compares it).
    public var changes: UInt64 { state.withLock { $0.changes } }

    /// Wakes every waiter to check its condition again.
    public func notify() {
        let woken = state.withLock { state in
            state.changes &+= 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in woken { waiter.resume() }
    }

    /// Returns once `condition` holds (checked now and after every change),
    /// or when the task is cancelled.
    public func wait(until condition: () -> Bool) async {
        while !Task.isCancelled {
            let (seen, id) = state.withLock { state -> (UInt64, UInt64) in
                state.next &+= 1
                state.active.insert(state.next)
                return (state.changes, state.next)
            }
            defer {
                state.withLock { state in
                    state.active.remove(id)
                    state.cancelled.remove(id)
                }
            }
            if condition() { return }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLock { state -> Bool in
                        if state.changes != seen || state.cancelled.remove(id) != nil { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                    if state.active.contains(id) { state.cancelled.insert(id) }
                    return nil
                }
                waiter?.resume()
            }
        }
    }
}
