import Foundation
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// Threads for expensive, blocking reads, at a lower CPU priority (nice 10)
/// than the threads that serve requests and commit writes: when the cores
/// are busy, the kernel gives them to saves first.
///
/// ```swift
/// let pool = LowPriorityPool()
/// let answer = try await pool.run { try computeWideStatistics() }
/// await pool.shutdown()
/// ```
final class LowPriorityPool: Sendable {
    /// The nice value of the pool's threads.
    static let niceness: Int32 = 10

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

    /// Lowers the calling thread's priority: on Linux the nice value is a
    /// thread's, and `who` 0 names the calling thread. Best effort: a
    /// refusal leaves the thread at its priority.
    private static func lowerPriority() {
        #if os(Linux)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if getpriority(which, 0) < niceness { _ = setpriority(which, 0, niceness) }
        #endif
    }
}
