import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

// Correlations, workouts, deleted objects and sources.
extension ObjectTests {
    @Test("OBJ-15, OBJ-16: blood pressure is exactly one systolic and one diastolic sample")
    func bloodPressure() throws {
        let systolic = HKQuantitySample(
            type: HKQuantityType(.bloodPressureSystolic),
            quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 120),
            start: day,
            end: day
        )
        let diastolic = HKQuantitySample(
            type: HKQuantityType(.bloodPressureDiastolic),
            quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 80),
            start: day,
            end: day
        )
        let extra = HKQuantitySample(
            type: HKQuantityType(.bloodPressureDiastolic),
            quantity: HKQuantity(unit: .millimeterOfMercury(), doubleValue: 81),
            start: day,
            end: day
        )
        let pressure = HKCorrelation(
            type: HKCorrelationType(.bloodPressure),
            start: day,
            end: day,
            objects: [systolic, diastolic]
        )
        #expect(pressure.objects(for: HKQuantityType(.bloodPressureSystolic)) == [systolic])
        #expect(pressure.objects.count == 2)
        for objects in [[systolic], [systolic, diastolic, extra], [diastolic, extra], []] as [Set<HKSample>] {
            #expect {
                try HKCorrelation.validated(
                    type: HKCorrelationType(.bloodPressure),
                    start: day,
                    end: day,
                    objects: objects
                )
            } throws: { error in
                (error as? HKError)?.rule == "OBJ-16"
            }
        }
    }

    @Test("OBJ-17, OBJ-18: food holds one or more dietary samples and no correlations or workouts")
    func food() throws {
        let energy = HKQuantitySample(
            type: HKQuantityType(.dietaryEnergyConsumed),
            quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 800),
            start: day,
            end: day
        )
        let caffeine = HKQuantitySample(
            type: HKQuantityType(.dietaryCaffeine),
            quantity: HKQuantity(unit: .gramUnit(with: .milli), doubleValue: 80),
            start: day,
            end: day
        )
        let food = try HKCorrelation.validated(
            type: HKCorrelationType(.food),
            start: day,
            end: day,
            objects: [energy, caffeine],
            metadata: [HKMetadataKeyFoodType: "Espresso"]
        )
        #expect(food.objects.count == 2)
        let stepsSample = HKQuantitySample(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day
        )
        #expect {
            try HKCorrelation.validated(type: HKCorrelationType(.food), start: day, end: day, objects: [])
        } throws: {
            ($0 as? HKError)?.rule == "OBJ-17"
        }
        #expect {
            try HKCorrelation.validated(
                type: HKCorrelationType(.food),
                start: day,
                end: day,
                objects: [energy, stepsSample]
            )
        } throws: {
            ($0 as? HKError)?.rule == "OBJ-17"
        }
        #expect {
            try HKCorrelation.validated(type: HKCorrelationType(.food), start: day, end: day, objects: [energy, food])
        } throws: {
            ($0 as? HKError)?.rule == "OBJ-18"
        }
        let workout = HKWorkout(activityType: .running, start: day, end: minutes(30))
        #expect {
            try HKCorrelation.validated(
                type: HKCorrelationType(.food),
                start: day,
                end: day,
                objects: [energy, workout]
            )
        } throws: {
            ($0 as? HKError)?.rule == "OBJ-18"
        }
    }

    @Test("OBJ-19: members' dates need not lie inside the correlation's interval")
    func memberDates() throws {
        let energy = HKQuantitySample(
            type: HKQuantityType(.dietaryEnergyConsumed),
            quantity: HKQuantity(unit: .kilocalorie(), doubleValue: 300),
            start: minutes(-90),
            end: minutes(-80)
        )
        let food = try HKCorrelation.validated(
            type: HKCorrelationType(.food),
            start: day,
            end: minutes(10),
            objects: [energy]
        )
        #expect(food.objects.first!.startDate < food.startDate)
    }

    @Test("OBJ-21, OBJ-22: totals need the right kind of unit; duration is end − start minus pauses")
    func workoutTotals() throws {
        let run = HKWorkout(
            activityType: .running,
            start: day,
            end: minutes(60),
            workoutEvents: [
                HKWorkoutEvent(
                    type: .pause,
                    dateInterval: DateInterval(start: minutes(10), duration: 0),
                    metadata: nil
                ),
                HKWorkoutEvent(
                    type: .resume,
                    dateInterval: DateInterval(start: minutes(15), duration: 0),
                    metadata: nil
                ),
                HKWorkoutEvent(
                    type: .lap,
                    dateInterval: DateInterval(start: minutes(20), end: minutes(25)),
                    metadata: nil
                ),
                HKWorkoutEvent(
                    type: .pause,
                    dateInterval: DateInterval(start: minutes(50), duration: 0),
                    metadata: nil
                ),
            ],
            totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 500),
            totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 8),
            metadata: [HKMetadataKeyIndoorWorkout: false]
        )
        // 60 minutes, paused 10–15 and 50–60 (no resume: runs to the end).
        #expect(run.duration == 45 * 60)
        #expect(HKWorkout(activityType: .yoga, start: day, end: minutes(30)).duration == 1800)
        let legacy = HKWorkout(
            activityType: .yoga,
            start: day,
            end: minutes(30),
            duration: 1200,
            totalEnergyBurned: nil,
            totalDistance: nil,
            metadata: nil
        )
        #expect(legacy.duration == 1200)
        let zero = HKWorkout(
            activityType: .yoga,
            start: day,
            end: minutes(30),
            duration: 0,
            totalEnergyBurned: nil,
            totalDistance: nil,
            metadata: nil
        )
        #expect(zero.duration == 1800)
        #expect {
            try HKWorkout.validated(
                activityType: .running,
                start: day,
                end: minutes(30),
                totalEnergyBurned: HKQuantity(unit: .meter(), doubleValue: 1)
            )
        } throws: { ($0 as? HKError)?.rule == "OBJ-21" }
        #expect {
            try HKWorkout.validated(
                activityType: .running,
                start: day,
                end: minutes(30),
                totalDistance: HKQuantity(unit: .kilocalorie(), doubleValue: 1)
            )
        } throws: { ($0 as? HKError)?.rule == "OBJ-21" }
        #expect {
            try HKWorkout.validated(
                activityType: .swimming,
                start: day,
                end: minutes(30),
                totalSwimmingStrokeCount: HKQuantity(unit: .meter(), doubleValue: 1)
            )
        } throws: { ($0 as? HKError)?.rule == "OBJ-21" }
        #expect {
            try HKWorkout.validated(activityType: .yoga, start: day, end: minutes(30), duration: 4000)
        } throws: { ($0 as? HKError)?.rule == "OBJ-22" }
    }

    @Test("OBJ-23: events inside the workout, in order, pauses and resumes alternating, only laps and segments long")
    func workoutEvents() throws {
        func event(_ type: HKWorkoutEventType, _ start: Double, _ end: Double? = nil) -> HKWorkoutEvent {
            HKWorkoutEvent(
                type: type,
                dateInterval: DateInterval(start: minutes(start), end: minutes(end ?? start)),
                metadata: nil
            )
        }
        let invalid: [[HKWorkoutEvent]] = [
            [event(.marker, -1)],  // before the start
            [event(.marker, 31)],  // after the end
            [event(.lap, 25, 35)],  // runs past the end
            [event(.marker, 10), event(.marker, 5)],  // out of order
            [event(.resume, 5)],  // resume first
            [event(.pause, 5), event(.pause, 6)],  // pause twice
            [event(.marker, 5, 6)],  // an instant event with a length
            [event(.pause, 5, 6)],
        ]
        for events in invalid {
            #expect {
                try HKWorkout.validated(activityType: .running, start: day, end: minutes(30), workoutEvents: events)
            } throws: { ($0 as? HKError)?.rule == "OBJ-23" }
        }
        let valid = try HKWorkout.validated(
            activityType: .running,
            start: day,
            end: minutes(30),
            workoutEvents: [
                event(.segment, 0, 10), event(.pause, 10), event(.resume, 12), event(.lap, 20, 30), event(.marker, 30),
            ]
        )
        #expect(valid.workoutEvents?.count == 5 && valid.duration == 28 * 60)
    }

    @Test("OBJ-26: a deleted object keeps only the uuid and the sync metadata")
    func deletedObject() throws {
        let sample = try HKQuantitySample.validated(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day,
            metadata: [HKMetadataKeySyncIdentifier: "x", HKMetadataKeySyncVersion: 3, "private": "value"]
        )
        let deleted = HKDeletedObject(deleting: sample)
        #expect(deleted.uuid == sample.uuid)
        #expect(
            Set(deleted.metadata?.keys.map { $0 } ?? []) == [HKMetadataKeySyncIdentifier, HKMetadataKeySyncVersion]
        )
        let plain = HKDeletedObject(
            deleting: HKQuantitySample(
                type: steps,
                quantity: HKQuantity(unit: .count(), doubleValue: 1),
                start: day,
                end: day
            )
        )
        #expect(plain.metadata == nil)
    }

    @Test("OBJ-2, OBJ-3: new objects carry this process's source until a store assigns one; devices are optional")
    func sourcesAndDevices() {
        let sample = HKQuantitySample(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day,
            device: HKDevice(
                name: "Watch",
                manufacturer: "Acme",
                model: nil,
                hardwareVersion: nil,
                firmwareVersion: nil,
                softwareVersion: "1",
                localIdentifier: nil,
                udiDeviceIdentifier: nil
            ),
            metadata: nil
        )
        #expect(sample.sourceRevision.source == HKSource.default())
        #expect(sample.device?.name == "Watch" && sample.device?.model == nil)
        #expect(HKSource(name: "A", bundleIdentifier: "x") == HKSource(name: "B", bundleIdentifier: "x"))
    }
}

