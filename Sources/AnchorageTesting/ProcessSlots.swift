import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Numbered child processes (etcd members, fleet nodes), each slot empty
/// or holding the running process: killed and signalled by process id.
///
/// ```swift
/// let slots = ProcessSlots(count: 3)
/// slots[0] = try ChildProcess.spawn(binary, arguments)
/// slots.kill(0)          // SIGKILL, and waits until it is gone
/// ```
final class ProcessSlots: Sendable {
    private let children: Mutex<[ChildProcess?]>

    init(count: Int) {
        children = Mutex(Array(repeating: nil, count: count))
    }

    subscript(index: Int) -> ChildProcess? {
        get { children.withLock { $0[index] } }
        set { children.withLock { $0[index] = newValue } }
    }

    /// The process id of a running child.
    func pid(_ index: Int) -> Int32? { self[index]?.pid }

    /// Kills a child with SIGKILL and waits (up to 10 s) until it is gone.
    func kill(_ index: Int) {
        guard let child = self[index] else { return }
        child.signal(SIGKILL)
        _ = child.wait(timeout: 10)
        self[index] = nil
    }

    /// Sends `signal` to a child (SIGSTOP freezes it, SIGCONT lets it go on).
    func signal(_ index: Int, _ signal: Int32) {
        self[index]?.signal(signal)
    }
}
