import AnchorageService
import AnchorageTesting
import Foundation
import Synchronization
import Testing

/// A store whose holders wait until it is stopped.
final class StoppableStore: Sendable {
    let name: String
    private let state = Mutex<(stopped: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    init(name: String) { self.name = name }

    var isStopped: Bool { state.withLock { $0.stopped } }

    /// How many holders wait for the stop.
    var waiting: Int { state.withLock { $0.waiters.count } }

    func stop() {
        let waiters = state.withLock { state in
            state.stopped = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the store is stopped (a followed feed's holder).
    func untilStopped() async {
        await withCheckedContinuation { continuation in
            let stopped = state.withLock { state in
                if !state.stopped { state.waiters.append(continuation) }
                return state.stopped
            }
            if stopped { continuation.resume() }
        }
    }
}

@Suite("Removing a store from a node's pool while requests hold it")
struct StorePoolRemovalTests {
    @Test(
        "a removal asks the store's holders to stop (a followed feed ends), waits for them, closes the store once, and later requests are storeNotFound"
    )
    func removalStopsHolders() async throws {
        let closes = Mutex(0)
        let opened = Mutex<[String: StoppableStore]>([:])
        let pool = StorePool<StoppableStore>(
            open: { name in
                let store = StoppableStore(name: name.rawValue)
                opened.withLock { $0[name.rawValue] = store }
                return store
            },
            close: { _ in closes.withLock { $0 += 1 } },
            stop: { $0.stop() }
        )
        let alice = try StoreName("alice")
        let followers = (0..<3).map { _ in Task { try await pool.withStore(alice) { await $0.untilStopped() } } }
        let bob = Task { try await pool.withStore(try StoreName("bob")) { $0.name } }
        #expect(try await bob.value == "bob")
        try await waitUntil("alice and bob are open") { pool.openCount == 2 }
        // Each follower holds alice before the removal begins (a follower
        // that came after it would be refused, which is another test).
        try await waitUntil("alice's three followers hold it") { opened.withLock { $0["alice"]?.waiting } == 3 }
        // Returns only once every follower has ended.
        try await finishes("the removal, once its followers stop") { await pool.remove(alice) }
        for follower in followers { try await follower.value }
        #expect(closes.withLock { $0 } == 1, "alice closed once, after its holders; bob stays open")
        #expect(pool.openCount == 1)
        await #expect(throws: ServiceError(.storeNotFound, "there is no store alice")) {
            try await pool.withStore(alice) { $0.name }
        }
        pool.endRemoval(alice)
    }

    @Test("a store still opening when its removal begins is stopped as soon as it is open; its waiting requests end")
    func removalWhileOpening() async throws {
        let (gate, release) = AsyncStream<Void>.makeStream()
        let opened = Mutex<StoppableStore?>(nil)
        let pool = StorePool<StoppableStore>(
            open: { name in
                for await _ in gate { break }
                let store = StoppableStore(name: name.rawValue)
                opened.withLock { $0 = store }
                return store
            },
            close: { _ in },
            stop: { $0.stop() }
        )
        let alice = try StoreName("alice")
        let follower = Task { try await pool.withStore(alice) { await $0.untilStopped() } }
        try await waitUntil("alice is opening") { pool.openCount == 1 }
        let removal = Task { await pool.remove(alice) }
        try await waitUntil("the removal has begun") { pool.isRemoving(alice) }
        await #expect(throws: ServiceError(.storeNotFound, "there is no store alice")) {
            try await pool.withStore(alice) { $0.name }
        }
        release.yield()
        try await finishes("the follower, stopped once alice is open") { try await follower.value }
        try await finishes("the removal") { await removal.value }
        #expect(opened.withLock { $0?.isStopped } == true)
        #expect(pool.openCount == 0)
    }
}