@Suite("Object uuids")
struct RandomUUIDTests {
    @Test("New objects get distinct, time-ordered version-7 uuids (OBJ-1)")
    func versionAndVariant() {
        var seen = Set<UUID>()
        var tails = Set<UInt64>()
        var ordered = 0
        var previous = UUID.random()
        for _ in 0..<10_000 {
            let id = UUID.random()
            #expect(seen.insert(id).inserted)
            // The 62 random bits never repeat across pool refills.
            let tail = withUnsafeBytes(of: id.uuid) {
                UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            #expect(tails.insert(tail & 0x3FFF_FFFF_FFFF_FFFF).inserted)
            #expect(id.uuid.6 >> 4 == 7)
            #expect(id.uuid.8 >> 6 == 0b10)
            if id.uuidString > previous.uuidString { ordered += 1 }
            previous = id
        }
        #expect(ordered == 10_000, "uuids made one after another sort in order")
        let milliseconds = UInt64(Date().timeIntervalSince1970 * 1_000)
        let stamped = withUnsafeBytes(of: previous.uuid) { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) >> 16 }
        #expect(stamped <= milliseconds + 100 && stamped + 10_000 > milliseconds, "the time is now, give or take")
        let sample = HKQuantitySample(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day
        )
        #expect(sample.uuid.uuid.6 >> 4 == 7)
    }
}
