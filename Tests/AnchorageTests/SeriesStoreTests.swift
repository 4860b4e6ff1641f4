import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Locations one second apart from `start`, on a line heading north-east.
func runLocations(_ count: Int, from start: Date = minutes(0)) -> [CLLocation] {
    (0..<count).map { index in
        CLLocation(
            coordinate: CLLocationCoordinate2D(
                latitude: 61.2 + Double(index) * 1e-5,
                longitude: -149.9 + Double(index) * 1e-5
            ),
            altitude: 30 + Double(index % 7),
            horizontalAccuracy: 4,
            verticalAccuracy: 3,
            course: 45,
            speed: 3.1,
            timestamp: start.addingTimeInterval(Double(index))
        )
    }
}

/// Every batch a route query delivers, and whether each was the last.
func routeBatches(
    in store: HKHealthStore,
    _ route: HKWorkoutRoute,
    within interval: DateInterval? = nil
) async throws -> [(locations: [CLLocation], done: Bool)] {
    let batches = Collector<(locations: [CLLocation], done: Bool)>()
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let handler: HKWorkoutRouteQuery.DataHandler = { _, locations, done, error in
            if let error { return continuation.resume(throwing: error) }
            batches.append((locations ?? [], done))
            if done { continuation.resume() }
        }
        let query =
            interval.map { HKWorkoutRouteQuery(route: route, dateInterval: $0, dataHandler: handler) }
            ?? HKWorkoutRouteQuery(route: route, dataHandler: handler)
        store.execute(query)
    }
    return batches.all
}

/// A saved one-hour run.
func savedRun(in store: HKHealthStore) async throws -> HKWorkout {
    let run = HKWorkout(activityType: .running, start: minutes(0), end: minutes(60))
    try await store.save(run)
    return run
}

@Suite("Workout routes and heartbeat series in a store")
struct SeriesStoreTests {
    @Test(
        "SERIES-1: a route built in pieces out of order is saved linked to its workout, listed by its count, and read back in time order in batches"
    )
    func routeRoundTrip() async throws {
        try await withTemporaryStore { store, _ in
            let run = try await savedRun(in: store)
            let locations = runLocations(3_600)
            let builder = HKWorkoutRouteBuilder(healthStore: store, device: nil)
            try await builder.insertRouteData(Array(locations[1_800...]))
            try await builder.insertRouteData(Array(locations[..<1_800]))
            try await builder.addMetadata([HKMetadataKeyIndoorWorkout: false])
            let route = try await builder.finishRoute(with: run, metadata: ["leg": "one"])
            #expect(route.count == 3_600)
            #expect(route.startDate == locations.first!.timestamp)
            #expect(route.endDate == locations.last!.timestamp)

            // Listed with its count; its locations stay in the store.
            let listed = try await HKSampleQueryDescriptor(predicates: [.workoutRoute()], sortDescriptors: [])
                .result(for: store)
            #expect(listed.map(\.uuid) == [route.uuid])
            #expect(listed.first?.count == 3_600)
            #expect(listed.first?.points == nil)
            #expect(listed.first?.metadata?["leg"] as? String == "one")
            #expect(listed.first?.metadata?[HKMetadataKeyIndoorWorkout] as? Bool == false)
            // OBJ-24: associated with the workout.
            let linked = try await samples(
                in: store,
                of: HKSeriesType.workoutRoute(),
                predicate: HKQuery.predicateForObjects(from: run)
            )
            #expect(linked.map(\.uuid) == [route.uuid])

            let batches = try await routeBatches(in: store, listed[0])
            #expect(batches.map(\.locations.count) == [1_024, 1_024, 1_024, 528])
            #expect(batches.map(\.done) == [false, false, false, true])
            #expect(batches.flatMap(\.locations) == locations)

            var streamed: [CLLocation] = []
            for try await location in HKWorkoutRouteQueryDescriptor(listed[0]).results(for: store) {
                streamed.append(location)
            }
            #expect(streamed == locations)
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test(
        "SERIES-1: a route query over a date interval gives exactly the locations a filter of all of them gives",
        arguments: testSeeds([3, 17, 29])
    )
    func routeInterval(seed: UInt64) async throws {
        try await withTemporaryStore { store, _ in
            var generator = ObjectGenerator(seed: seed)
            let route = generator.route(locations: 1...2_500)
            try await store.save(route)
            let all = HKWorkoutRoute.locations(route.points!, in: 0..<route.count)
            for _ in 0..<12 {
                let span = route.endDate.timeIntervalSince(route.startDate)
                let from = route.startDate.addingTimeInterval(generator.double(-10...span + 10))
                let to = from.addingTimeInterval(generator.double(0...span / 2 + 1))
                let interval = DateInterval(start: from, end: to)
                let expected = all.filter { $0.timestamp >= from && $0.timestamp <= to }
                let batches = try await routeBatches(in: store, route, within: interval)
                #expect(batches.flatMap(\.locations) == expected)
                #expect(batches.last?.done == true)
                #expect(
                    batches.dropLast().allSatisfy { !$0.done && $0.locations.count == HKWorkoutRouteQuery.batchSize }
                )
                var streamed: [CLLocation] = []
                for try await location in HKWorkoutRouteQueryDescriptor(route, dateInterval: interval).results(
                    for: store
                ) {
                    streamed.append(location)
                }
                #expect(streamed == expected)
            }
        }
    }

    @Test("SERIES-5: a failed finish keeps the locations for a retry; a finished or discarded builder refuses more")
    func builderLifecycle() async throws {
        try await withTemporaryStore { store, _ in
            let unsaved = HKWorkout(activityType: .running, start: minutes(0), end: minutes(60))
            let builder = HKWorkoutRouteBuilder(
                healthStore: store,
                device: HKDevice(
                    name: "Watch",
                    manufacturer: "Apple",
                    model: nil,
                    hardwareVersion: nil,
                    firmwareVersion: nil,
                    softwareVersion: nil,
                    localIdentifier: nil,
                    udiDeviceIdentifier: nil
                )
            )
            await expectCode(.errorInvalidArgument, rule: "SERIES-1") {
                try await builder.finishRoute(with: unsaved, metadata: nil)
            }
            try await builder.insertRouteData(runLocations(10))
            await expectCode(.errorInvalidArgument) {
                try await builder.finishRoute(with: unsaved, metadata: nil)
            }
            #expect(
                try await HKSampleQueryDescriptor(predicates: [.workoutRoute()], sortDescriptors: []).result(for: store)
                    .isEmpty
            )
            try await store.save(unsaved)
            let route = try await builder.finishRoute(with: unsaved, metadata: nil)
            #expect(route.count == 10)
            #expect(route.device?.name == "Watch")
            await expectCode(.errorInvalidArgument, rule: "SERIES-5") {
                try await builder.insertRouteData(runLocations(1))
            }

            let discarded = HKWorkoutRouteBuilder(healthStore: store, device: nil)
            try await discarded.insertRouteData(runLocations(5))
            discarded.discard()
            await expectCode(.errorInvalidArgument, rule: "SERIES-5") {
                try await discarded.finishRoute(with: unsaved, metadata: nil)
            }

            let bad = HKWorkoutRouteBuilder(healthStore: store, device: nil)
            await expectCode(.errorInvalidArgument, rule: "SERIES-1") {
                try await bad.insertRouteData([CLLocation(latitude: 95, longitude: 0)])
            }
        }
    }

