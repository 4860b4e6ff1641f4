import AnchorageService
import AnchorageTesting
import Foundation
import Testing

@Suite("The node's store-updates feed in the registry: chained updates, deletions, compaction, cursors")
struct StoreUpdatesTests {
    @Test(
        "each store's updates chain: an update's since is the store's previous anchor; a repeated anchor adds nothing"
    )
    func chained() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            let alice = try StoreName("alice")
            let bob = try StoreName("bob")
            try registry.createStores([alice, bob])
            #expect(try registry.storeUpdatesHead() == 0)
            #expect(try registry.publishStoreUpdates([(alice, "a1"), (bob, "b1")]) == 2)
            #expect(try registry.publishStoreUpdates([(alice, "a1")]) == 2)
            #expect(try registry.publishStoreUpdates([(alice, "a2")]) == 3)
            let (updates, hasMore) = try registry.storeUpdates(after: 0, limit: 10)
            #expect(!hasMore)
            #expect(
                updates == [
                    StoreUpdate(seq: 1, store: "alice", kind: .changed, since: nil, anchor: "a1"),
                    StoreUpdate(seq: 2, store: "bob", kind: .changed, since: nil, anchor: "b1"),
                    StoreUpdate(seq: 3, store: "alice", kind: .changed, since: "a1", anchor: "a2"),
                ]
            )
            let page = try registry.storeUpdates(after: 1, limit: 1)
            #expect(page.updates.map(\.seq) == [2] && page.hasMore)
            #expect(try registry.publishedAnchor(of: alice) == "a2")
            #expect(try registry.storeUpdates(after: 3, limit: 10).updates.isEmpty)
        }
    }

    @Test(
        "a deleted store's deletion is an update; nothing more of it is published; a store created again with its id starts from the beginning"
    )
    func deletion() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            let alice = try StoreName("alice")
            try registry.createStore(alice)
            try registry.publishStoreUpdates([(alice, "a1")])
            try registry.markStoreOpen(alice, true)
            try registry.deleteStore(alice)
            #expect(try registry.publishStoreUpdates([(alice, "a2")]) == 2)
            #expect(try registry.storesMarkedOpen().isEmpty)
            try registry.createStore(alice)
            try registry.publishStoreUpdates([(alice, "n1")])
            let updates = try registry.storeUpdates(after: 0, limit: 10).updates
            #expect(
                updates == [
                    StoreUpdate(seq: 1, store: "alice", kind: .changed, since: nil, anchor: "a1"),
                    StoreUpdate(seq: 2, store: "alice", kind: .deleted, since: "a1", anchor: nil),
                    StoreUpdate(seq: 3, store: "alice", kind: .changed, since: nil, anchor: "n1"),
                ]
            )
        }
    }

    @Test("stores marked open are listed until marked closed; the marks survive reopening the registry")
    func openMarks() async throws {
        try await withTemporaryDirectory { root in
            let names = try ["alice", "bob", "carol"].map(StoreName.init)
            do {
                let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
                try registry.createStores(names)
                for name in names { try registry.markStoreOpen(name, true) }
                try registry.markStoreOpen(names[1], false)
                try registry.markStoreOpen(names[1], false)
            }
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            #expect(try registry.storesMarkedOpen() == [names[0], names[2]])
        }
    }

    @Test(
        "a generated history with compaction at random points: from every cursor, each store's updates chain without a gap from at or before where the store stood at that cursor to its last anchor, and a compacted stretch holds one update per store"
    )
    func compactionKeepsCoverage() async throws {
        for seed in UInt64(1)...6 {
            try await withTemporaryDirectory { root in
                var generator = SeededGenerator(seed: seed)
                let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
                let names = try (0..<5).map { try StoreName("s\($0)") }
                try registry.createStores(names)
                // Each store's position after every update: positions[seq][store].
                var positions: [[StoreName: Int]] = [[:]]
                var current: [StoreName: Int] = [:]
                let retained = UInt64.random(in: 0...6, using: &generator)
                for _ in 0..<120 {
                    var batch: [(store: StoreName, anchor: String)] = []
                    for name in names.shuffled(using: &generator).prefix(Int.random(in: 1...3, using: &generator)) {
                        current[name, default: 0] += 1
                        batch.append((name, "\(name)@\(current[name]!)"))
                    }
                    try registry.publishStoreUpdates(batch)
                    for item in batch {
                        var after = positions.last!
                        after[item.store] = current[item.store]
                        positions.append(after)
                    }
                    if Int.random(in: 0..<4, using: &generator) == 0 {
                        try registry.compactStoreUpdates(
                            retained: retained,
                            limit: Int.random(in: 1...40, using: &generator)
                        )
                    }
                }
                while try registry.compactStoreUpdates(retained: retained, limit: 7) > 0 {}
                let head = try registry.storeUpdatesHead()
                #expect(head == UInt64(positions.count - 1))
                func position(_ anchor: String?) -> Int { anchor.map { Int($0.split(separator: "@")[1])! } ?? 0 }
                for cursor in 0...head {
                    let updates = try registry.storeUpdates(after: cursor, limit: 10_000).updates
                    for name in names {
                        let mine = updates.filter { $0.store == name.rawValue }
                        let stood = positions[Int(cursor)][name] ?? 0
                        guard current[name, default: 0] > stood else {
                            #expect(mine.isEmpty, "seed \(seed), cursor \(cursor), \(name): \(mine)")
                            continue
                        }
                        #expect(!mine.isEmpty && position(mine[0].since) <= stood, "seed \(seed), cursor \(cursor)")
                        for (before, after) in zip(mine, mine.dropFirst()) {
                            #expect(after.since == before.anchor, "seed \(seed), cursor \(cursor), \(name)")
                        }
                        #expect(position(mine.last?.anchor) == current[name])
                    }
                }
                // The compacted stretch: at most one update per store.
                let compacted = try registry.storeUpdates(after: 0, limit: 10_000).updates
                    .filter { $0.seq + retained <= head }
                #expect(Set(compacted.map(\.store)).count == compacted.count, "seed \(seed): \(compacted)")
            }
        }
    }

    @Test("a cursor is 32 hex digits, '-' and a number; another node's, or one past the head, is refused")
    func cursors() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            let feed = StoreUpdatesFeed(registry: registry)
            let id = try registry.storeUpdatesID()
            let again = try registry.storeUpdatesID()
            #expect(id.count == 32 && id == again)
            let cursor = try StoreUpdatesCursor(parsing: "\(id)-0")
            #expect(cursor.description == "\(id)-0")
            try feed.check(cursor)
            for text in ["", "now", "\(id)", "\(id)-", "\(id)--1", "\(id)-x", "\(id.uppercased())-1", "1-1"] {
                #expect(throws: ServiceError.self, "\(text)") { try StoreUpdatesCursor(parsing: text) }
            }
            let other = StoreUpdatesCursor(registry: String(repeating: "0", count: 32), seq: 0)
            #expect { try feed.check(other) } throws: { ($0 as? ServiceError)?.code == .invalidCursor }
            #expect { try feed.check(StoreUpdatesCursor(registry: id, seq: 1)) } throws: {
                ($0 as? ServiceError)?.code == .invalidCursor
            }
        }
    }

    @Test(
        "stores opening together are marked open durably before they are used; a close records the last update and unmarks in one commit; a store closed and opened again stays marked; a deleted store's id is marked again when it opens anew"
    )
    func marksThroughTheFeed() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            let names = try (0..<20).map { try StoreName("m\($0)") }
            try registry.createStores(names)
            let feed = StoreUpdatesFeed(registry: registry)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in names { group.addTask { try await feed.markOpen(name) } }
                try await group.waitForAll()
            }
            #expect(Set(try registry.storesMarkedOpen()) == Set(names))
            feed.closing(names[0], anchor: "a1")
            #expect(try registry.publishedAnchor(of: names[0]) == "a1")
            #expect(!(try registry.storesMarkedOpen()).contains(names[0]))
            // Closed and opened again: marked.
            feed.closing(names[1], anchor: "b1")
            try await feed.markOpen(names[1])
            #expect(try registry.storesMarkedOpen().contains(names[1]))
            // A close whose anchor is unknown keeps the mark, for the next start to check.
            feed.closing(names[2], anchor: nil)
            #expect(try registry.storesMarkedOpen().contains(names[2]))
            try registry.deleteStore(names[3])
            feed.deletionRecorded(names[3])
            try registry.createStore(names[3])
            try await feed.markOpen(names[3])
            #expect(try registry.storesMarkedOpen().contains(names[3]))
        }
    }

    @Test("changes noted are committed together, in the order noted, newest anchor per store; a waiting reader wakes")
    func groupCommit() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            let names = try ["alice", "bob"].map(StoreName.init)
            try registry.createStores(names)
            let feed = StoreUpdatesFeed(registry: registry)
            let start = try feed.headCursor()
            let waiting = Task { try await feed.waitForUpdates(after: start, limit: 10, timeout: .seconds(600)) }
            feed.changed(names[1], anchor: "b1")
            feed.changed(names[0], anchor: "a1")
            feed.changed(names[1], anchor: "b2")
            try feed.commitPending()
            let page = try await waiting.value
            #expect(page.updates.map(\.store) == ["bob", "alice"])
            #expect(page.updates.map(\.anchor) == ["b2", "a1"])
            #expect(page.newCursor.seq == 2 && !page.hasMore)
            let empty = try await feed.waitForUpdates(after: page.newCursor, limit: 10, timeout: .zero)
            #expect(empty.updates.isEmpty && empty.newCursor == page.newCursor)
        }
    }
}
