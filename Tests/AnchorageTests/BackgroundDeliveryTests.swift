import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import Anchorage

@Suite("Background delivery: what a node means by it")
struct BackgroundDeliveryTests {
    static let app = HKSource(name: "Steps Widget", bundleIdentifier: "com.example.widget")

    /// An app's store with read access to steps, on `directory`.
    static func appStore(
        _ directory: URL,
        owner: HKHealthStore,
        configuration: HKHealthStore.Configuration
    ) async throws
        -> HKHealthStore
    {
        let store = HKHealthStore(directory: directory, principal: app, configuration: configuration)
        try await store.requestAuthorization(toShare: [], read: [stepType])
        try await owner.setAuthorization(for: app, read: [stepType], granted: true)
        return store
    }

    /// Each call of an observer query, with what the app's anchored query
    /// found new at that call; the app keeps its anchor as an app would.
    final class App: Sendable {
        let calls = Collector<[UUID]>()
        private let anchor = Mutex<HKQueryAnchor?>(nil)
        private let acknowledges: Bool

        init(acknowledges: Bool = true) { self.acknowledges = acknowledges }

        func observer(_ store: HKHealthStore) -> HKObserverQuery {
            HKObserverQuery(sampleType: stepType, predicate: nil) { [self] _, done, error in
                #expect(error == nil)
                let from = anchor.withLock { $0 }
                let query = HKAnchoredObjectQuery(
                    type: stepType,
                    predicate: nil,
                    anchor: from,
                    limit: HKObjectQueryNoLimit
                ) {
                    _,
                    added,
                    _,
                    newAnchor,
                    _ in
                    self.anchor.withLock { $0 = newAnchor }
                    self.calls.append((added ?? []).map(\.uuid))
                    if self.acknowledges { done() }
                }
                store.execute(query)
            }
        }
    }

    static func configuration(_ clock: TestClock) -> HKHealthStore.Configuration {
        var configuration = HKHealthStore.Configuration.forTests
        configuration.observerQueriesFireOnStart = false
        configuration.clock = StoreClock(clock)
        configuration.backgroundDeliveryRetryWait = .seconds(30)
        return configuration
    }

    @Test(
        "OBS-2: an app that is down while changes happen is told once when it comes back, and each change reaches it once"
    )
    func downThenBack() async throws {
        let clock = TestClock()
        try await withTemporaryStore(configuration: Self.configuration(clock)) { owner, directory in
            let store = try await Self.appStore(directory, owner: owner, configuration: Self.configuration(clock))
            try await store.enableBackgroundDelivery(for: stepType, frequency: .immediate)
            #expect(try store.backgroundDeliveries() == [stepType: .immediate])

            // The app is not running: three changes happen.
            let missed = [steps(1, atMinute: 1), steps(2, atMinute: 2), steps(3, atMinute: 3)]
            try await owner.save(missed)

            let app = App()
            let first = app.observer(store)
            store.execute(first)
            try await waitUntil("app.calls.count == 1") { app.calls.count == 1 }
            #expect(app.calls.all == [missed.map(\.uuid)], "one call on start, with the three changes")

            // A change while it runs: one more call, with just that change.
            let live = steps(4, atMinute: 4)
            try await owner.save([live])
            try await waitUntil("app.calls.count == 2") { app.calls.count == 2 }
            #expect(app.calls.all.last == [live.uuid])
            store.stop(first)

            // Acknowledged through the head: a restart with nothing new is
            // told nothing; the next change is its next call.
            let engine = try await owner.engine()
            let caller = Caller(revision: HKSourceRevision(source: Self.app, version: nil))
            func acknowledged() -> UInt64? {
                (try? engine.deliveryRegistrations(of: caller, for: [stepType]))?[stepType.identifier]?.acknowledged
            }
            let head = try engine.read { try engine.head(in: $0) }
            try await waitUntil("acknowledged() == head") { acknowledged() == head }
            #expect(acknowledged() == head)
            let again = app.observer(store)
            store.execute(again)
            let after = steps(5, atMinute: 5)
            try await owner.save([after])
            try await waitUntil("app.calls.count == 3") { app.calls.count == 3 }
            #expect(app.calls.all.count == 3 && app.calls.all.last == [after.uuid])
            store.stop(again)
            await store.close()
        }
    }

