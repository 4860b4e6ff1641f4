import Anchorage
import AnchorageService
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@Suite("The change-feed session: long-poll and follow on a hand-moved clock")
struct ChangeFeedSessionWaitTests {
    /// A session of steps after everything in `store` now.
    static func caughtUp(_ store: HKHealthStore, clock: TestClock) async throws -> ChangeFeedSession {
        var session = try ChangeFeedSession(
            store: store,
            predicates: FeedHistory.predicates,
            since: nil,
            pageSize: 100,
            clock: StoreClock(clock)
        )
        while try await session.next().hasMore {}
        return session
    }

    @Test("AQ-15: a long-poll wakes on a matching commit, ignores others, times out or stops with the current anchor")
    func longPoll() async throws {
        try await withTemporaryStore { store, _ in
            let clock = TestClock()
            var history = FeedHistory(seed: 5)
            try await history.run(3, on: store)
            let session = try await Self.caughtUp(store, clock: clock)
            let start = try #require(session.anchor).stringValue

            #expect(try await session.waitForChanges(timeout: .zero).count == 0)
            #expect(clock.sleeperCount == 0, "no wait asked, none made")

            let woken = Task { try await session.waitForChanges(timeout: .seconds(60)) }
            try await clock.waitForSleepers(remaining: [.seconds(60)])
            try await store.save(FeedHistory.sample(type: FeedHistory.heart, value: 60, minute: 900, uuid: UUID()))
            let step = FeedHistory.sample(type: FeedHistory.steps, value: 3, minute: 901, uuid: UUID())
            try await store.save(step)
            let page = try await woken.value
            #expect(clock.now.offset == .zero, "woken by the commit, not the clock")
            #expect(page.changes.addedSamples.map(\.uuid) == [step.uuid])
            #expect(session.anchor?.stringValue == start, "waiting does not move the session")

            var moved = session
            moved.advance(past: page)
            let after = try #require(moved.anchor).stringValue
            let quiet = Task { [moved] in try await moved.waitForChanges(timeout: .seconds(1)) }
            try await clock.waitForSleepers(remaining: [.seconds(1)])
            clock.advance(by: .seconds(1))
            let timedOut = try await quiet.value
            #expect(timedOut.count == 0 && !timedOut.hasMore)
            #expect(timedOut.newAnchor.stringValue == after, "nothing new: the anchor it was given")

            let (stop, stopping) = AsyncStream<Void>.makeStream()
            let stopped = Task { [moved] in try await moved.waitForChanges(timeout: .seconds(60), until: stop) }
            try await clock.waitForSleepers(remaining: [.seconds(60)])
            stopping.yield()
            #expect(try await stopped.value.count == 0)
            try await waitUntil("the stopped poll's timer gone") { clock.sleeperCount == 0 }
            try await expectAuditPasses(store)
        }
    }

    /// What a follower received.
    final class Received: Sendable {
        let state = Mutex((replica: FeedReplica(), heartbeats: [String](), pages: 0))

        var replica: FeedReplica { state.withLock { $0.replica } }
        var heartbeats: [String] { state.withLock { $0.heartbeats } }
    }

    @Test(
        "following: the backlog in pages, then each commit, heartbeats only when their time comes, as the model says",
        arguments: testSeeds([7, 23, 61])
    )
    func follow(seed: UInt64) async throws {
        try await withTemporaryStore { store, _ in
            let clock = TestClock()
            var history = FeedHistory(seed: seed)
            try await history.run(10, on: store)
            let session = try ChangeFeedSession(
                store: store,
                predicates: FeedHistory.predicates,
                since: nil,
                pageSize: 3,
                clock: StoreClock(clock)
            )
            let received = Received()
            let updates = try session.updates(heartbeat: .seconds(15))
            let following = Task {
                for try await update in updates {
                    switch update {
                    case .page(let page):
                        received.state.withLock {
                            $0.replica.apply(page)
                            $0.pages += 1
                        }
                    case .heartbeat(let anchor): received.state.withLock { $0.heartbeats.append(anchor.stringValue) }
                    }
                }
            }
            try await waitUntil("the backlog read") { received.replica.matches(history) }
            for beat in 1...2 {
                try await clock.waitForSleepers(remaining: [.seconds(15)])
                #expect(received.heartbeats.count == beat - 1, "no heartbeat before its time")
                clock.advance(by: .seconds(15))
                try await waitUntil("heartbeat \(beat)") { received.heartbeats.count == beat }
                #expect(received.heartbeats.last == received.replica.lastAnchor, "the last page's anchor, repeated")
            }
            try await history.run(8, on: store)
            try await waitUntil("the new commits read") { received.replica.matches(history) }
            #expect(received.heartbeats.count == 2, "commits are no heartbeats")
            following.cancel()
            _ = try? await following.value
            try await waitUntil("the heartbeat timer ended with the follower") { clock.sleeperCount == 0 }
            try await expectAuditPasses(store)
        }
    }

    @Test("following after paging leaves out a first page without changes; stop ends the updates")
    func followFromAnchor() async throws {
        try await withTemporaryStore { store, _ in
            let clock = TestClock()
            var history = FeedHistory(seed: 9)
            try await history.run(4, on: store)
            let session = try await Self.caughtUp(store, clock: clock)
            let (stop, stopping) = AsyncStream<Void>.makeStream()
            let received = Received()
            let updates = try session.updates(heartbeat: .seconds(15), until: stop)
            let following = Task {
                for try await update in updates {
                    if case .page(let page) = update {
                        received.state.withLock {
                            $0.replica.apply(page)
                            $0.pages += 1
                        }
                    }
                }
            }
            // Caught up: the heartbeat timer is set, and nothing was sent.
            try await clock.waitForSleepers(remaining: [.seconds(15)])
            #expect(received.state.withLock { $0.pages } == 0, "no empty first page")
            let step = FeedHistory.sample(type: FeedHistory.steps, value: 4, minute: 800, uuid: UUID())
            try await store.save(step)
            try await waitUntil("the commit read") { received.replica.live == [step.uuid] }
            #expect(received.state.withLock { $0.pages } == 1)
            stopping.yield()
            try await following.value
            try await waitUntil("the heartbeat timer ended with the updates") { clock.sleeperCount == 0 }
            #expect(received.heartbeats.isEmpty, "the clock never moved")
            try await expectAuditPasses(store)
        }
    }
}
