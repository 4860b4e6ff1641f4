import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import AnchorageServer

/// Shared counters for the tasks of a test.
private final class Counters: Sendable {
    let running = Mutex((now: 0, most: 0, done: 0, started: 0))
    let ran = Mutex(false)
}

@Suite("WorkLimiter: expensive requests take turns")
struct WorkLimiterTests {
    @Test("never more than its permits at once; every piece runs; a cancelled waiter leaves without running")
    func permits() async throws {
        let limiter = WorkLimiter(permits: 2)
        let counters = Counters()
        let pieces = 20
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<pieces {
                group.addTask {
                    try await limiter.run {
                        counters.running.withLock {
                            $0.now += 1
                            $0.started += 1
                            $0.most = max($0.most, $0.now)
                        }
                        // Each piece holds its permit until every other one has run or waits its
                        // turn: while any waits, both permits are held at once, and a limiter that
                        // let a third in would show it in `most`.
                        try await waitUntil("every other piece has run or waits its turn", timeout: 120) {
                            counters.running.withLock { $0.started } + limiter.permits.waiting == pieces
                        }
                        counters.running.withLock {
                            $0.now -= 1
                            $0.done += 1
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(counters.running.withLock { $0.most } == 2)
        #expect(counters.running.withLock { $0.done } == pieces)

        // Both permits held; a third waits, is cancelled, and never runs.
        let release = AsyncStream.makeStream(of: Void.self)
        let holders = (0..<2).map { _ in
            Task { try await limiter.run { for await _ in release.stream { break } } }
        }
        try await waitUntil("both permits held") { limiter.permits == (0, 0) }
        let waiter = Task { try await limiter.run { counters.ran.withLock { $0 = true } } }
        try await waitUntil("one task waiting") { limiter.permits == (0, 1) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        release.continuation.finish()
        for holder in holders { try await holder.value }
        #expect(!counters.ran.withLock { $0 })
        // The permits came back, and nobody waits.
        #expect(limiter.permits == (2, 0))
    }
}
