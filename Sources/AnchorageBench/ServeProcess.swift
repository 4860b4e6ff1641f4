import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An `anchorage` process (beside this executable) serving on a free
/// loopback port; every wait on it is bounded, and ``stop()`` ends it by
/// its pid.
struct ServeProcess {
    let process: Process
    let port: Int
    /// Its standard error, read and dropped until it stops.
    let stderr: Pipe
    var pid: String { "\(process.processIdentifier)" }

    /// What the process wrote to standard error, kept until its port is
    /// known (then discarded).
    private final class Output: Sendable {
        let text = Mutex("")
        let keeping = Atomic(true)
    }

    /// Runs `anchorage arguments` (which must ask for port 0) and waits at
    /// most `timeout` for the port it prints.
    static func start(_ arguments: [String], timeout: Duration = .seconds(60)) throws -> ServeProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("anchorage")
        process.arguments = arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        let output = Output()
        stderr.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard output.keeping.load(ordering: .relaxed) else { return }
            output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let seen = output.text.withLock { $0 }
            if let range = seen.range(of: #"on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let port = Int(seen[range].split(separator: ":").last ?? "")
            {
                output.keeping.store(false, ordering: .relaxed)
                return ServeProcess(process: process, port: port, stderr: stderr)
            }
            if !process.isRunning { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        let child = ServeProcess(process: process, port: 0, stderr: stderr)
        child.stop()
        throw BenchFailure(
            message: "anchorage \(arguments.joined(separator: " ")) did not start: \(output.text.withLock { $0 })"
        )
    }

    /// The CPU time the process used so far (user and system), in ms.
    func cpuMilliseconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        // After "pid (name) ": state is field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) * 1_000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// How many threads the process runs.
    func threads() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
    }

    /// How many file descriptors the process holds.
    func descriptors() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// How many of its descriptors are open on files under `folder`
    /// (a store's files: its stores still open).
    func descriptors(under folder: URL) -> Int {
        let directory = "/proc/\(pid)/fd"
        let prefix = folder.standardizedFileURL.path + "/"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { entry in
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry)) ?? ""
            return target.hasPrefix(prefix) && target.hasSuffix(".mdb")
        }.count
    }

    /// SIGTERM, then SIGKILL after `grace` if it has not exited; waits
    /// for it.
    func stop(grace: Duration = .seconds(15)) {
        defer { stderr.fileHandleForReading.readabilityHandler = nil }
        guard process.isRunning else { return }
        let pid = process.processIdentifier
        kill(pid, SIGTERM)
        let deadline = ContinuousClock.now + grace
        while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }
}
