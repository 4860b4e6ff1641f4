import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

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

    @Test("OBJ-7: HealthKit's initializer stops the program when start is after end", .startsProcesses())
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

    @Test("OBJ-10: HealthKit's initializer stops the program on an incompatible unit", .startsProcesses())
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
        let weight = HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70)
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
}