    @Test("OBS-2: an update the app does not acknowledge is delivered again, waiting twice as long each time")
    func retriesUntilAcknowledged() async throws {
        let clock = TestClock()
        try await withTemporaryStore(configuration: Self.configuration(clock)) { owner, directory in
            let store = try await Self.appStore(directory, owner: owner, configuration: Self.configuration(clock))
            try await store.enableBackgroundDelivery(for: stepType, frequency: .immediate)
            try await owner.save([steps(1)])

            let calls = Collector<Int>()
            let acknowledge = Mutex(false)
            let query = HKObserverQuery(sampleType: stepType, predicate: nil) { _, done, _ in
                calls.append(calls.count + 1)
                if acknowledge.withLock({ $0 }) { done() }
            }
            store.execute(query)
            try await waitUntil("calls.count == 1") { calls.count == 1 }
            try await waitUntil("clock.remaining == [.seconds(30)]") { clock.remaining == [.seconds(30)] }
            clock.advance(by: .seconds(30))
            try await waitUntil("calls.count == 2") { calls.count == 2 }
            // The next wait is twice as long.
            try await waitUntil("clock.remaining == [.seconds(60)]") { clock.remaining == [.seconds(60)] }
            acknowledge.withLock { $0 = true }
            clock.advance(by: .seconds(60))
            try await waitUntil("calls.count == 3") { calls.count == 3 }
            // Acknowledged: no timer is left, and the position is stored.
            try await waitUntil("clock.sleeperCount == 0") { clock.sleeperCount == 0 }
            #expect(calls.count == 3)
            store.stop(query)
            await store.close()
        }
    }

    @Test("OBS-2: an hourly registration coalesces the changes of an hour into one call")
    func hourly() async throws {
        let clock = TestClock()
        try await withTemporaryStore(configuration: Self.configuration(clock)) { owner, directory in
            let store = try await Self.appStore(directory, owner: owner, configuration: Self.configuration(clock))
            try await store.enableBackgroundDelivery(for: stepType, frequency: .hourly)
            let app = App()
            let query = app.observer(store)
            store.execute(query)
            let first = steps(1)
            try await owner.save([first])
            try await waitUntil("app.calls.count == 1") { app.calls.count == 1 }
            let second = steps(2, atMinute: 1)
            let third = steps(3, atMinute: 2)
            try await owner.save([second])
            try await owner.save([third])
            try await waitUntil("clock.sleeperCount >= 1") { clock.sleeperCount >= 1 }
            #expect(app.calls.count == 1, "within the hour, nothing more")
            clock.advance(by: .seconds(3_600))
            try await waitUntil("app.calls.count == 2") { app.calls.count == 2 }
            #expect(app.calls.all == [[first.uuid], [second.uuid, third.uuid]])
            store.stop(query)
            await store.close()
        }
    }

    @Test("enabling needs a sample type the app asked to read; disabling ends it, for one type or all")
    func enableAndDisable() async throws {
        try await withTemporaryStore { owner, directory in
            let store = HKHealthStore(directory: directory, principal: Self.app, configuration: .forTests)
            await expectCode(.errorAuthorizationNotDetermined) {
                try await store.enableBackgroundDelivery(for: stepType, frequency: .daily)
            }
            await expectCode(.errorInvalidArgument) {
                try await store.enableBackgroundDelivery(for: HKCharacteristicType(.bloodType), frequency: .daily)
            }
            try await store.requestAuthorization(toShare: [], read: [stepType, heartRateType])
            try await store.enableBackgroundDelivery(for: stepType, frequency: .daily)
            try await store.enableBackgroundDelivery(for: heartRateType, frequency: .weekly)
            try await store.enableBackgroundDelivery(for: stepType, frequency: .hourly)
            #expect(try store.backgroundDeliveries() == [stepType: .hourly, heartRateType: .weekly])
            #expect(try owner.backgroundDeliveries().isEmpty, "registrations are per app")
            try await store.disableBackgroundDelivery(for: stepType)
            #expect(try store.backgroundDeliveries() == [heartRateType: .weekly])
            try await store.disableAllBackgroundDelivery()
            #expect(try store.backgroundDeliveries().isEmpty)
            await store.close()
        }
    }
}
