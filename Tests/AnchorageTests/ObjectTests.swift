import Foundation
import Testing

@testable import Anchorage

@Suite("Objects (spec §1)")
struct ObjectTests {
    let steps = HKQuantityType(.stepCount)

    @Test("OBJ-1, OBJ-5: every new object gets its own uuid; objects are equal by uuid")
    func identity() {
        let a = HKQuantitySample(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day
        )
        let b = HKQuantitySample(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day
        )
        #expect(a.uuid != b.uuid && a != b && a == a)
        #expect(Set<HKSample>([a, b, a]).count == 2)
    }

    @Test("OBJ-7: start after end is a typed error; equal dates are a point in time")
    func interval() throws {
        #expect {
            try HKQuantitySample.validated(
                type: steps,
                quantity: HKQuantity(unit: .count(), doubleValue: 1),
                start: minutes(1),
                end: day
            )
        } throws: { error in
            (error as? HKError)?.rule == "OBJ-7"
        }
        let instant = try HKQuantitySample.validated(
            type: HKQuantityType(.bodyTemperature),
            quantity: HKQuantity(unit: .degreeCelsius(), doubleValue: 37),
            start: day,
            end: day
        )
        #expect(instant.startDate == instant.endDate)
        #expect(throws: HKError.self) {
            try HKCategorySample.validated(
                type: HKCategoryType(.mindfulSession),
                value: 0,
                start: minutes(5),
                end: minutes(4)
            )
        }
        #expect(throws: HKError.self) {
            try HKQuantitySample.validated(
                type: steps,
                quantity: HKQuantity(unit: .count(), doubleValue: 1),
                start: Date(timeIntervalSinceReferenceDate: .nan),
                end: day
            )
        }
    }

    @Test("OBJ-7: HealthKit's initializer stops the program when start is after end")
    func intervalTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = HKQuantitySample(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: 1),
                start: Date(timeIntervalSince1970: 100),
                end: Date(timeIntervalSince1970: 0)
            )
        }
    }

    @Test("OBJ-10: the quantity's unit must suit the type; values must be finite")
    func quantityUnits() throws {
        #expect {
            try HKQuantitySample.validated(
                type: steps,
                quantity: HKQuantity(unit: .gram(), doubleValue: 1),
                start: day,
                end: day
            )
        } throws: { error in
            (error as? HKError)?.rule == "OBJ-10"
        }
        #expect(throws: HKError.self) {
            try HKQuantitySample.validated(
                type: steps,
                quantity: HKQuantity(unit: .count(), doubleValue: .infinity),
                start: day,
                end: day
            )
        }
        let glucose = try HKQuantitySample.validated(
            type: HKQuantityType(.bloodGlucose),
            quantity: HKQuantity(unit: HKUnit(from: "mmol<180.15588000005408>/L"), doubleValue: 5.5),
            start: day,
            end: day
        )
        #expect(glucose.quantityType == HKQuantityType(.bloodGlucose))
    }

    @Test("OBJ-10: HealthKit's initializer stops the program on an incompatible unit")
    func quantityUnitTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = HKQuantitySample(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .gram(), doubleValue: 1),
                start: Date(timeIntervalSince1970: 0),
                end: Date(timeIntervalSince1970: 0)
            )
        }
    }

    @Test("OBJ-12: a sample counts one value; cumulative and discrete views agree with it")
    func series() throws {
        var generator = ObjectGenerator(seed: 1)
        let cumulative = try #require(
            try PayloadCodec.decode(PayloadCodec.encode(generator.quantitySample(type: .stepCount)))
                as? HKCumulativeQuantitySample
        )
        #expect(cumulative.count == 1 && cumulative.sumQuantity == cumulative.quantity)
        let discrete = try #require(
            try PayloadCodec.decode(PayloadCodec.encode(generator.quantitySample(type: .heartRate)))
                as? HKDiscreteQuantitySample
        )
        #expect(discrete.averageQuantity == discrete.quantity && discrete.minimumQuantity == discrete.quantity)
        #expect(
            discrete.mostRecentQuantityDateInterval == DateInterval(start: discrete.startDate, end: discrete.endDate)
        )
    }

    @Test("OBJ-13: a value outside the type's set is a typed error, inside it is accepted")
    func categoryValues() throws {
        let sleep = HKCategoryType(.sleepAnalysis)
        for value in 0...5 {
            #expect(
                try HKCategorySample.validated(type: sleep, value: value, start: day, end: minutes(60)).value == value
            )
        }
        for value in [-1, 6, 100] {
            #expect {
                try HKCategorySample.validated(type: sleep, value: value, start: day, end: minutes(60))
            } throws: { error in
                (error as? HKError)?.rule == "OBJ-13"
            }
        }
        #expect(throws: HKError.self) {
            try HKCategorySample.validated(
                type: HKCategoryType(.mindfulSession),
                value: 1,
                start: day,
                end: minutes(10)
            )
        }
    }

    @Test("OBJ-13: menstrual flow needs HKMetadataKeyMenstrualCycleStart as a Boolean")
    func menstrualFlow() throws {
        let flow = HKCategoryType(.menstrualFlow)
        #expect(throws: HKError.self) { try HKCategorySample.validated(type: flow, value: 2, start: day, end: day) }
        #expect(throws: HKError.self) {
            try HKCategorySample.validated(
                type: flow,
                value: 2,
                start: day,
                end: day,
                metadata: [HKMetadataKeyMenstrualCycleStart: "yes"]
            )
        }
        let sample = try HKCategorySample.validated(
            type: flow,
            value: HKCategoryValueVaginalBleeding.medium.rawValue,
            start: day,
            end: day,
            metadata: [HKMetadataKeyMenstrualCycleStart: true]
        )
        #expect(sample.metadata?[HKMetadataKeyMenstrualCycleStart] as? Bool == true)
    }

    @Test("OBJ-14: sleep is overlapping samples; the model does not forbid overlap")
    func overlappingSleep() throws {
        let sleep = HKCategoryType(.sleepAnalysis)
        let inBed = try HKCategorySample.validated(
            type: sleep,
            value: HKCategoryValueSleepAnalysis.inBed.rawValue,
            start: day,
            end: minutes(480)
        )
        let core = try HKCategorySample.validated(
            type: sleep,
            value: HKCategoryValueSleepAnalysis.asleepCore.rawValue,
            start: minutes(20),
            end: minutes(200)
        )
        let deep = try HKCategorySample.validated(
            type: sleep,
            value: HKCategoryValueSleepAnalysis.asleepDeep.rawValue,
            start: minutes(200),
            end: minutes(260)
        )
        #expect(inBed.startDate < core.startDate && core.endDate <= inBed.endDate && deep.startDate == core.endDate)
    }

    @Test("OBJ-4: metadata keeps strings, integers, doubles, Booleans, dates and quantities apart")
    func metadataKinds() throws {
        let weight = HKQuantity(unit: .gram(with: .kilo), doubleValue: 70)
        let sample = try HKQuantitySample.validated(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day,
            metadata: ["s": "text", "i": 5, "d": 2.5, "b": true, "t": day, "q": weight, "n": NSNumber(value: 7)]
        )
        let values = sample.metadataValues
        #expect(values["s"] == .string("text"))
        #expect(values["i"] == .integer(5))
        #expect(values["d"] == .double(2.5))
        #expect(values["b"] == .bool(true))
        #expect(values["t"] == .date(day))
        #expect(values["q"] == .quantity(weight))
        #expect(values["n"] == .integer(7))
        #expect(sample.metadata?["i"] as? Int == 5)
    }

    @Test(
        "OBJ-4: other value kinds and non-finite numbers are refused",
        arguments: [["x": [1, 2]], ["x": Double.nan], ["x": Double.infinity], ["x": UUID()], ["": 1]]
            as [[String: any Sendable]]
    )
    func metadataRejected(metadata: [String: any Sendable]) {
        #expect {
            try HKQuantitySample.validated(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: 1),
                start: day,
                end: day,
                metadata: metadata
            )
        } throws: { error in
            (error as? HKError)?.rule == "OBJ-4"
        }
    }

    @Test("OBJ-6: HK-prefixed keys must be HealthKit's own")
    func metadataKeys() throws {
        #expect {
            try HKQuantitySample.validated(
                type: steps,
                quantity: HKQuantity(unit: .count(), doubleValue: 1),
                start: day,
                end: day,
                metadata: ["HKMadeUpKey": 1]
            )
        } throws: { error in
            (error as? HKError)?.rule == "OBJ-6"
        }
        let accepted = try HKQuantitySample.validated(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day,
            metadata: [HKMetadataKeyWasUserEntered: true, HKMetadataKeyTimeZone: "Europe/Paris", "myAppKey": 1]
        )
        #expect(accepted.metadataValues.count == 3)
    }

    @Test("OBJ-33: sync identifier and version go together, as a string and a number")
    func syncPairs() throws {
        for metadata in [
            [HKMetadataKeySyncIdentifier: "a"], [HKMetadataKeySyncVersion: 1],
            [HKMetadataKeySyncIdentifier: 1, HKMetadataKeySyncVersion: 1],
            [HKMetadataKeySyncIdentifier: "a", HKMetadataKeySyncVersion: "1"],
        ] as [[String: any Sendable]] {
            #expect {
                try HKQuantitySample.validated(
                    type: steps,
                    quantity: HKQuantity(unit: .count(), doubleValue: 1),
                    start: day,
                    end: day,
                    metadata: metadata
                )
            } throws: { error in
                (error as? HKError)?.rule == "OBJ-33"
            }
        }
        let synced = try HKQuantitySample.validated(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day,
            metadata: [HKMetadataKeySyncIdentifier: "a", HKMetadataKeySyncVersion: 2]
        )
        #expect(synced.typedMetadata.sync?.identifier == "a" && synced.typedMetadata.sync?.version == 2)
    }

    @Test("insulin deliveries must say why (HKMetadataKeyInsulinDeliveryReason)")
    func insulinReason() throws {
        let insulin = HKQuantityType(.insulinDelivery)
        #expect(throws: HKError.self) {
            try HKQuantitySample.validated(
                type: insulin,
                quantity: HKQuantity(unit: .internationalUnit(), doubleValue: 2),
                start: day,
                end: day
            )
        }
        #expect(throws: Never.self) {
            try HKQuantitySample.validated(
                type: insulin,
                quantity: HKQuantity(unit: .internationalUnit(), doubleValue: 2),
                start: day,
                end: day,
                metadata: [HKMetadataKeyInsulinDeliveryReason: 2]
            )
        }
    }

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
            quantity: HKQuantity(unit: .gram(with: .milli), doubleValue: 80),
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
            totalDistance: HKQuantity(unit: .meter(with: .kilo), doubleValue: 8),
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
