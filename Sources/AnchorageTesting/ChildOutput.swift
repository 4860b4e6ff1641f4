public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process's standard output and error, read from a pipe by a
/// thread of its own as the child writes them (and copied to a log file):
/// a test learns that a node is listening, or that a follower printed a
/// line, the moment it says so, without polling a file from Swift's
/// cooperative pool (whose two threads, when busy, would let a deadline
/// pass with the answer already written).
///
/// ```swift
/// let output = try ChildOutput(log: logFile)
/// let child = try ChildProcess.spawn(binary, ["serve", "--port", "0"], output: output)
/// let port = try await output.first("the node's address") { text in Self.port(in: text) }
/// ```
public final class ChildOutput: Sendable {
    /// The pipe's write end, handed to the child; closed here once it is.
    let writeDescriptor: Mutex<Int32?>
    private let readDescriptor: Int32
    private let log: URL?
    private let state = Mutex(State())

    private struct State {
        var bytes: [UInt8] = []
        var ended = false
        var started = false
        var next = 0
        var waiters: [Int: Waiter] = [:]
    }

    private struct Waiter {
        let match: @Sendable (String) -> Bool
        let continuation: CheckedContinuation<String, any Error>
        let what: String
        /// Whether the child's end is what the waiter waits for.
        var awaitsEnd = false
    }

    /// A pipe whose output is copied to `log` (created, or appended to).
    public init(log: URL? = nil) throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else {
            throw ChildProcessError(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // Children close every descriptor above standard error: these stay ours.
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        readDescriptor = descriptors[0]
        writeDescriptor = Mutex(descriptors[1])
        self.log = log
        if let log, !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
    }

    deinit {
        if let descriptor = writeDescriptor.withLock({ $0 }) { close(descriptor) }
        if !state.withLock({ $0.started }) { close(readDescriptor) }
    }

    /// Everything the child wrote so far.
    public var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    /// Whether the child closed its output (it ended).
    public var ended: Bool { state.withLock { $0.ended } }

    /// Waits until the output so far satisfies `match`, and returns that
    /// output. Throws ``ChildProcessError`` naming `what` when the child
    /// ends first, or after `timeout` seconds: a guard against a child that
    /// hangs, long enough never to decide a test on a slow machine.
    @discardableResult
    public func wait(
        for what: String,
        timeout: Double = 300,
        _ match: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        try await wait(for: what, timeout: timeout, awaitsEnd: false, match)
    }

    /// Waits until the child has closed its output (it ended, and every
    /// byte it wrote has been read), and returns the whole output.
    @discardableResult
    public func end(timeout: Double = 300) async throws -> String {
        try await wait(for: "its end", timeout: timeout, awaitsEnd: true) { _ in false }
    }

    private func wait(
        for what: String,
        timeout: Double,
        awaitsEnd: Bool,
        _ match: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        let timer = Task { [weak self] in
            try await Task.sleep(for: .seconds(timeout))
            self?.fail(id, "not within \(timeout) s")
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { state -> Result<String, any Error>? in
                    let text = String(decoding: state.bytes, as: UTF8.self)
                    if match(text) || (awaitsEnd && state.ended) { return .success(text) }
                    if state.ended { return .failure(failure(what, "it ended first", text)) }
                    state.waiters[id] = Waiter(
                        match: match,
                        continuation: continuation,
                        what: what,
                        awaitsEnd: awaitsEnd
                    )
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            fail(id, "the wait was cancelled")
        }
    }

    /// Waits for `extract` to find a value in the output (such as a port
    /// in "serving … on http://127.0.0.1:PORT"), as ``wait(for:timeout:_:)``.
    public func first<T: Sendable>(
        _ what: String,
        timeout: Double = 300,
        _ extract: @escaping @Sendable (String) -> T?
    ) async throws -> T {
        let text = try await wait(for: what, timeout: timeout) { extract($0) != nil }
        guard let value = extract(text) else {
            throw ChildProcessError(description: "\(what): the output changed its mind: \(text.suffix(2_000))")
        }
        return value
    }

    /// Starts the reader thread; the child holds the write end now.
    func childStarted() {
        if let descriptor = writeDescriptor.withLock({ descriptor -> Int32? in
            defer { descriptor = nil }
            return descriptor
        }) {
            close(descriptor)
        }
        state.withLock { $0.started = true }
        let thread = Thread { [self] in readUntilEnd() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    private func readUntilEnd() {
        let file = log.flatMap { FileHandle(forWritingAtPath: $0.path) }
        _ = try? file?.seekToEnd()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(readDescriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            file?.write(Data(buffer[0..<count]))
            let woken = state.withLock { state -> [(Waiter, String)] in
                state.bytes += buffer[0..<count]
                guard !state.waiters.isEmpty else { return [] }
                let text = String(decoding: state.bytes, as: UTF8.self)
                let matched = state.waiters.filter { $0.value.match(text) }
                for id in matched.keys { state.waiters[id] = nil }
                return matched.values.map { ($0, text) }
            }
            for (waiter, text) in woken { waiter.continuation.resume(returning: text) }
        }
        close(readDescriptor)
        try? file?.close()
        let left = state.withLock { state -> ([Waiter], String) in
            state.ended = true
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), String(decoding: state.bytes, as: UTF8.self))
        }
        for waiter in left.0 {
            if waiter.awaitsEnd {
                waiter.continuation.resume(returning: left.1)
            } else {
                waiter.continuation.resume(throwing: failure(waiter.what, "it ended first", left.1))
            }
        }
    }

    private func fail(_ id: Int, _ reason: String) {
        let found = state.withLock { state -> (Waiter, String)? in
            guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
            return (waiter, String(decoding: state.bytes, as: UTF8.self))
        }
        if let (waiter, text) = found {
            waiter.continuation.resume(throwing: failure(waiter.what, reason, text))
        }
    }

    private func failure(_ what: String, _ reason: String, _ text: String) -> ChildProcessError {
        ChildProcessError(
            description: "the child process did not show \(what): \(reason); it wrote: \(text.suffix(2_000))"
        )
    }
}
