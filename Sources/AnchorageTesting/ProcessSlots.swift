import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Numbered child processes (etcd members, fleet nodes), each slot empty
/// or holding the running process and its watched output: killed and
/// signalled by process id.
///
/// ```swift
/// let slots = ProcessSlots(count: 3)
/// let output = try slots.launch(0, binary, arguments, log: logFile)
/// try await output.wait(for: "the member's listener") { $0.contains("serving") }
/// slots.kill(0)          // SIGKILL, and waits until it is gone
/// ```
final class ProcessSlots: Sendable {
    private let children: Mutex<[(process: ChildProcess, output: ChildOutput)?]>

    init(count: Int) {
        children = Mutex(Array(repeating: nil, count: count))
    }

    /// Starts `executable` in slot `index`, its output read as it comes
    /// (and appended to `log`); the output, to wait on.
    @discardableResult
    func launch(_ index: Int, _ executable: String, _ arguments: [String], log: URL) throws -> ChildOutput {
        let output = try ChildOutput(log: log)
        let child = try ChildProcess.spawn(executable, arguments, watched: output)
        children.withLock { $0[index] = (child, output) }
        return output
    }

    /// The running child in slot `index`.
    subscript(index: Int) -> ChildProcess? {
        children.withLock { $0[index]?.process }
    }

    /// The output of the child in slot `index`.
    func output(_ index: Int) -> ChildOutput? {
        children.withLock { $0[index]?.output }
    }

    /// Empties slot `index` (its child has ended).
    func clear(_ index: Int) {
        children.withLock { $0[index] = nil }
    }

    /// The process id of a running child.
    func pid(_ index: Int) -> Int32? { self[index]?.pid }

    /// Kills a child with SIGKILL and waits (up to 10 s) until it is gone.
    /// A killed process ends at once; this short wait reaps it.
    func kill(_ index: Int) {
        guard let child = self[index] else { return }
        child.signal(SIGKILL)
        _ = child.wait(timeout: 10)
        clear(index)
    }

    /// Sends `signal` to a child (SIGSTOP freezes it, SIGCONT lets it go on).
    func signal(_ index: Int, _ signal: Int32) {
        self[index]?.signal(signal)
    }
}
