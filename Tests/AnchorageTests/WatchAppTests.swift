import AnchorageLog
import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

/// `startWatchApp`: HealthKit's call, with the only answer Linux can give.
@Suite("Starting the watch app")
struct WatchAppTests {
    @Test("startWatchApp fails with errorHealthDataUnavailable, in the callback and the async form, and stores nothing")
    func noWatch() async throws {
        try await withTemporaryStore { store, _ in
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = .running
            await #expect(throws: HKError.self) { try await store.startWatchApp(toHandle: configuration) }
            do {
                try await store.startWatchApp(toHandle: configuration)
            } catch let error as HKError {
                #expect(error.code == .errorHealthDataUnavailable)
                #expect(error.message.contains("no paired Apple Watch"))
            }
            let outcome: (Bool, HKError.Code?) = await withCheckedContinuation { continuation in
                store.startWatchApp(with: configuration) { started, error in
                    continuation.resume(returning: (started, (error as? HKError)?.code))
                }
            }
            #expect(outcome.0 == false && outcome.1 == .errorHealthDataUnavailable)
            #expect(try store.eventLog().head.seq == 0)
        }
    }
}
