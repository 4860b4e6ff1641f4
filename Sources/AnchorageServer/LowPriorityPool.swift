import Foundation
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// Threads for expensive, blocking reads, in Linux's idle scheduling class
/// (`SCHED_IDLE`) below the threads that serve requests and commit writes:
/// when the cores are busy, the kernel gives them to saves first, and a
/// thread woken to serve a save takes the core from the pool's at once
/// (a nice value only lowers a thread's share, and a woken save could wait
/// milliseconds for it). The pool's work still gets the cores left over,
/// so a busy node answers wide reads later, never not at all.
///
/// ```swift
/// let pool = LowPriorityPool()
/// let answer = try await pool.run { try computeWideStatistics() }
/// await pool.shutdown()
/// ```
final class LowPriorityPool: Sendable {
    /// The nice value of the pool's threads where the idle class is refused.
    static let niceness: Int32 = 10
    /// `SCHED_IDLE`: sched.h declares it only for `_GNU_SOURCE`, so Swift
    /// does not see it.
    static let idlePolicy: Int32 = 5

    private let pool: NIOThreadPool

    init(threads: Int = 1) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    /// Runs `work` on one of the pool's threads.
    func run<R: Sendable>(_ work: @escaping @Sendable () throws -> R) async throws -> R {
        try await pool.runIfActive {
            Self.lowerPriority()
            return try work()
        }
    }

    /// Stops the threads once queued work is done.
    func shutdown() async {
        try? await pool.shutdownGracefully()
    }

    /// Moves the calling thread to the idle class: on Linux the policy and
    /// the nice value are a thread's, and 0 names the calling thread. Best
    /// effort: where the idle class is refused the thread is niced instead,
    /// and a refusal of that leaves it at its priority.
    private static func lowerPriority() {
        #if os(Linux)
        guard sched_getscheduler(0) != idlePolicy else { return }
        var parameters = sched_param()
        if sched_setscheduler(0, idlePolicy, &parameters) == 0 { return }
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if getpriority(which, 0) < niceness { _ = setpriority(which, 0, niceness) }
        #endif
    }
}