    @Test("SERIES-3, SERIES-4: a listed route cannot be saved again; a deleted route's query is errorNoData")
    func listedAndDeleted() async throws {
        try await withTemporaryStore { store, _ in
            let run = try await savedRun(in: store)
            let builder = HKWorkoutRouteBuilder(healthStore: store, device: nil)
            try await builder.insertRouteData(runLocations(20))
            let route = try await builder.finishRoute(with: run, metadata: nil)
            let listed = try await HKSampleQueryDescriptor(predicates: [.workoutRoute()], sortDescriptors: [])
                .result(for: store)
            await expectCode(.errorInvalidArgument, rule: "SERIES-3") { try await store.save(listed[0]) }
            try await store.delete(route)
            await expectCode(.errorNoData, rule: "SERIES-4") { try await routeBatches(in: store, route) }
            await expectCode(.errorNoData, rule: "SERIES-4") {
                for try await _ in HKWorkoutRouteQueryDescriptor(route).results(for: store) {}
            }
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test(
        "SERIES-2: heartbeats are added in time order, saved as one series ending at its last beat, and read back beat by beat"
    )
    func heartbeats() async throws {
        try await withTemporaryStore { store, _ in
            let start = minutes(5)
            let builder = HKHeartbeatSeriesBuilder(healthStore: store, device: nil, start: start)
            let times = (0..<90).map { Double($0) * 0.8 + 0.1 }
            for (index, time) in times.enumerated() {
                try await builder.addHeartbeat(at: time, precededByGap: index == 40)
            }
            await expectCode(.errorInvalidArgument, rule: "SERIES-2") {
                try await builder.addHeartbeat(at: 1, precededByGap: false)
            }
            try await builder.addMetadata(["session": 1])
            let series = try await builder.finishSeries()
            #expect(series.count == 90)
            #expect(series.startDate == start)
            #expect(
                series.endDate
                    == Date(timeIntervalSinceReferenceDate: start.timeIntervalSinceReferenceDate + times.last!)
            )

            let beats = Collector<(TimeInterval, Bool, Bool)>()
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                store.execute(
                    HKHeartbeatSeriesQuery(heartbeatSeries: series) { _, time, gap, done, error in
                        if let error { return continuation.resume(throwing: error) }
                        beats.append((time, gap, done))
                        if done { continuation.resume() }
                    }
                )
            }
            #expect(beats.all.map(\.0) == times)
            #expect(beats.all.map(\.1) == times.indices.map { $0 == 40 })
            #expect(beats.all.map(\.2) == times.indices.map { $0 == 89 })

            var streamed: [HKHeartbeatSeriesQueryDescriptor.Heartbeat] = []
            for try await beat in HKHeartbeatSeriesQueryDescriptor(series).results(for: store) { streamed.append(beat) }
            #expect(streamed.map(\.timeIntervalSinceStart) == times)

            let listed = try await HKSampleQueryDescriptor(predicates: [.heartbeatSeries()], sortDescriptors: [])
                .result(for: store)
            #expect(listed.map(\.count) == [90])
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test("AUTH: an app reads a route's locations only with read authorization for workout routes")
    func authorization() async throws {
        try await withTemporaryStore { owner, directory in
            let run = try await savedRun(in: owner)
            let builder = HKWorkoutRouteBuilder(healthStore: owner, device: nil)
            try await builder.insertRouteData(runLocations(30))
            let route = try await builder.finishRoute(with: run, metadata: nil)

            let app = HKHealthStore(
                directory: directory,
                principal: HKSource(name: "Runner", bundleIdentifier: "com.example.runner"),
                configuration: .forTests
            )
            await expectCode(.errorAuthorizationNotDetermined) { try await routeBatches(in: app, route) }
            await app.close()
        }
    }
}
