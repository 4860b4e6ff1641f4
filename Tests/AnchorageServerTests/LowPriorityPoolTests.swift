import Foundation
import Testing

@testable import AnchorageServer

#if canImport(Glibc)
import Glibc
#endif

@Suite("LowPriorityPool: wide reads yield the cores to saves")
struct LowPriorityPoolTests {
    @Test("work runs in the idle scheduling class (or niced where refused), and the caller's thread is untouched")
    func idleClass() async throws {
        #if os(Linux)
        let pool = LowPriorityPool()
        let callerPolicy = sched_getscheduler(0)
        let (policy, nice) = try await pool.run {
            (sched_getscheduler(0), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0))
        }
        // Twice: a thread already lowered stays so.
        let again = try await pool.run { sched_getscheduler(0) }
        await pool.shutdown()
        #expect(policy == LowPriorityPool.idlePolicy || nice >= LowPriorityPool.niceness)
        #expect(again == policy)
        #expect(sched_getscheduler(0) == callerPolicy)
        #expect(callerPolicy != LowPriorityPool.idlePolicy)
        #endif
    }
}
