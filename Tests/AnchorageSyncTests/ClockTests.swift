import AnchorageCore
import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Foundation
import Synchronization
import Testing

/// Back-off and timeouts wait on the replicator's clock: with a clock the
/// test moves by hand, "nothing happens until the delay has passed" is
/// checked by the replicator being parked on the clock, not by sleeping.
/// The time limit is a guard against a hang only: these tests wait for
/// states, and a machine running the whole suite may take a while.
@Suite("Replication on an injected clock", .timeLimit(.minutes(10)))
struct ClockTests {
    /// A peer that is never reachable, counting the attempts.
    final class Unreachable: PeerTransport {
        let attempts = Mutex(0)
        var peerDescription: String { "unreachable" }
        func identity(_ mine: PeerIdentity) async throws -> PeerIdentity {
            attempts.withLock { $0 += 1 }
            throw SyncError(.unreachable, "not there")
        }
        func pull(_ request: PullRequest) async throws -> [UInt8] { throw SyncError(.unreachable, "not there") }
        func push(_ batch: [UInt8]) async throws -> BatchReceipt { throw SyncError(.unreachable, "not there") }
        func waitForChange(after head: UInt64, timeout: Duration) async throws -> UInt64 {
            throw SyncError(.unreachable, "not there")
        }
    }

    /// A peer that never answers.
    final class Silent: PeerTransport {
        var peerDescription: String { "silent" }
        func identity(_ mine: PeerIdentity) async throws -> PeerIdentity {
            try await suspendUntilCancelled()
        }
        func pull(_ request: PullRequest) async throws -> [UInt8] { [] }
        func push(_ batch: [UInt8]) async throws -> BatchReceipt { throw CancellationError() }
        func waitForChange(after head: UInt64, timeout: Duration) async throws -> UInt64 { 0 }
    }

    static func configuration(_ clock: TestClock) -> PeerReplicator.Configuration {
        var configuration = PeerReplicator.Configuration()
        configuration.clock = StoreClock(clock)
        configuration.backoff = Backoff(base: .seconds(10), maximum: .seconds(40), jitter: 0)
        configuration.requestTimeout = .seconds(30)
        return configuration
    }

    @Test("a failed round waits its back-off on the clock: 10 s, then 20 s, before the next attempts")
    func backoffWaitsOnTheClock() async throws {
        try await withTemporaryDirectory { directory in
            // Opening creates the store and syncs it to disk: off the cooperative pool.
            let log = try await runBlocking { try EventLog.open(at: directory) }
            let clock = TestClock()
            let peer = Unreachable()
            let replicator = PeerReplicator(log: log, peer: peer, configuration: Self.configuration(clock))
            let following = Task { await replicator.follow(.pull) }

            try await clock.waitForSleepers(remaining: [.seconds(10)])
            #expect(peer.attempts.withLock { $0 } == 1)
            #expect(replicator.status.state == .backingOff)
            clock.advance(by: .milliseconds(9_999))
            #expect(clock.remaining == [.milliseconds(1)], "still backing off before 10 s")
            #expect(peer.attempts.withLock { $0 } == 1)

            clock.advance(by: .milliseconds(1))
            try await eventuallyAttempts(peer, 2)
            try await clock.waitForSleepers(remaining: [.seconds(20)])
            clock.advance(by: .seconds(19))
            #expect(peer.attempts.withLock { $0 } == 2, "the second delay is twice the first")
            clock.advance(by: .seconds(1))
            try await eventuallyAttempts(peer, 3)

            following.cancel()
            await following.value
            await log.close()
        }
    }

    @Test("a peer that does not answer times out after requestTimeout on the clock")
    func timeoutOnTheClock() async throws {
        try await withTemporaryDirectory { directory in
            let log = try await runBlocking { try EventLog.open(at: directory) }
            let clock = TestClock()
            let replicator = PeerReplicator(log: log, peer: Silent(), configuration: Self.configuration(clock))
            let round = Task { try await replicator.sync(.pull) }
            try await clock.waitForSleepers(remaining: [.seconds(30)])
            clock.advance(by: .seconds(29))
            #expect(clock.remaining == [.seconds(1)], "not yet timed out")
            clock.advance(by: .seconds(1))
            await #expect {
                try await round.value
            } throws: { error in
                (error as? SyncError)?.code == .timedOut
            }
            await log.close()
        }
    }

    func eventuallyAttempts(_ peer: Unreachable, _ count: Int) async throws {
        try await waitUntil("\(count) attempts") { peer.attempts.withLock { $0 } >= count }
        #expect(peer.attempts.withLock { $0 } == count)
    }
}
