import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Measures how late Swift's cooperative pool runs a task in the test
/// process: every 100 ms a thread of its own (not one of the pool's) hands
/// the pool a task that notes when it ran. The pool has one thread per core,
/// two on the machines the tests run on, so a test that blocks one (an
/// fsync, a `Thread.sleep`, a synchronous wait, a long loop without an
/// `await`) delays every other test's timers, lease renewals and waits for
/// as long as it blocks: the probe's delay is that stall.
///
/// It runs when `ANCHORAGE_POOL_PROBE` names a file (`Scripts/test` sets it):
/// started by a constructor in CPoolProbe, it appends `wall-clock-time <tab>
/// delay` lines (seconds) to that file once a second, and when the process
/// ends prints the worst delay and the p99 to standard error.
/// `Scripts/test-timing` adds the delays per suite.
///
/// ```
/// ANCHORAGE_POOL_PROBE=/tmp/probe.tsv swift test --skip-build
/// pool probe: 3,812 samples over 381 s; delay p50 0.000 s, p99 0.021 s, worst 0.310 s
/// ```
enum PoolProbe {
    static let interval: UInt64 = 100_000_000

    /// A task handed to the pool that has not run yet, or a finished sample.
    struct Sample {
        var wall: Double
        var scheduled: UInt64
        var delay: Double?
    }

    struct State {
        var file: FileHandle?
        var pending: [Int: Sample] = [:]
        var finished: [Sample] = []
        var delays: [Double] = []
        var started = 0.0
        var next = 0
    }

    static let state = Mutex(State())

    static func monotonic() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func wall() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The probe's loop, on the thread CPoolProbe started; runs until the
    /// process ends.
    static func run() {
        guard let path = ProcessInfo.processInfo.environment["ANCHORAGE_POOL_PROBE"] else { return }
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let file = FileHandle(forWritingAtPath: path) else { return }
        _ = try? file.seekToEnd()
        state.withLock { state in
            state.file = file
            state.started = wall()
        }
        atexit { PoolProbe.finish() }
        var ticks = 0
        while true {
            var pause = timespec(tv_sec: 0, tv_nsec: Int(interval))
            nanosleep(&pause, nil)
            let id = state.withLock { state -> Int in
                state.next += 1
                state.pending[state.next] = Sample(wall: wall(), scheduled: monotonic())
                return state.next
            }
            Task.detached { ran(id, at: monotonic()) }
            ticks += 1
            if ticks % 10 == 0 { flush() }
            captureStacksIfStalled()
        }
    }

    /// With `ANCHORAGE_POOL_PROBE_STACKS=DIR`, when a task has waited more
    /// than a second (or `ANCHORAGE_POOL_PROBE_STALL` seconds) for the pool,
    /// writes every thread's stack (`eu-stack`, Debian's elfutils) to DIR:
    /// what the pool's threads were doing then. At most one capture a stall,
    /// and 20 in a run.
    static func captureStacksIfStalled() {
        guard let directory = ProcessInfo.processInfo.environment["ANCHORAGE_POOL_PROBE_STACKS"] else { return }
        let now = monotonic()
        let oldest = state.withLock { $0.pending.values.map(\.scheduled).min() }
        guard let oldest, now &- oldest > stallThreshold else {
            capturedThisStall = false
            return
        }
        guard !capturedThisStall, captures < 20 else { return }
        capturedThisStall = true
        captures += 1
        let path = "\(directory)/stall-\(captures)-\(String(format: "%.3f", wall())).txt"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let words: [String] = ["/usr/bin/eu-stack", "-p", "\(getpid())"]
        let arguments = words.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var child: pid_t = 0
        guard posix_spawn(&child, "/usr/bin/eu-stack", &actions, nil, arguments, environ) == 0 else { return }
        var status: Int32 = 0
        waitpid(child, &status, 0)
    }

    /// The wait that counts as a stall for `captureStacksIfStalled`, in nanoseconds.
    static let stallThreshold: UInt64 = {
        let seconds = ProcessInfo.processInfo.environment["ANCHORAGE_POOL_PROBE_STALL"].flatMap(Double.init) ?? 1
        return UInt64(max(0.05, seconds) * 1e9)
    }()

    // Touched by the probe thread only.
    nonisolated(unsafe) static var capturedThisStall = false
    nonisolated(unsafe) static var captures = 0

    static func ran(_ id: Int, at time: UInt64) {
        state.withLock { state in
            guard var sample = state.pending.removeValue(forKey: id) else { return }
            let delay = Double(time &- sample.scheduled) / 1e9
            sample.delay = delay
            state.finished.append(sample)
            state.delays.append(delay)
        }
    }

    /// Appends the finished samples to the file.
    static func flush() {
        state.withLock { state in
            guard let file = state.file, !state.finished.isEmpty else { return }
            let lines = state.finished.map { String(format: "%.3f\t%.4f\n", $0.wall, $0.delay ?? 0) }.joined()
            state.finished.removeAll(keepingCapacity: true)
            file.write(Data(lines.utf8))
        }
    }

    /// At exit: writes what is left, a task still waiting counted with how
    /// long it has waited so far, and prints the summary.
    static func finish() {
        let now = monotonic()
        for (id, _) in state.withLock({ $0.pending }) { ran(id, at: now) }
        flush()
        let (delays, started) = state.withLock { ($0.delays.sorted(), $0.started) }
        guard !delays.isEmpty else { return }
        func quantile(_ q: Double) -> Double { delays[min(delays.count - 1, Int(Double(delays.count) * q))] }
        let summary = String(
            format: "pool probe: %d samples over %.0f s; delay p50 %.3f s, p99 %.3f s, worst %.3f s\n",
            delays.count,
            wall() - started,
            quantile(0.5),
            quantile(0.99),
            delays.last ?? 0
        )
        FileHandle.standardError.write(Data(summary.utf8))
    }
}

/// The entry CPoolProbe's constructor thread calls.
@_cdecl("anchorage_pool_probe_run")
public func anchoragePoolProbeRun() {
    PoolProbe.run()
}
