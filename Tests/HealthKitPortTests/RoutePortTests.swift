import AnchorageStoreTesting
import CoreLocation
import Foundation
import HealthKit
import Testing

/// Route and heartbeat code written as HealthKit's documentation shows it
/// — `import HealthKit`, `import CoreLocation`, names qualified with the
/// module — compiled against this package and run on a store.
@Suite("Ports: routes and heartbeat series under import HealthKit")
struct RoutePortTests {
    /// What an app's workout code keeps: a store, a route builder, and the
    /// locations a location manager delivered.
    final class RunRecorder: Sendable {
        let healthStore: HKHealthStore
        let routeBuilder: HKWorkoutRouteBuilder

        init(healthStore: HKHealthStore) {
            self.healthStore = healthStore
            self.routeBuilder = HKWorkoutRouteBuilder(healthStore: healthStore, device: nil)
        }

        /// As in a location manager's delegate: keep the accurate fixes.
        func didUpdateLocations(_ locations: [CLLocation], inserted: @escaping @Sendable (Bool) -> Void) {
            let filtered = locations.filter { $0.horizontalAccuracy <= 50.0 }
            guard !filtered.isEmpty else { return inserted(false) }
            routeBuilder.insertRouteData(filtered) { success, error in
                if !success { print("inserting route data failed: \(String(describing: error))") }
                inserted(success)
            }
        }

        func finish(workout: HKWorkout) async throws -> HKWorkoutRoute {
            try await routeBuilder.finishRoute(with: workout, metadata: [HKMetadataKeyIndoorWorkout: false])
        }
    }

    @Test("SERIES-1: a workout route recorded and read back as HealthKit's documentation shows")
    func recordAndReadRoute() async throws {
        try await withTemporaryStore { healthStore, _ in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let workout = HKWorkout(
                activityType: .running,
                start: start,
                end: start.addingTimeInterval(600)
            )
            try await healthStore.save(workout)

            let recorder = RunRecorder(healthStore: healthStore)
            let fixes = (0..<300).map { second in
                CLLocation(
                    coordinate: CLLocationCoordinate2DMake(47.6 + Double(second) * 1e-5, -122.3),
                    altitude: 12,
                    horizontalAccuracy: second % 50 == 7 ? 80 : 5,
                    verticalAccuracy: 4,
                    course: 0,
                    speed: 2.9,
                    timestamp: start.addingTimeInterval(Double(second))
                )
            }
            let inserted = await withCheckedContinuation { continuation in
                recorder.didUpdateLocations(fixes) { continuation.resume(returning: $0) }
            }
            #expect(inserted)
            let route = try await recorder.finish(workout: workout)
            #expect(route.count == fixes.filter { $0.horizontalAccuracy <= 50 }.count)

            // Reading: find the workout's routes, then their locations.
            let predicate = HKQuery.predicateForObjects(from: workout)
            let routes = try await HKSampleQueryDescriptor(
                predicates: [.workoutRoute(predicate)],
                sortDescriptors: []
            ).result(for: healthStore)
            var distance: CLLocationDistance = 0
            var previous: CLLocation?
            for try await location in HKWorkoutRouteQueryDescriptor(routes[0]).results(for: healthStore) {
                if let previous { distance += location.distance(from: previous) }
                previous = location
            }
            // From the first fix to the last, 299e-5° of latitude north: 111.195 km per degree.
            #expect(abs(distance - 299 * 1.111_95) < 0.5)

            let metres = HealthKit.HKQuantity(unit: HealthKit.HKUnit.meter(), doubleValue: distance)
            #expect(metres.doubleValue(for: .meterUnit(with: .kilo)) < 1)
            #expect(routes[0].isKind(of: HKSeriesSample.self))
            #expect(!routes[0].isMember(of: HKSeriesSample.self))
            #expect(HKSeriesType.workoutRoute().isKind(of: HKSampleType.self))
        }
    }

    @Test("SERIES-2: a heartbeat series built and read with the callback forms")
    func heartbeatCallbacks() async throws {
        try await withTemporaryStore { healthStore, _ in
            let start = Date(timeIntervalSince1970: 1_790_000_000)
            let builder = HKHeartbeatSeriesBuilder(healthStore: healthStore, device: nil, start: start)
            #expect(HKHeartbeatSeriesBuilder.maximumCount > 0)
            for beat in 0..<60 {
                try await builder.addHeartbeat(at: Double(beat) * 0.95, precededByGap: false)
            }
            let series: HKHeartbeatSeriesSample = try await withCheckedThrowingContinuation { continuation in
                builder.finishSeries { sample, error in
                    if let sample {
                        continuation.resume(returning: sample)
                    } else {
                        continuation.resume(throwing: error!)
                    }
                }
            }
            let intervals: [TimeInterval] = try await withCheckedThrowingContinuation { continuation in
                let collected = Beats()
                let query = HKHeartbeatSeriesQuery(heartbeatSeries: series) { _, timeSinceSeriesStart, _, done, error in
                    if let error { return continuation.resume(throwing: error) }
                    collected.add(timeSinceSeriesStart)
                    if done { continuation.resume(returning: collected.all) }
                }
                healthStore.execute(query)
            }
            #expect(intervals.count == 60)
            #expect(intervals.last == 59 * 0.95)
        }
    }

    final class Beats: @unchecked Sendable {
        private let lock = NSLock()
        private var times: [TimeInterval] = []
        func add(_ time: TimeInterval) { lock.withLock { times.append(time) } }
        var all: [TimeInterval] { lock.withLock { times } }
    }
}
