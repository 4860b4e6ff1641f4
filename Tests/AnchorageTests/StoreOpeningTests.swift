import AnchorageStoreTesting
import AnchorageTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Anchorage

/// Opening a store runs on a thread of its own and holds no lock of the
/// process while it runs: a slow open (a replay of stale projections) holds
/// up neither `HKHealthStore.init`, nor other stores, nor the caller's
/// thread; operations on the store wait for it.
///
/// The time limit is a guard against a hang only: the tests wait for
/// states, and a machine running the whole suite may take a while.
@Suite("Opening stores", .serialized, .timeLimit(.minutes(10)))
struct StoreOpeningTests {
    @Test("while one directory's open is held up, init returns, another store works, and the first works once let go")
    func slowOpenHoldsUpNothingElse() async throws {
        try await withTemporaryDirectory { base in
            let slow = base.appendingPathComponent("slow")
            let other = base.appendingPathComponent("other")
            // The open waits on its own thread (never on the pool) until let go.
            let gate = DispatchSemaphore(value: 0)
            let entered = Mutex(false)
            let slowPath = slow.standardizedFileURL.path
            StoreRegistry.willOpen.withLock {
                $0 = { path in
                    guard path == slowPath else { return }
                    entered.withLock { $0 = true }
                    gate.wait()
                }
            }
            defer { StoreRegistry.willOpen.withLock { $0 = nil } }
            defer { gate.signal() }  // never left holding the open, even when the test fails

            let held = HKHealthStore(directory: slow, configuration: .forTests)  // returns while the open waits
            try await waitUntil("the open started on its own thread") { entered.withLock { $0 } }
            let second = HKHealthStore(directory: slow, configuration: .forTests)  // shares the same open
            let saving = Task { try await held.save(steps(1, atMinute: 0)) }

            let free = HKHealthStore(directory: other, configuration: .forTests)
            try await free.save(steps(2, atMinute: 0))
            #expect(try await samples(in: free, of: stepType).count == 1, "another directory opens and works meanwhile")

            gate.signal()
            try await saving.value
            #expect(try await samples(in: second, of: stepType).count == 1, "the waiting store shares the engine")
            let (first, shared) = (try await held.engine(), try await second.engine())
            #expect(first === shared)
            for store in [held, second, free] { await store.close() }
        }
    }

    @Test("a store that cannot be opened reports why from every operation, synchronous or not")
    func failedOpen() async throws {
        try await withTemporaryDirectory { base in
            let file = base.appendingPathComponent("a-file")
            try Data("not a directory".utf8).write(to: file)
            let store = HKHealthStore(directory: file, configuration: .forTests)
            // openError blocks until the open is done: on a thread of its own.
            #expect(await runBlocking { store.openError?.code } == .errorDatabaseInaccessible)
            await expectCode(.errorDatabaseInaccessible) { try await store.save(steps(1, atMinute: 0)) }
            #expect(throws: HKError.self) { try store.currentAnchor() }
            await store.close()
        }
    }
}
