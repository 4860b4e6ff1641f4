import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Synchronization
import Testing

/// A stand-in for a store: the pool opens and closes it, the tests count.
final class FakeStore: Sendable {
    let name: String
    let closed = Mutex(false)
    init(name: String) { self.name = name }
}

/// A value shared between tasks.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func update<R>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
    var current: Value { value.withLock { $0 } }
}

/// What a pool did, watched from its callbacks.
final class PoolWatch: Sendable {
    struct Counts {
        var open = 0
        var opening = 0
        var mostOpen = 0
        var mostOpening = 0
        var opens = 0
        var closes = 0
        var closedWhileHeld = 0
        /// Opens of a store whose previous handle was not closed yet: a real
        /// store would refuse them as in use.
        var openedBeforeClosed = 0
        var live: [String: Int] = [:]
    }
    let counts = Mutex(Counts())
    let held = Mutex<[ObjectIdentifier: Int]>([:])

    func pool(
        capacity: Int,
        maximumOpening: Int,
        idle: Duration = .seconds(60),
        clock: StoreClock = .continuous,
        failing: Set<String> = []
    ) -> StorePool<FakeStore> {
        var configuration = StorePool<FakeStore>.Configuration()
        configuration.capacity = capacity
        configuration.maximumOpening = maximumOpening
        configuration.idle = idle
        return StorePool(
            configuration: configuration,
            clock: clock,
            open: { [self] name in
                counts.withLock {
                    if $0.live[name.rawValue, default: 0] > 0 { $0.openedBeforeClosed += 1 }
                    $0.live[name.rawValue, default: 0] += 1
                    $0.opening += 1
                    $0.open += 1
                    $0.opens += 1
                    $0.mostOpen = max($0.mostOpen, $0.open)
                    $0.mostOpening = max($0.mostOpening, $0.opening)
                }
                await Task.yield()
                counts.withLock { $0.opening -= 1 }
                if failing.contains(name.rawValue) {
                    counts.withLock {
                        $0.open -= 1
                        $0.live[name.rawValue, default: 0] -= 1
                    }
                    throw ServiceError(.storageFailed, "cannot open \(name)")
                }
                return FakeStore(name: name.rawValue)
            },
            close: { [self] store in
                // A close takes a while, as a store's does (its writer ends, its files close).
                await Task.yield()
                let wasHeld = held.withLock { ($0[ObjectIdentifier(store)] ?? 0) > 0 }
                store.closed.withLock { $0 = true }
                counts.withLock {
                    $0.live[store.name, default: 0] -= 1
                    $0.open -= 1
                    $0.closes += 1
                    if wasHeld { $0.closedWhileHeld += 1 }
                }
            }
        )
    }

    /// Runs `body` while the watch counts the store as held.
    func hold<R>(_ store: FakeStore, _ body: () async throws -> R) async rethrows -> R {
        held.withLock { $0[ObjectIdentifier(store), default: 0] += 1 }
        defer { held.withLock { $0[ObjectIdentifier(store), default: 0] -= 1 } }
        #expect(!store.closed.withLock { $0 }, "a store handed out is open")
        return try await body()
    }
}

