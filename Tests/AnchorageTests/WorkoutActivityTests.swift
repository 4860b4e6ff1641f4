import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

@Suite("Workout activities (OBJ-21, PRED-13)")
struct WorkoutActivityTests {
    let start = Date(timeIntervalSince1970: 1_767_999_900)
    var end: Date { start.addingTimeInterval(3_600) }
    let watch = HKSourceRevision(source: HKSource(name: "Watch", bundleIdentifier: "watch"), version: "11.0")

    func configuration(_ type: HKWorkoutActivityType) -> HKWorkoutConfiguration {
        let configuration = HKWorkoutConfiguration()
        configuration.activityType = type
        return configuration
    }

    /// A triathlon: swim 0–20 min, ride 20–45, run 45–60, each with a distance.
    func triathlon(uuid: UUID = UUID()) throws -> HKWorkout {
        let swim = configuration(.swimming)
        swim.swimmingLocationType = .openWater
        let legs: [(HKWorkoutConfiguration, Double, Double, HKQuantityTypeIdentifier, Double)] = [
            (swim, 0, 20, .distanceSwimming, 1_500),
            (configuration(.cycling), 20, 45, .distanceCycling, 40_000),
            (configuration(.running), 45, 60, .distanceWalkingRunning, 10_000),
        ]
        var activities: [HKWorkoutActivity] = []
        for (configuration, from, to, type, meters) in legs {
            let legStart = start.addingTimeInterval(from * 60)
            let legEnd = start.addingTimeInterval(to * 60)
            activities.append(
                try HKWorkoutActivity.validated(
                    workoutConfiguration: configuration,
                    start: legStart,
                    end: legEnd,
                    statistics: [
                        try .recorded(
                            quantityType: HKQuantityType(type),
                            startDate: legStart,
                            endDate: legEnd,
                            sum: HKQuantity(unit: .meter(), doubleValue: meters)
                        )
                    ]
                )
            )
        }
        return try HKWorkout.stored(
            activityType: .swimBikeRun,
            start: start,
            end: end,
            duration: 3_600,
            statistics: [
                try .recorded(
                    quantityType: HKQuantityType(.activeEnergyBurned),
                    startDate: start,
                    endDate: end,
                    sum: HKQuantity(unit: .kilocalorie(), doubleValue: 900)
                )
            ],
            workoutActivities: activities.reversed(),
            uuid: uuid,
            sourceRevision: watch
        )
    }

    @Test(
        "OBJ-21: activities are kept in start order with their configuration, statistics and events, through payload and JSON"
    )
    func roundTrip() throws {
        let race = try triathlon()
        #expect(race.workoutActivities.map(\.workoutConfiguration.activityType) == [.swimming, .cycling, .running])
        let swim = race.workoutActivities[0]
        #expect(swim.workoutConfiguration.swimmingLocationType == .openWater)
        #expect(swim.duration == 1_200)
        #expect(swim.endDate == start.addingTimeInterval(1_200))
        let distance = try #require(swim.statistics(for: HKQuantityType(.distanceSwimming))?.sumQuantity())
        #expect(distance.doubleValue(for: .meter()) == 1_500)
        #expect(swim.allStatistics.count == 1)
        #expect(swim.statistics(for: HKQuantityType(.distanceCycling)) == nil)

        // The configuration handed out is a copy: changing it changes nothing stored.
        let copy = swim.workoutConfiguration
        copy.activityType = .yoga
        #expect(swim.workoutConfiguration.activityType == .swimming)

        let decoded = try #require(try PayloadCodec.decode(PayloadCodec.encode(race)) as? HKWorkout)
        #expect(identical(decoded, race))
        let json = try JSONEncoder().encode(HealthObject(race))
        let back = try #require(try JSONDecoder().decode(HealthObject.self, from: json).object as? HKWorkout)
        #expect(identical(back, race))
        // Re-encoding what was decoded gives the same bytes.
        #expect(PayloadCodec.encode(decoded) == PayloadCodec.encode(race))
    }

