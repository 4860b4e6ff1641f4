import AnchorageCore
import AnchorageTestRun
import AnchorageTesting
import Etcd
import Foundation
import Testing

@testable import AnchorageFleet

/// The fleet's store-updates feed read through etcd's history, against a
/// real etcd: generated histories of publications read back in pages of
/// random sizes, from every cursor, compared with a model.
@Suite("A fleet's store-updates feed", .serialized, .startsProcesses(weight: 1))
struct FleetStoreUpdatesTests {
    static func withFeed(
        windowCapacity: Int = 100_000,
        _ body: (EtcdTestCluster, EtcdClient, FleetStoreUpdates) async throws -> Void
    ) async throws {
        try await EtcdTestCluster.with(size: 1) { cluster in
            let etcd = try EtcdClient(.init(endpoints: cluster.endpoints))
            let keys = FleetKeys(root: "/fleet-\(UUID().uuidString.prefix(8))/")
            let feed = FleetStoreUpdates(etcd: etcd, keys: keys, windowCapacity: windowCapacity)
            let result = await Result(catchingAsync: { try await body(cluster, etcd, feed) })
            await etcd.shutdown()
            try result.get()
        }
    }

    /// One publication of the model: the stores and anchors, in order.
    typealias Publication = [(store: String, anchor: String)]