@Suite("A node's open stores: opened on demand, closed when idle, bounded, fair")
struct StorePoolTests {
    @Test(
        "thousands of first requests to cold stores at once: never more open than the capacity, never more opening than the limit, each served, none closed while held",
        arguments: testSeeds([3, 17])
    )
    func flood(seed: UInt64) async throws {
        let watch = PoolWatch()
        let pool = watch.pool(capacity: 40, maximumOpening: 4)
        var random = SeededGenerator(seed: seed)
        let names = (0..<3_000).map { _ in "s\(Int.random(in: 0..<400, using: &random))" }
        let served = try await withThrowingTaskGroup(of: Bool.self) { group in
            for name in names {
                group.addTask {
                    try await pool.withStore(try StoreName(name)) { store in
                        await watch.hold(store) {
                            await Task.yield()
                            return store.name == name
                        }
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(served == names.count)
        let counts = watch.counts.withLock { $0 }
        #expect(counts.mostOpen <= 40 && counts.mostOpening <= 4, "\(counts)")
        #expect(counts.closedWhileHeld == 0)
        #expect(counts.openedBeforeClosed == 0, "a store opened again before its old handle closed")
        #expect(counts.opens >= Set(names).count)
        #expect(pool.openCount == counts.open && counts.open <= 40)
        await pool.closeAll()
        #expect(watch.counts.withLock { $0.open } == 0)
        #expect(pool.openCount == 0)
    }

    @Test(
        "idle sweeps during a flood of cold stores: the stores still closing count, so open ones never exceed the capacity, and none opens again before its old handle is closed",
        arguments: testSeeds([5, 29])
    )
    func sweepsDuringFlood(seed: UInt64) async throws {
        let watch = PoolWatch()
        // Idle at once: every sweep closes each store nobody holds.
        let pool = watch.pool(capacity: 24, maximumOpening: 4, idle: .zero, clock: StoreClock(TestClock()))
        var random = SeededGenerator(seed: seed)
        let names = (0..<2_000).map { _ in "s\(Int.random(in: 0..<300, using: &random))" }
        let sweeper = Task {
            while !Task.isCancelled {
                await pool.closeIdle()
                await Task.yield()
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in names {
                group.addTask {
                    try await pool.withStore(try StoreName(name)) { store in
                        await watch.hold(store) { await Task.yield() }
                    }
                }
            }
            try await group.waitForAll()
        }
        sweeper.cancel()
        await sweeper.value
        let counts = watch.counts.withLock { $0 }
        #expect(counts.mostOpen <= 24, "\(counts)")
        #expect(counts.closedWhileHeld == 0)
        #expect(counts.openedBeforeClosed == 0, "a store opened again before its old handle closed")
        await pool.closeAll()
        #expect(watch.counts.withLock { $0.open } == 0)
    }

    @Test(
        "a store nobody uses closes once idle, on the pool's clock; one in use stays open; the next request opens it again"
    )
    func idle() async throws {
        let clock = TestClock()
        let watch = PoolWatch()
        let pool = watch.pool(capacity: 10, maximumOpening: 2, idle: .seconds(60), clock: StoreClock(clock))
        let alice = try StoreName("alice")
        let bob = try StoreName("bob")
        _ = try await pool.withStore(alice) { _ in 1 }
        clock.advance(by: .seconds(30))
        let (entered, release) = AsyncStream<Void>.makeStream()
        let holding = Task {
            try await pool.withStore(bob) { _ in
                for await _ in entered {}
            }
        }
        try await waitUntil("bob is open") { pool.openCount == 2 }
        clock.advance(by: .seconds(29))
        #expect(await pool.closeIdle() == 0, "alice was used 59 s ago")
        clock.advance(by: .seconds(1))
        #expect(await pool.closeIdle() == 1, "alice, idle for 60 s")
        clock.advance(by: .seconds(600))
        #expect(await pool.closeIdle() == 0, "bob is held")
        release.finish()
        try await holding.value
        clock.advance(by: .seconds(60))
        #expect(await pool.closeIdle() == 1)
        #expect(pool.openCount == 0)
        _ = try await pool.withStore(alice) { _ in 1 }
        #expect(watch.counts.withLock { ($0.opens, $0.open) } == (3, 1))
    }

    @Test("past the capacity the least recently used idle store closes first")
    func leastRecentlyUsed() async throws {
        let clock = TestClock()
        let watch = PoolWatch()
        let pool = watch.pool(capacity: 3, maximumOpening: 1, clock: StoreClock(clock))
        var order: [String] = []
        for name in ["a", "b", "c", "a", "d", "e"] {
            clock.advance(by: .seconds(1))
            order.append(try await pool.withStore(try StoreName(name)) { $0.name })
        }
        #expect(order == ["a", "b", "c", "a", "d", "e"])
        // b then c were the least recently used when d and e came: a, d, e stay.
        #expect(watch.counts.withLock { ($0.opens, $0.closes) } == (5, 2))
        _ = try await pool.withStore(try StoreName("a")) { $0.name }
        #expect(watch.counts.withLock { $0.opens } == 5, "a stayed open")
    }

    @Test("a store that cannot be opened fails its request and the ones that waited for it; the pool goes on")
    func failingOpen() async throws {
        let watch = PoolWatch()
        let pool = watch.pool(capacity: 2, maximumOpening: 1, failing: ["broken"])
        await #expect(throws: ServiceError.self) {
            try await pool.withStore(try StoreName("broken")) { _ in 1 }
        }
        #expect(try await pool.withStore(try StoreName("fine")) { $0.name } == "fine")
        #expect(pool.openCount == 1)
    }

    @Test(
        "removing a store: new requests are storeNotFound at once, the removal waits for the last holder, then the id opens anew"
    )
    func removal() async throws {
        let watch = PoolWatch()
        let pool = watch.pool(capacity: 4, maximumOpening: 2)
        let alice = try StoreName("alice")
        let (gate, open) = AsyncStream<Void>.makeStream()
        let holder = Task { try await pool.withStore(alice) { _ in for await _ in gate {} } }
        try await waitUntil("alice is held") { pool.openCount == 1 }
        let removed = Shared(false)
        let removal = Task {
            await pool.remove(alice)
            removed.update { $0 = true }
        }
        try await waitUntil("new requests for alice are refused") {
            do {
                _ = try await pool.withStore(alice) { _ in 1 }
                return false
            } catch let error as ServiceError {
                return error.code == .storeNotFound
            }
        }
        #expect(!removed.current, "the holder still holds alice")
        open.finish()
        try await holder.value
        await removal.value
        #expect(watch.counts.withLock { ($0.open, $0.closedWhileHeld) } == (0, 0))
        pool.endRemoval(alice)
        #expect(try await pool.withStore(alice) { $0.name } == "alice")
    }

    @Test(
        "real stores: 200 stores through a pool of 16 hold at most 3 descriptors each (and one more while opening), 16 stores at a time; closed, they hold none"
    )
    func realStores() async throws {
        try await withTemporaryDirectory { root in
            var configuration = StorePool<HKHealthStore>.Configuration()
            configuration.capacity = 16
            configuration.maximumOpening = 4
            let storeConfiguration = HKHealthStore.Configuration.forTests
            let pool = StorePool<HKHealthStore>(
                configuration: configuration,
                open: { name in
                    let store = HKHealthStore(
                        directory: root.appending(path: name.rawValue),
                        configuration: storeConfiguration
                    )
                    try await store.opened()
                    return store
                },
                close: { await $0.close() }
            )
            let most = Shared(0)
            let start = Date(timeIntervalSince1970: 1_717_200_000)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        try await pool.withStore(try StoreName("s\(index)")) { store in
                            try await store.save(
                                HKQuantitySample(
                                    type: HKQuantityType(.stepCount),
                                    quantity: HKQuantity(unit: .count(), doubleValue: Double(index)),
                                    start: start,
                                    end: start.addingTimeInterval(60)
                                )
                            )
                            let now = openDescriptors(under: root)
                            most.update { $0 = max($0, now) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let peak = most.current
            // Each open store: data.mdb and projections.mdb twice each (LMDB's
            // writes go through a descriptor of their own) and their lock files;
            // a store being opened also holds anchorage.lock until its
            // environment is open and locked.
            #expect(peak > 0 && peak <= 6 * 16 + 4, "at most 6 descriptors per open store: \(peak)")
            await pool.closeAll()
            #expect(openDescriptors(under: root) == 0, "closed stores hold no descriptor")
            for index in [0, 77, 199] {
                let store = HKHealthStore(
                    directory: root.appending(path: "s\(index)"),
                    configuration: storeConfiguration
                )
                #expect(try store.eventLog().head.seq == 1)
                #expect(try store.eventLog().verify().problem == nil)
                await store.close()
            }
        }
    }
}