    @Test(
        "OBJ-23: an activity's events overlap it and may run past it, inside the workout; paused time counts only within the activity"
    )
    func overlappingEvents() throws {
        let start = minutes(0)
        let run = configuration(.running)
        let fast = try HKWorkoutActivity.validated(
            workoutConfiguration: run,
            start: minutes(1),
            end: minutes(2),
            workoutEvents: [
                HKWorkoutEvent(
                    type: .segment,
                    dateInterval: DateInterval(start: minutes(0.5), end: minutes(4)),
                    metadata: nil
                ),
                HKWorkoutEvent(
                    type: .pause,
                    dateInterval: DateInterval(start: minutes(1.5), duration: 0),
                    metadata: nil
                ),
                HKWorkoutEvent(
                    type: .resume,
                    dateInterval: DateInterval(start: minutes(2), duration: 0),
                    metadata: nil
                ),
            ]
        )
        #expect(fast.duration == 30, "paused from 1.5 min to 2 min")
        #expect(
            try HKWorkout.validated(activityType: .running, start: start, end: minutes(5), workoutActivities: [fast])
                .workoutActivities.count == 1
        )
        #expect(throws: HKError.self, "an activity event outside the workout") {
            try HKWorkout.validated(
                activityType: .running,
                start: minutes(1),
                end: minutes(3),
                workoutActivities: [fast]
            )
        }
        #expect(throws: HKError.self, "an event that does not overlap its activity") {
            try HKWorkoutActivity.validated(
                workoutConfiguration: run,
                start: minutes(1),
                end: minutes(2),
                workoutEvents: [
                    HKWorkoutEvent(
                        type: .marker,
                        dateInterval: DateInterval(start: minutes(4), duration: 0),
                        metadata: nil
                    )
                ]
            )
        }
    }

    @Test("OBJ-21: an activity's JSON needs only its uuid, type and dates; unknown location types are refused")
    func minimalJSON() throws {
        func workout(_ activity: String) throws -> HKWorkout? {
            let json = """
                {"kind": "workout", "uuid": "6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B", "type": "HKWorkoutTypeIdentifier",
                 "startDate": "2026-01-09T23:05:00Z", "endDate": "2026-01-10T00:05:00Z", "workoutActivityType": 37,
                 "workoutActivities": [\(activity)]}
                """
            return try JSONDecoder().decode(HealthObject.self, from: Data(json.utf8)).object as? HKWorkout
        }
        let minimal = try #require(
            try workout(
                #"{"uuid": "7D3C1B8A-52E4-4F0B-9A61-2E8D4C6B1F03", "workoutActivityType": 13, "start": "2026-01-09T23:05:00Z", "end": "2026-01-09T23:35:00Z"}"#
            )
        )
        let activity = try #require(minimal.workoutActivities.first)
        #expect(activity.workoutConfiguration == HKWorkoutConfiguration().with(type: .cycling))
        #expect(activity.duration == 1_800)
        #expect(throws: HKError.self) {
            try workout(
                #"{"uuid": "7D3C1B8A-52E4-4F0B-9A61-2E8D4C6B1F03", "workoutActivityType": 13, "locationType": 0, "start": "2026-01-09T23:05:00Z", "end": "2026-01-09T23:35:00Z"}"#
            )
        }
    }

    @Test("OBJ-21: HealthKit's initializer makes an activity of a configuration; an unended one has no duration")
    func healthKitInitializer() throws {
        let yoga = configuration(.yoga)
        let activity = HKWorkoutActivity(
            workoutConfiguration: yoga,
            start: start,
            end: start.addingTimeInterval(600),
            metadata: ["note": "slow"]
        )
        #expect(activity.duration == 600)
        #expect(activity.metadata?["note"] as? String == "slow")
        #expect(activity.workoutEvents.isEmpty)
        let running = HKWorkoutActivity(workoutConfiguration: yoga, start: start, end: nil, metadata: nil)
        #expect(running.endDate == nil && running.duration == 0)
        #expect(running != activity, "activities compare by uuid")
        // An unended activity cannot be stored in a workout.
        #expect(throws: HKError.self) {
            try HKWorkout.validated(activityType: .yoga, start: start, end: end, workoutActivities: [running])
        }
    }

    @Test("OBJ-21: activities outside the workout, repeated, not ended, or with a bad lap length are refused")
    func rules() throws {
        let inside = try HKWorkoutActivity.validated(
            workoutConfiguration: configuration(.rowing),
            start: start,
            end: start.addingTimeInterval(60)
        )
        let outside = try HKWorkoutActivity.validated(
            workoutConfiguration: configuration(.rowing),
            start: start.addingTimeInterval(-60),
            end: start.addingTimeInterval(60)
        )
        #expect(
            try HKWorkout.validated(activityType: .rowing, start: start, end: end, workoutActivities: [inside])
                .workoutActivities.count == 1
        )
        #expect(throws: HKError.self, "outside") {
            try HKWorkout.validated(activityType: .rowing, start: start, end: end, workoutActivities: [outside])
        }
        #expect(throws: HKError.self, "twice") {
            try HKWorkout.validated(activityType: .rowing, start: start, end: end, workoutActivities: [inside, inside])
        }
        let pool = configuration(.swimming)
        pool.lapLength = HKQuantity(unit: .second(), doubleValue: 25)
        #expect(throws: HKError.self, "a lap length in seconds") {
            try HKWorkoutActivity.validated(workoutConfiguration: pool, start: start, end: end)
        }
        pool.lapLength = HKQuantity(unit: .meter(), doubleValue: 25)
        #expect(try HKWorkoutActivity.validated(workoutConfiguration: pool, start: start, end: end).duration == 3_600)
        #expect(throws: HKError.self, "an event outside the activity") {
            try HKWorkoutActivity.validated(
                workoutConfiguration: pool,
                start: start,
                end: start.addingTimeInterval(60),
                workoutEvents: [
                    HKWorkoutEvent(type: .marker, dateInterval: DateInterval(start: end, duration: 0), metadata: nil)
                ]
            )
        }
        #expect(throws: HKError.self, "ends before it starts") {
            try HKWorkoutActivity.validated(workoutConfiguration: pool, start: end, end: start)
        }
        let many = (0...HKWorkout.maximumActivities).map { _ in
            try! HKWorkoutActivity.validated(workoutConfiguration: pool, start: start, end: start)
        }
        #expect(throws: HKError.self, "more than the limit") {
            try HKWorkout.validated(activityType: .swimming, start: start, end: end, workoutActivities: many)
        }
    }

    @Test("OBJ-22: an activity's duration leaves out its pauses")
    func pausedDuration() throws {
        let activity = try HKWorkoutActivity.validated(
            workoutConfiguration: configuration(.running),
            start: start,
            end: start.addingTimeInterval(1_000),
            workoutEvents: [
                HKWorkoutEvent(
                    type: .pause,
                    dateInterval: DateInterval(start: start.addingTimeInterval(100), duration: 0),
                    metadata: nil
                ),
                HKWorkoutEvent(
                    type: .resume,
                    dateInterval: DateInterval(start: start.addingTimeInterval(400), duration: 0),
                    metadata: nil
                ),
            ]
        )
        #expect(activity.duration == 700)
    }

    @Test("Payload: a workout without activities keeps its bytes; malformed activity lists are refused")
    func payloadRules() throws {
        let plain = try HKWorkout.stored(
            activityType: .running,
            start: start,
            end: end,
            duration: 3_600,
            uuid: UUID(),
            sourceRevision: watch
        )
        let plainBytes = PayloadCodec.encode(plain)
        // A zero statistics count with nothing after it is not canonical.
        #expect(throws: HKError.self) { try PayloadCodec.decode(plainBytes + [0]) }
        let race = try triathlon()
        var bytes = PayloadCodec.encode(race)
        for cut in [1, 10, 40] {
            #expect(throws: HKError.self, "cut by \(cut)") { try PayloadCodec.decode(Array(bytes.dropLast(cut))) }
        }
        // Every single-byte corruption either decodes to a valid workout or is refused, never crashes.
        for index in stride(from: plainBytes.count, to: bytes.count, by: 3) {
            let saved = bytes[index]
            bytes[index] ^= 0x5A
            if let decoded = try? PayloadCodec.decode(bytes) as? HKWorkout {
                #expect(decoded.workoutActivities.count <= HKWorkout.maximumActivities)
            }
            bytes[index] = saved
        }
    }

    @Test("PRED-13: activity and statistic predicates select workouts as a reference filter does")
    func predicates() async throws {
        var generator = ObjectGenerator(seed: 18)
        var workouts: [HKWorkout] = []
        while workouts.count < 40 {
            if let workout = generator.object() as? HKWorkout { workouts.append(workout) }
        }
        workouts.append(try triathlon())
        let cyclingLong = HKQuery.predicateForWorkoutActivities(
            operatorType: .greaterThan,
            quantityType: HKQuantityType(.distanceCycling),
            sumQuantity: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 5)
        )
        let cases: [(String, NSPredicate, (HKWorkout) -> Bool)] = [
            (
                "any cycling activity",
                HKQuery.predicateForWorkouts(
                    activityPredicate: HKQuery.predicateForWorkoutActivities(workoutActivityType: .cycling)
                ),
                { $0.workoutActivities.contains { $0.workoutConfiguration.activityType == .cycling } }
            ),
            (
                "a ride over 5 km and longer than 10 minutes",
                HKQuery.predicateForWorkouts(
                    activityPredicate: NSCompoundPredicate(andPredicateWithSubpredicates: [
                        cyclingLong,
                        HKQuery.predicateForWorkoutActivities(operatorType: .greaterThan, duration: 600),
                    ])
                ),
                { workout in
                    workout.workoutActivities.contains { activity in
                        activity.duration > 600
                            && (activity.statistics(for: HKQuantityType(.distanceCycling))?.sumQuantity()?
                                .doubleValue(for: .meter()) ?? 0) > 5_000
                    }
                }
            ),
            (
                "an activity starting in the second half hour",
                HKQuery.predicateForWorkouts(
                    activityPredicate: HKQuery.predicateForWorkoutActivities(
                        start: start.addingTimeInterval(1_800),
                        end: nil,
                        options: .strictStartDate
                    )
                ),
                { $0.workoutActivities.contains { $0.startDate >= start.addingTimeInterval(1_800) } }
            ),
            (
                "energy sum of at least 500 kcal",
                HKQuery.predicateForWorkouts(
                    operatorType: .greaterThanOrEqualTo,
                    quantityType: HKQuantityType(.activeEnergyBurned),
                    sumQuantity: HKQuantity(unit: .kilocalorie(), doubleValue: 500)
                ),
                {
                    ($0.statistics(for: HKQuantityType(.activeEnergyBurned))?.sumQuantity()?
                        .doubleValue(for: .kilocalorie()) ?? -1) >= 500
                }
            ),
            (
                "heart rate maximum above 190",
                HKQuery.predicateForWorkouts(
                    operatorType: .greaterThan,
                    quantityType: HKQuantityType(.heartRate),
                    maximumQuantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 190)
                ),
                {
                    ($0.statistics(for: HKQuantityType(.heartRate))?.maximumQuantity()?
                        .doubleValue(for: .count().unitDivided(by: .minute())) ?? -1) > 190
                }
            ),
            (
                "heart rate average below 130",
                HKQuery.predicateForWorkouts(
                    operatorType: .lessThan,
                    quantityType: HKQuantityType(.heartRate),
                    averageQuantity: HKQuantity(unit: .count().unitDivided(by: .minute()), doubleValue: 130)
                ),
                {
                    ($0.statistics(for: HKQuantityType(.heartRate))?.averageQuantity()?
                        .doubleValue(for: .count().unitDivided(by: .minute())) ?? .infinity) < 130
                }
            ),
        ]
        try await withTemporaryStore { store, _ in
            try await store.save(workouts)
            // The reference filters what is visible (generated workouts may
            // share a sync identifier, and then only one is visible).
            let visible = try await samples(in: store, of: .workoutType()).compactMap { $0 as? HKWorkout }
            #expect(visible.count > 30)
            for (name, predicate, reference) in cases {
                let expected = Set(visible.filter(reference).map(\.uuid))
                let found = try await samples(in: store, of: .workoutType(), predicate: predicate)
                #expect(Set(found.map(\.uuid)) == expected, "\(name)")
                #expect(!expected.isEmpty && expected.count < visible.count, "\(name) selects some, not all")
                // The typed predicate survives its JSON form.
                let typed = try ObjectPredicate(predicate)
                let coded = try JSONDecoder().decode(ObjectPredicate.self, from: JSONEncoder().encode(typed))
                #expect(coded == typed, "\(name)")
            }
            // The stored workouts come back with their activities.
            let race = try #require(
                try await samples(in: store, of: .workoutType(), predicate: cases[0].1)
                    .first { ($0 as? HKWorkout)?.workoutActivityType == .swimBikeRun } as? HKWorkout
            )
            #expect(race.workoutActivities.count == 3)
            // An activity predicate alone is not a workout predicate.
            await expectCode(.errorInvalidArgument) {
                try await samples(in: store, of: .workoutType(), predicate: cyclingLong)
            }
            await expectCode(.errorInvalidArgument) {
                try await samples(
                    in: store,
                    of: .workoutType(),
                    predicate: HKQuery.predicateForWorkouts(activityPredicate: NSPredicate(value: true))
                )
            }
        }
    }
}

extension HKWorkoutConfiguration {
    /// This configuration with another activity type.
    func with(type: HKWorkoutActivityType) -> HKWorkoutConfiguration {
        let copy = copy()
        copy.activityType = type
        return copy
    }
}
