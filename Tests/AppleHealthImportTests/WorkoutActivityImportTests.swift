import Foundation
import Testing

@testable import Anchorage
@testable import AppleHealthImport

@Suite("Importing workout activities (OBJ-21)")
struct WorkoutActivityImportTests {
    @Test("A triathlon's WorkoutActivity children become workoutActivities; broken ones are counted, not fatal")
    func multisport() async throws {
        try await withImportStore { store in
            let summary = try await HealthExportImporter(store: store, batchSize: 1)
                .importExport(at: fixtureFile("export-v17-multisport.xml"))
            #expect(summary.read == ["Workout": 2])
            #expect(summary.saved == 2)
            #expect(summary.rejected.isEmpty, "\(summary.rejected)")
            #expect(
                summary.unknown == [
                    "WorkoutActivity (an activity listed twice)": 1,
                    "WorkoutActivity (an activity outside its workout)": 1,
                    "WorkoutActivity (a date not in the form 2017-05-24 13:56:15 +0200 (or 20170524135615+0200))": 1,
                    "WorkoutStatistics HKQuantityTypeIdentifierCyclingPowerZones": 1,
                ],
                "\(summary.unknown)"
            )
            let workouts = try await samples(store, HKWorkoutType.workoutType()).compactMap { $0 as? HKWorkout }
            let race = try #require(workouts.first { $0.workoutActivityType == .swimBikeRun })
            #expect(race.workoutActivities.count == 3)
            let (swim, ride, run) = (race.workoutActivities[0], race.workoutActivities[1], race.workoutActivities[2])
            #expect(swim.uuid == UUID(uuidString: "7D3C1B8A-52E4-4F0B-9A61-2E8D4C6B1F03"))
            #expect(ride.uuid == UUID(uuidString: "0E9F5A27-9C1D-4B6E-8F30-5A7B2C9D4E61"))
            // Exports give no activity type per activity: each takes the workout's.
            #expect(swim.workoutConfiguration.activityType == .swimBikeRun)
            #expect(swim.workoutConfiguration.swimmingLocationType == .openWater, "its own HKSwimmingLocationType")
            #expect(swim.workoutConfiguration.locationType == .outdoor, "the workout's HKIndoorWorkout 0")
            #expect(swim.duration == 25 * 60)
            // A segment without a duration unit is in minutes, like the workout's.
            #expect(swim.workoutEvents.map(\.dateInterval.duration) == [25 * 60])
            #expect(
                swim.statistics(for: HKQuantityType(.swimmingStrokeCount))?.sumQuantity()?.doubleValue(for: .count())
                    == 812
            )
            let distance = try #require(ride.statistics(for: HKQuantityType(.distanceCycling))?.sumQuantity())
            #expect(abs(distance.doubleValue(for: .meterUnit(with: .kilo)) - 40.0) < 0.001)
            #expect(ride.allStatistics.count == 2, "the unknown power zones are left out")
            // A uuid that is not one ("A1") is replaced by one derived from the content.
            #expect(run.uuid.uuidString != "A1")
            #expect(run.workoutEvents.map(\.type) == [.lap])
            #expect(run.metadata?["WOIntervalStepKeyPath"] as? String == "0.0.0")

            let pool = try #require(workouts.first { $0.workoutActivityType == .swimming })
            let lengths = try #require(pool.workoutActivities.first)
            #expect(lengths.workoutConfiguration.locationType == .indoor)
            #expect(lengths.workoutConfiguration.swimmingLocationType == .pool)
            #expect(lengths.workoutConfiguration.lapLength == HKQuantity(unit: .meter(), doubleValue: 25))

            // Activity predicates find them.
            let rides = try await HKSampleQueryDescriptor(
                predicates: [
                    .workout(
                        HKQuery.predicateForWorkouts(
                            activityPredicate: HKQuery.predicateForWorkoutActivities(
                                operatorType: .greaterThan,
                                quantityType: HKQuantityType(.distanceCycling),
                                sumQuantity: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 30)
                            )
                        )
                    )
                ],
                sortDescriptors: []
            ).result(for: store)
            #expect(rides.map(\.uuid) == [race.uuid])
            try await expectAuditPasses(store)

            // The same file again: the same ids, nothing added.
            let again = try await HealthExportImporter(store: store).importExport(
                at: fixtureFile("export-v17-multisport.xml")
            )
            #expect(again.saved == 0 && again.alreadyPresent == 2)
        }
    }

    @Test("The v14 running workout keeps its one activity with its event, statistics and interval metadata")
    func singleActivity() async throws {
        try await withImportStore { store in
            _ = try await HealthExportImporter(store: store).importExport(at: fixtureFile("export-v14.xml"))
            let running = try #require(
                try await samples(store, HKWorkoutType.workoutType()).compactMap { $0 as? HKWorkout }
                    .first { $0.workoutActivityType == .running }
            )
            let activity = try #require(running.workoutActivities.first)
            #expect(running.workoutActivities.count == 1)
            #expect(activity.uuid == UUID(uuidString: "5C0B2F8E-7D1A-4B52-9E3C-0F6A2B4D8E11"))
            #expect(abs(activity.duration - 41.53333333333333 * 60) < 1e-6)
            #expect(activity.workoutConfiguration.activityType == .running)
            #expect(activity.workoutEvents.map(\.type) == [.segment])
            #expect(
                abs(
                    (activity.statistics(for: HKQuantityType(.activeEnergyBurned))?.sumQuantity()?
                        .doubleValue(for: .kilocalorie()) ?? 0) - 402.118
                ) < 1e-9
            )
        }
    }
}
