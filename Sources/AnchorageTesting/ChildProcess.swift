public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, for tests that run servers
/// and commands: stopped by process id, waited for with a bound.
///
/// Foundation's `Process.run()` on Linux can crash the test process: it lists
/// `/proc/self/fd` with a `readdir` copy that may read past glibc's buffer
/// (swift-corelibs-foundation#5472, fixed after the toolchain this project
/// builds with), more often the more processes a suite starts. This starts
/// children without it, and closes every descriptor above standard error in
/// the child, so no child holds another test's pipe open.
///
/// ```swift
/// let child = try ChildProcess.spawn("/usr/bin/etcd", ["--name", "m0"], output: logFile)
/// child.signal(SIGKILL)
/// let status = child.wait(timeout: 10)
/// ```
public final class ChildProcess: Sendable {
    public let pid: Int32
    private let exit = Mutex<Int32?>(nil)

    private init(pid: Int32) {
        self.pid = pid
    }

    /// Starts `executable` with `arguments` and this process's environment
    /// plus `environment`, its standard output and error to the file
    /// `output` (appended; created if needed), to `outputDescriptor`, or
    /// nowhere; its standard input is `inputDescriptor`, or empty.
    public static func spawn(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        output: URL? = nil,
        outputDescriptor: Int32? = nil,
        inputDescriptor: Int32? = nil
    ) throws -> ChildProcess {
        try start(
            executable,
            arguments,
            environment: environment,
            output: output,
            outputDescriptor: outputDescriptor,
            inputDescriptor: inputDescriptor
        )
    }

    /// Starts `executable` as ``spawn(_:_:environment:output:outputDescriptor:inputDescriptor:)``
    /// does, its standard output and error read as they come by `watched`
    /// (which waits for what the child says: that it listens, that it
    /// printed a line).
    ///
    /// ```swift
    /// let output = try ChildOutput(log: logFile)
    /// let child = try ChildProcess.spawn(binary, ["serve"], watched: output)
    /// try await output.wait(for: "the listening line") { $0.contains("serving") }
    /// ```
    public static func spawn(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        watched: ChildOutput
    ) throws -> ChildProcess {
        guard let descriptor = watched.writeDescriptor.withLock({ $0 }) else {
            throw ChildProcessError(description: "this ChildOutput already belongs to a child")
        }
        let child = try start(executable, arguments, environment: environment, outputDescriptor: descriptor)
        watched.childStarted()
        return child
    }

    private static func start(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String],
        output: URL? = nil,
        outputDescriptor: Int32? = nil,
        inputDescriptor: Int32? = nil
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let inputDescriptor {
            posix_spawn_file_actions_adddup2(&actions, inputDescriptor, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let outputDescriptor {
            posix_spawn_file_actions_adddup2(&actions, outputDescriptor, 1)
            posix_spawn_file_actions_adddup2(&actions, outputDescriptor, 2)
        } else {
            let path = output?.path ?? "/dev/null"
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        guard let closeFrom = Self.addCloseFrom else {
            throw ChildProcessError(
                description: "this C library lacks posix_spawn_file_actions_addclosefrom_np (glibc 2.34+)"
            )
        }
        _ = closeFrom(&actions, 3)
        // The child starts with no signal blocked and default dispositions.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // This process's environment, with `environment`'s variables set.
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: Int32 = 0
        let rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else {
            throw ChildProcessError(description: "cannot start \(executable): \(String(cString: strerror(rc)))")
        }
        return ChildProcess(pid: pid)
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np`, which Swift's
    /// Glibc module does not declare.
    private static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
            )
        }()

    /// Sends `signal` to the child (SIGKILL, SIGTERM, SIGSTOP, SIGCONT…).
    public func signal(_ signal: Int32) {
        guard exit.withLock({ $0 }) == nil else { return }
        Glibc.kill(pid, signal)
    }

    /// Waits up to `timeout` seconds for the child to end; its exit status
    /// (128 + the signal for one killed by a signal), or `nil` if it still
    /// runs.
    public func wait(timeout: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let status = poll() { return status }
            guard Date() < deadline else { return nil }
            usleep(2_000)
        }
    }

    /// ``wait(timeout:)`` without holding a thread of the cooperative
    /// pool: polls every 5 ms between sleeps.
    public func exit(within timeout: Double) async -> Int32? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1_000))
        while true {
            if let status = poll() { return status }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// ``run(_:_:input:timeout:)`` on a thread of its own, so that waiting
    /// for the child holds no thread of the cooperative pool.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        input: String? = nil,
        timeout: Double = 300
    ) async throws -> (status: Int32, output: String) {
        try await runBlocking { try run(executable, arguments, input: input, timeout: timeout) as (Int32, String) }
    }

    /// The exit status if the child has ended (reaping it), else `nil`.
    public func poll() -> Int32? {
        exit.withLock { exit in
            if let exit { return exit }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            guard reaped == pid else { return nil }
            let code = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            exit = code
            return code
        }
    }

    /// Runs `executable` to the end (at most `timeout` seconds, then it is
    /// killed) with `input` on its standard input; its status and its
    /// standard output and error together.
    public static func run(
        _ executable: String,
        _ arguments: [String],
        input: String? = nil,
        timeout: Double = 300
    ) throws -> (status: Int32, output: String) {
        var outputPipe: [Int32] = [0, 0]
        var inputPipe: [Int32] = [0, 0]
        guard pipe(&outputPipe) == 0, pipe(&inputPipe) == 0 else {
            throw ChildProcessError(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        // Children close every descriptor above standard error: these stay ours.
        for descriptor in outputPipe + inputPipe { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let child: ChildProcess
        do {
            child = try spawn(
                executable,
                arguments,
                outputDescriptor: outputPipe[1],
                inputDescriptor: inputPipe[0]
            )
        } catch {
            for descriptor in outputPipe + inputPipe { close(descriptor) }
            throw error
        }
        close(outputPipe[1])
        close(inputPipe[0])
        // Input on a thread of its own, so a child that writes much before
        // reading cannot block both sides.
        let bytes = Array((input ?? "").utf8)
        let writeEnd = inputPipe[1]
        let writer = Thread {
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                written += count
            }
            close(writeEnd)
        }
        writer.start()
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(outputPipe[0], &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        close(outputPipe[0])
        guard let status = child.wait(timeout: timeout) else {
            child.signal(SIGKILL)
            _ = child.wait(timeout: 10)
            throw ChildProcessError(description: "\(executable) did not end within \(timeout) s; killed")
        }
        return (status, String(decoding: output, as: UTF8.self))
    }
}

/// A child process could not be started or did not end in time.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
}
