import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

@Suite("Workout effort relations (OBJ-24, OBJ-25)")
struct WorkoutEffortTests {
    let start = minutes(60)
    var end: Date { start.addingTimeInterval(3_600) }

    func race() throws -> HKWorkout {
        let legs = [HKWorkoutActivityType.cycling, .running].enumerated().map { index, type in
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = type
            return try! HKWorkoutActivity.validated(
                workoutConfiguration: configuration,
                start: start.addingTimeInterval(Double(index) * 1_800),
                end: start.addingTimeInterval(Double(index + 1) * 1_800)
            )
        }
        return try HKWorkout.validated(activityType: .swimBikeRun, start: start, end: end, workoutActivities: legs)
    }

    func score(_ value: Double, estimated: Bool = false) -> HKQuantitySample {
        HKQuantitySample(
            type: HKQuantityType(estimated ? .estimatedWorkoutEffortScore : .workoutEffortScore),
            quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: value),
            start: start,
            end: end
        )
    }

    func related(
        _ store: HKHealthStore,
        _ workout: HKWorkout,
        _ activity: HKWorkoutActivity? = nil,
        estimated: Bool = false
    ) async throws -> [UUID] {
        try await samples(
            in: store,
            of: HKQuantityType(estimated ? .estimatedWorkoutEffortScore : .workoutEffortScore),
            predicate: HKQuery.predicateForWorkoutEffortSamplesRelated(workout: workout, activity: activity)
        ).map(\.uuid)
    }

    @Test("OBJ-24: relating saves a new score and relates it; the predicate finds it by workout and by activity")
    func relate() async throws {
        try await withTemporaryStore { store, _ in
            let workout = try race()
            try await store.save(workout)
            let effort = score(7)
            try await store.relateWorkoutEffortSample(effort, with: workout, activity: workout.workoutActivities[1])
            #expect(try await samples(in: store, of: HKQuantityType(.workoutEffortScore)).map(\.uuid) == [effort.uuid])
            #expect(try await related(store, workout) == [effort.uuid], "nil: any activity of the workout")
            #expect(try await related(store, workout, workout.workoutActivities[1]) == [effort.uuid])
            #expect(try await related(store, workout, workout.workoutActivities[0]).isEmpty)

            // An already saved estimate, related through the completion form, to the whole workout.
            let estimate = score(5, estimated: true)
            try await store.save(estimate)
            let done = Collector<Bool>()
            store.relateWorkoutEffortSample(estimate, with: workout, activity: nil) { success, error in
                done.append(success && error == nil)
            }
            try await waitUntil("done.count == 1") { done.count == 1 }
            #expect(done.all == [true])
            #expect(try await related(store, workout, estimated: true) == [estimate.uuid])
            #expect(try await related(store, workout, workout.workoutActivities[0], estimated: true).isEmpty)

            // Relating again with another activity replaces the relation.
            try await store.relateWorkoutEffortSample(effort, with: workout, activity: workout.workoutActivities[0])
            #expect(try await related(store, workout, workout.workoutActivities[0]) == [effort.uuid])
            #expect(try await related(store, workout, workout.workoutActivities[1]).isEmpty)

            // Unrelating ends it, whatever the activity; a second time changes nothing.
            try await store.unrelateWorkoutEffortSample(effort, from: workout, activity: nil)
            #expect(try await related(store, workout).isEmpty)
            let head = try store.eventLog().head
            try await store.unrelateWorkoutEffortSample(effort, from: workout, activity: nil)
            #expect(try store.eventLog().head == head, "nothing appended")
            #expect(
                try store.history(of: effort.uuid).map(\.action) == [
                    .save, .relateEffort, .relateEffort, .unrelateEffort,
                ]
            )

            // The index is what a replay of the log gives.
            let before = try indexDump(store)
            _ = try await store.engine().log.rebuildProjections()
            #expect(try indexDump(store) == before)
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test("OBJ-24: other samples, unsaved workouts and foreign activities are refused, and nothing is stored")
    func refused() async throws {
        try await withTemporaryStore { store, _ in
            let workout = try race()
            await expectCode(.errorInvalidArgument) {
                try await store.relateWorkoutEffortSample(score(3), with: workout, activity: nil)
            }
            try await store.save(workout)
            await expectCode(.errorInvalidArgument) {
                try await store.relateWorkoutEffortSample(steps(10), with: workout, activity: nil)
            }
            let foreign = try HKWorkoutActivity.validated(
                workoutConfiguration: HKWorkoutConfiguration(),
                start: start,
                end: end
            )
            await expectCode(.errorInvalidArgument) {
                try await store.relateWorkoutEffortSample(score(3), with: workout, activity: foreign)
            }
            await expectCode(.errorInvalidArgument) {
                try await store.unrelateWorkoutEffortSample(score(3), from: workout, activity: nil)
            }
            #expect(try await samples(in: store, of: HKQuantityType(.workoutEffortScore)).isEmpty)
            #expect(try await samples(in: store, of: stepType).isEmpty)

            // A score made up with the uuid of a saved step sample relates nothing.
            let walk = steps(120)
            try await store.save(walk)
            let forged = try HKQuantitySample.stored(
                type: HKQuantityType(.workoutEffortScore),
                quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: 9),
                start: start,
                end: end,
                uuid: walk.uuid,
                sourceRevision: walk.sourceRevision
            )
            await expectCode(.errorInvalidArgument) {
                try await store.relateWorkoutEffortSample(forged, with: workout, activity: nil)
            }
            #expect(try await related(store, workout).isEmpty)
        }
    }

    @Test("OBJ-25: deleting the workout or the score ends the relation, and the index forgets the pair")
    func deletion() async throws {
        try await withTemporaryStore { store, _ in
            let workout = try race()
            try await store.save(workout)
            let (first, second) = (score(4), score(8))
            try await store.relateWorkoutEffortSample(first, with: workout, activity: nil)
            try await store.relateWorkoutEffortSample(second, with: workout, activity: nil)
            try await store.delete([first])
            #expect(try await related(store, workout) == [second.uuid])
            try await store.delete([workout])
            #expect(try await related(store, workout).isEmpty)
            #expect(try await samples(in: store, of: HKQuantityType(.workoutEffortScore)).map(\.uuid) == [second.uuid])
            let engine = try await store.engine()
            let rows = try engine.read { txn in
                try engine.index.pairs(startingWith: second.uuid, in: engine.index.sampleEfforts, txn: txn)
            }
            #expect(rows.isEmpty)
            #expect(try await store.eventLog().checkProjections() == nil)
        }
    }

    @Test("AUTH-7: an app needs permission to share workouts and the score's type")
    func authorization() async throws {
        try await withTemporaryStore { owner, directory in
            let workout = try race()
            try await owner.save(workout)
            let app = HKHealthStore(
                directory: directory,
                principal: HKSource(name: "Coach", bundleIdentifier: "com.example.coach"),
                configuration: .forTests
            )
            defer { Task { await app.close() } }
            await expectCode(.errorAuthorizationNotDetermined) {
                try await app.relateWorkoutEffortSample(score(6), with: workout, activity: nil)
            }
            #expect(try await samples(in: owner, of: HKQuantityType(.workoutEffortScore)).isEmpty)
        }
    }
}
