import AnchorageCore
import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Foundation
import Synchronization
import Testing

/// A live follower's wait and pull in one request (`waitMilliseconds`),
/// used only with a peer whose identity names the feature.
@Suite("Waiting pulls")
struct WaitingPullTests {
    /// Logs without a sync to disk per commit: these tests are about
    /// requests, not durability, and run beside the whole suite.
    static var configuration: EventLog.Configuration {
        var configuration = EventLog.Configuration()
        configuration.durability = .none
        return configuration
    }

    static func save(_ log: EventLog, _ index: Int) async throws {
        let event = LogEvent.save(id: UUID(), kind: EntryKind(rawValue: 3), payload: Array("payload \(index)".utf8))
        _ = try await log.append([event])
    }

    static func request(_ log: EventLog, since: UInt64, wait: Int?) throws -> PullRequest {
        PullRequest(
            incarnation: log.incarnation,
            since: since,
            maxEntries: 100,
            maxBytes: 1 << 20,
            versionVector: [:],
            waitMilliseconds: wait
        )
    }

    @Test("a caught-up waiting pull answers with the next entry once it is written, or empty at its end")
    func endpointWaits() async throws {
        try await withTemporaryDirectories(1) { directories in
            let log = try EventLog.open(at: directories[0], configuration: Self.configuration)
            try await Self.save(log, 0)
            // The endpoint's waits run on a clock the test moves: a wait ends
            // when the test says so, never because the machine was slow, and a
            // pull that should not wait hangs (and fails) if it does.
            let clock = TestClock()
            let transport = InMemoryTransport(serving: SyncEndpoint(log: log, clock: StoreClock(clock)))
            // Not caught up: answered at once, whatever the wait.
            let first = try EntryBatch(
                decoding: try await finishes("a pull that is not caught up") {
                    try await transport.pull(try Self.request(log, since: 0, wait: 60_000))
                }
            )
            #expect(first.entries.count == 1 && first.through == 1)

            // Caught up: the answer waits for the next entry, and holds it
            // (had the wait ended first, the batch would be empty).
            let pulling = Task { try await transport.pull(try Self.request(log, since: 1, wait: 60_000)) }
            try await clock.waitForSleepers(remaining: [.seconds(60)])
            try await Self.save(log, 1)
            let second = try EntryBatch(
                decoding: try await finishes("the waiting pull, once the entry is written") { try await pulling.value }
            )
            #expect(second.entries.count == 1 && second.from == 1 && second.through == 2)

            // Nothing comes: empty at the end of its wait, from and through where it was asked.
            let waiting = Task { try await transport.pull(try Self.request(log, since: 2, wait: 100)) }
            try await clock.waitForSleepers(remaining: [.milliseconds(100)])
            clock.advance(by: .milliseconds(100))
            let quiet = try EntryBatch(
                decoding: try await finishes("the waiting pull, at the end of its wait") { try await waiting.value }
            )
            #expect(quiet.entries.isEmpty && quiet.from == 2 && quiet.through == 2 && !quiet.hasMore)

            // A waiting pull from another incarnation, or past the head, gets
            // its error at once, not after its wait (which would never end:
            // nothing moves the clock).
            for (incarnation, since) in [(log.incarnation &+ 1, UInt64(2)), (log.incarnation, UInt64(9))] {
                // 60 s: the endpoint's longest wait, which the old rule spent in full.
                var stale = try Self.request(log, since: since, wait: 60_000)
                stale.incarnation = incarnation
                let pull = stale
                await #expect(throws: SyncError.self) {
                    _ = try await finishes("a stale waiting pull") { try await transport.pull(pull) }
                }
            }

            // Without a wait, a caught-up pull is answered at once, as before.
            let plain = try EntryBatch(decoding: try await transport.pull(try Self.request(log, since: 2, wait: nil)))
            #expect(plain.entries.isEmpty)
            await log.close()
        }
    }

    /// Counts a peer's requests; hides the waiting-pull feature when
    /// `old` (a node from before it).
    final class Counting: PeerTransport {
        let inner: InMemoryTransport
        let old: Bool
        let counts = Mutex<(identities: Int, pulls: Int, waitingPulls: Int, waits: Int)>((0, 0, 0, 0))

        init(_ inner: InMemoryTransport, old: Bool) {
            self.inner = inner
            self.old = old
        }

        var peerDescription: String { inner.peerDescription }

        func identity(_ mine: PeerIdentity) async throws -> PeerIdentity {
            counts.withLock { $0.identities += 1 }
            var answer = try await inner.identity(mine)
            if old { answer.features = nil }
            return answer
        }

        func pull(_ request: PullRequest) async throws -> [UInt8] {
            counts.withLock { counts in
                counts.pulls += 1
                if request.waitMilliseconds != nil { counts.waitingPulls += 1 }
            }
            var request = request
            if old { request.waitMilliseconds = nil }  // an old node does not know the field
            return try await inner.pull(request)
        }

        func push(_ batch: [UInt8]) async throws -> BatchReceipt { try await inner.push(batch) }

        func waitForChange(after head: UInt64, timeout: Duration) async throws -> UInt64 {
            counts.withLock { $0.waits += 1 }
            return try await inner.waitForChange(after: head, timeout: timeout)
        }
    }

    /// A follower of a peer that writes `changes` entries one at a time,
    /// each once the follower holds the one before; returns the requests it
    /// sent, counted after the first round.
    ///
    /// The peer's waits and the follower's timeouts run on a clock the
    /// test moves, so no wait ends and no request times out but the one
    /// the test lets pass.
    static func follow(
        old: Bool,
        changes: Int
    ) async throws
        -> (identities: Int, pulls: Int, waitingPulls: Int, waits: Int)
    {
        try await withTemporaryDirectories(2) { directories in
            let primary = try EventLog.open(at: directories[0], configuration: Self.configuration)
            let replica = try EventLog.open(at: directories[1], configuration: Self.configuration)
            try await Self.save(primary, 0)
            let clock = TestClock()
            let peer = Counting(
                InMemoryTransport(serving: SyncEndpoint(log: primary, clock: StoreClock(clock))),
                old: old
            )
            var configuration = PeerReplicator.Configuration()
            configuration.clock = StoreClock(clock)
            let replicator = PeerReplicator(log: replica, peer: peer, configuration: configuration)
            let following = Task { await replicator.follow(.pull) }
            try await waitUntilHolds(replica, 1)
            // Caught up, the follower waits: the peer holds its request for the
            // live wait (25 s), under the follower's timeout (25 s + 30 s).
            let parked: [Duration] = [configuration.liveWait, configuration.liveWait + configuration.requestTimeout]
            try await clock.waitForSleepers(remaining: parked)
            let before = peer.counts.withLock { $0 }
            // The wait ends with nothing new: the follower asks once more and
            // waits again; it does not ask again and again.
            clock.advance(by: configuration.liveWait)
            try await waitUntil("the follower's next request after its wait ended empty") {
                let now = peer.counts.withLock { $0 }
                return now.waitingPulls + now.waits > before.waitingPulls + before.waits
            }
            try await clock.waitForSleepers(remaining: parked)
            let after = peer.counts.withLock { $0 }
            #expect(after.identities == before.identities, "\(before) → \(after)")
            #expect(after.waitingPulls + after.waits == before.waitingPulls + before.waits + 1, "\(before) → \(after)")
            #expect(after.pulls <= before.pulls + 1, "\(before) → \(after)")
            for index in 1...changes {
                try await Self.save(primary, index)
                try await waitUntilHolds(replica, UInt64(index + 1))
            }
            let counts = peer.counts.withLock { $0 }
            following.cancel()
            await following.value
            await primary.close()
            await replica.close()
            return counts
        }
    }

    static func waitUntilHolds(_ log: EventLog, _ count: UInt64) async throws {
        try await waitUntil("the replica holds \(count) entries (it holds \(log.head.seq))") { log.head.seq >= count }
    }

    @Test("a follower of a peer serving waiting pulls sends one request per change, and no live waits")
    func oneRequestPerChange() async throws {
        let counts = try await Self.follow(old: false, changes: 20)
        #expect(counts.identities == 1)
        #expect(counts.waits == 0)
        // The first round's pull, the one whose wait ended empty, then one
        // waiting pull per change, and the one waiting now.
        #expect(counts.pulls <= 1 + 1 + 20 + 1, "\(counts)")
        #expect(counts.waitingPulls >= 20, "\(counts)")
    }

    @Test("a follower of an older peer (no waiting pulls in its identity) waits live between pulls, never in a loop")
    func olderPeer() async throws {
        let counts = try await Self.follow(old: true, changes: 20)
        #expect(counts.waitingPulls == 0)
        // The wait that ended empty, one per change, and the one waiting now.
        #expect(counts.waits >= 20 && counts.waits <= 1 + 20 + 1, "\(counts)")
        #expect(counts.pulls <= 1 + 1 + 20 + 1, "\(counts)")
    }
}