    /// Reads every update after `cursor` in pages of random sizes.
    static func readAll(
        _ feed: FleetStoreUpdates,
        after cursor: FleetUpdatesCursor?,
        using random: inout SeededGenerator
    ) async throws -> (updates: [FleetStoreUpdate], end: FleetUpdatesCursor) {
        var cursor = cursor
        var updates: [FleetStoreUpdate] = []
        for _ in 0..<10_000 {
            let page = try await feed.page(after: cursor, limit: Int.random(in: 1...60, using: &random))
            updates += page.updates
            // A page's cursor is its last update's, or where it ended.
            if let last = page.updates.last, page.hasMore { #expect(page.newCursor == last.cursor) }
            cursor = page.newCursor
            if !page.hasMore && page.updates.isEmpty { return (updates, page.newCursor) }
        }
        Issue.record("the feed did not end")
        return (updates, cursor!)
    }

    /// Where pages are read from: etcd's history only; the live window
    /// (no history read while it covers the cursor); a window of 50
    /// updates, so most cursors fall before it and pages mix both.
    enum Reading: String, CaseIterable, Sendable { case history, window, smallWindow }

    @Test(
        "generated histories: read in pages of any size from any cursor, from etcd's history or the live window, each store's updates chain (since = the anchor before) and end at its last anchor",
        arguments: zip(testSeeds([3, 17, 29]), Reading.allCases)
    )
    func generatedHistories(seed: UInt64, reading: Reading) async throws {
        var random = SeededGenerator(seed: seed)
        try await Self.withFeed(windowCapacity: reading == .smallWindow ? 50 : 100_000) { _, etcd, feed in
            let watching = reading == .history ? nil : Task { await feed.run() }
            defer { watching?.cancel() }
            if watching != nil { try await waitUntil("the feed's watch is live") { feed.window != nil } }
            let start = try await feed.headCursor()
            let stores = (0..<40).map { "s\($0)" }
            var model: [(store: String, anchor: String, since: String?)] = []
            var last: [String: String] = [:]
            for round in 0..<16 {
                // Unrelated writes between publications: revisions with no update.
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    _ = try await etcd.put(feed.keys.root + "other/\(round)", value: [1])
                }
                let count = Int.random(in: 1...FleetStoreUpdates.maximumBatch, using: &random)
                var publication: Publication = []
                for store in stores.shuffled(using: &random).prefix(count) {
                    publication.append((store, "\(store)@\(round)"))
                }
                try await feed.publish(publication, node: "n\(round % 3)", epoch: 1)
                for (store, anchor) in publication {
                    model.append((store, anchor, last[store]))
                    last[store] = anchor
                }
            }
            if watching != nil {
                let published = try await feed.headCursor().revision - 1
                try await waitUntil("the window holds every publication") {
                    (feed.window?.upperBound ?? 0) >= published
                }
                if reading == .window { #expect(feed.window!.lowerBound <= start.revision) }
            }
            let (all, end) = try await Self.readAll(feed, after: start, using: &random)
            switch reading {
            case .history: #expect(feed.historyReads > 0)
            case .window: #expect(feed.historyReads == 0)
            case .smallWindow: #expect(feed.historyReads > 0 && feed.window!.lowerBound > start.revision)
            }
            #expect(all.map(\.store) == model.map(\.store))
            #expect(all.map(\.anchor) == model.map(\.anchor))
            #expect(all.map(\.since) == model.map(\.since))
            // Every cursor resumes exactly after its update.
            for index in (0..<all.count).shuffled(using: &random).prefix(4) {
                let (rest, _) = try await Self.readAll(feed, after: all[index].cursor, using: &random)
                #expect(rest.map(\.anchor) == all[(index + 1)...].map(\.anchor), "after update \(index)")
            }
            // At the end: nothing more, and the end is stable.
            let tail = try await feed.page(after: end, limit: 10)
            #expect(tail.updates.isEmpty && !tail.hasMore)
            // From the beginning: every store listed at its last anchor, then nothing.
            let (listed, listedEnd) = try await Self.readAll(feed, after: nil, using: &random)
            #expect(Dictionary(uniqueKeysWithValues: listed.map { ($0.store, $0.anchor) }) == last)
            #expect(listed.allSatisfy { $0.since == nil })
            #expect(listed.map(\.store) == listed.map(\.store).sorted())
            // A publication after the listing follows it.
            try await feed.publish([("s1", "s1@late")], node: "n0", epoch: 2)
            let late = try await feed.headCursor().revision - 1
            if watching != nil {
                try await waitUntil("the window holds it") { (feed.window?.upperBound ?? 0) >= late }
            }
            let after = try await feed.page(after: listedEnd, limit: 10)
            #expect(after.updates.map(\.anchor) == ["s1@late"])
            #expect(after.updates.first?.since == last["s1"])
        }
    }

    @Test("cursors: another fleet's, one past etcd's revision, or text of another shape are invalidCursor")
    func invalidCursors() async throws {
        try await Self.withFeed { _, etcd, feed in
            try await feed.publish([("alice", "a1")], node: "n0", epoch: 1)
            let head = try await feed.headCursor()
            let other = FleetStoreUpdates(etcd: etcd, keys: FleetKeys(root: "/another-fleet/"))
            let foreign = try await other.headCursor()
            #expect(foreign.feed != head.feed)
            for cursor in [
                foreign,
                FleetUpdatesCursor(feed: head.feed, revision: head.revision + 5, position: .updates(seen: 0)),
            ] {
                let error = await #expect(throws: FleetError.self) { try await feed.page(after: cursor, limit: 10) }
                #expect(error?.code == .invalidCursor)
            }
            for text in [
                "", "now", "0123456789abcdef01234567-0-0", "0123456789abcdef01234567-5-x", "zz-1-1",
                "0123456789abcdef01234567-5-lBob", "0123456789abcdef01234567-5-l_bob",
                "0123456789abcdef01234567-5-la/b",
            ] {
                #expect(throws: FleetError.self) { try FleetUpdatesCursor(parsing: text) }
            }
            #expect(try FleetUpdatesCursor(parsing: head.description) == head)
            let listing = FleetUpdatesCursor(feed: head.feed, revision: 7, position: .listing(after: "bob-2"))
            #expect(try FleetUpdatesCursor(parsing: listing.description) == listing)
        }
    }

    @Test("a publication fenced on a placement that moved since publishes nothing: a deposed primary cannot publish")
    func fencedPublication() async throws {
        try await Self.withFeed { _, etcd, feed in
            let placement = feed.keys.store("alice")
            let led = try await etcd.put(placement, value: Array(#"{"primary":"n0"}"#.utf8)).revision
            let fence = EtcdCompare(placement, .equal, .modRevision(led))
            #expect(try await feed.publish([("alice", "a1")], node: "n0", epoch: 1, fences: [fence]))
            let before = try await feed.headCursor()
            // The controller promotes n1: n0's fence fails, nothing is written, the clock does not move.
            let promoted = try await etcd.put(placement, value: Array(#"{"primary":"n1"}"#.utf8)).revision
            #expect(try await !feed.publish([("alice", "a2-stale")], node: "n0", epoch: 1, fences: [fence]))
            #expect(try await feed.headCursor().revision == before.revision + 1, "only the placement's put")
            let fresh = EtcdCompare(placement, .equal, .modRevision(promoted))
            #expect(try await feed.publish([("alice", "b1")], node: "n1", epoch: 2, fences: [fresh]))
            let page = try await feed.page(after: before, limit: 10)
            #expect(page.updates.map(\.anchor) == ["b1"])
            #expect(page.updates.first?.since == "a1", "the new primary's update chains from the last published")
        }
    }

    @Test("a cursor whose revision etcd compacted away is cursorExpired; the listing reads on from now")
    func compactedCursor() async throws {
        try await Self.withFeed { _, etcd, feed in
            try await feed.publish([("alice", "a1")], node: "n0", epoch: 1)
            let old = try await feed.headCursor()
            try await feed.publish([("alice", "a2"), ("bob", "b1")], node: "n0", epoch: 1)
            try await feed.publish([("alice", "a3")], node: "n0", epoch: 1)
            let now = try await feed.headCursor()
            try await etcd.compact(before: now.revision - 1)
            let error = await #expect(throws: FleetError.self) { try await feed.page(after: old, limit: 10) }
            #expect(error?.code == .cursorExpired)
            let listed = try await feed.page(after: nil, limit: 10)
            #expect(listed.updates.map(\.anchor) == ["a3", "b1"])
        }
    }

    @Test("a long-poll at the head is woken by the next publication, and costs no etcd request while it waits")
    func longPoll() async throws {
        try await Self.withFeed { _, _, feed in
            let following = Task { await feed.run() }
            defer { following.cancel() }
            let head = try await feed.headCursor()
            let poll = Task { try await feed.waitForUpdates(after: head, limit: 10, timeout: .seconds(120)) }
            try await waitUntil("the consumer waits") { feed.waitingConsumers == 1 }
            try await feed.publish([("alice", "a1")], node: "n0", epoch: 1)
            let page = try await finishes("the long-poll") { try await poll.value }
            #expect(page.updates.map(\.anchor) == ["a1"])
            #expect(page.updates.first?.since == nil)
        }
    }
}
