import Foundation
import Testing

@testable import Anchorage

@Suite("Predicates (spec §6.2, §6.3)")
struct PredicateTests {
    /// A sample of `minutes` offsets from `day` (00:00 UTC).
    func sample(_ start: Double, _ end: Double) -> HKQuantitySample {
        HKQuantitySample(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: minutes(start),
            end: minutes(end)
        )
    }

    func matches(_ predicate: NSPredicate, _ object: HKObject) throws -> Bool {
        let typed = try ObjectPredicate(predicate)
        let direct = typed.evaluate(object)
        #expect(predicate.evaluate(with: object) == direct)
        return direct
    }

    let dayStart = day
    let dayEnd = minutes(24 * 60)

    @Test("PRED-1: by default a sample matches when it overlaps the interval")
    func overlap() throws {
        let today = HKQuery.predicateForSamples(withStart: dayStart, end: dayEnd, options: [])
        #expect(try matches(today, sample(60, 120)))
        #expect(try matches(today, sample(-60, 30)))  // starts the day before
        #expect(try matches(today, sample(23 * 60, 25 * 60)))  // ends the day after
        #expect(try !matches(today, sample(-120, -60)))
        #expect(try !matches(today, sample(25 * 60, 26 * 60)))
    }

    @Test("PRED-2: strictStartDate needs the start inside [start, end)")
    func strictStart() throws {
        let today = HKQuery.predicateForSamples(withStart: dayStart, end: dayEnd, options: .strictStartDate)
        #expect(try matches(today, sample(0, 30)))
        #expect(try !matches(today, sample(-1, 30)))
        #expect(try matches(today, sample(23 * 60, 25 * 60)))
    }

    @Test("PRED-3: strictEndDate needs the end inside [start, end)")
    func strictEnd() throws {
        let today = HKQuery.predicateForSamples(withStart: dayStart, end: dayEnd, options: .strictEndDate)
        #expect(try matches(today, sample(-60, 30)))
        #expect(try !matches(today, sample(23 * 60, 25 * 60)))
    }

    @Test("PRED-4: both options need both dates inside")
    func bothStrict() throws {
        let today = HKQuery.predicateForSamples(
            withStart: dayStart,
            end: dayEnd,
            options: [.strictStartDate, .strictEndDate]
        )
        #expect(try matches(today, sample(10, 20)))
        #expect(try !matches(today, sample(-10, 20)))
        #expect(try !matches(today, sample(10, 24 * 60 + 10)))
    }

    @Test("PRED-5: a sample 23:00–00:00 belongs to both days under overlap")
    func edgeMidnightOverlap() throws {
        let late = sample(-60, 0)
        let yesterday = HKQuery.predicateForSamples(withStart: minutes(-24 * 60), end: dayStart, options: [])
        let today = HKQuery.predicateForSamples(withStart: dayStart, end: dayEnd, options: [])
        #expect(try matches(yesterday, late) && matches(today, late))
    }

    @Test("PRED-5: an instant sample at exactly the end bound is excluded under overlap")
    func edgeInstantAtEnd() throws {
        let today = HKQuery.predicateForSamples(withStart: dayStart, end: dayEnd, options: [])
        #expect(try !matches(today, sample(24 * 60, 24 * 60)))
        #expect(try matches(today, sample(0, 0)))
    }

    @Test("PRED-5: strictEndDate puts a sample ending at midnight in the next day")
    func edgeStrictEndMidnight() throws {
        let endsAtMidnight = sample(23 * 60, 24 * 60)
        let today = HKQuery.predicateForSamples(withStart: dayStart, end: dayEnd, options: .strictEndDate)
        let tomorrow = HKQuery.predicateForSamples(withStart: dayEnd, end: minutes(48 * 60), options: .strictEndDate)
        #expect(try !matches(today, endsAtMidnight))
        #expect(try matches(tomorrow, endsAtMidnight))
    }

    @Test("PRED-5: strictStartDate includes a start at D 00:00 and excludes D+1 00:00")
    func edgeStrictStartMidnight() throws {
        let today = HKQuery.predicateForSamples(withStart: dayStart, end: dayEnd, options: .strictStartDate)
        #expect(try matches(today, sample(0, 10)))
        #expect(try !matches(today, sample(24 * 60, 24 * 60 + 10)))
    }

    @Test("PRED-6: a nil start or end drops that bound")
    func openBounds() throws {
        let untilToday = HKQuery.predicateForSamples(withStart: nil, end: dayStart, options: .strictStartDate)
        #expect(try matches(untilToday, sample(-1_000_000, -999_000)))
        #expect(try !matches(untilToday, sample(0, 1)))
        let fromToday = HKQuery.predicateForSamples(withStart: dayStart, end: nil, options: [])
        #expect(try matches(fromToday, sample(1_000_000, 1_000_001)))
        #expect(try matches(HKQuery.predicateForSamples(withStart: nil, end: nil, options: []), sample(5, 6)))
    }

    @Test("PRED-7: by uuid")
    func byUUID() throws {
        let a = sample(0, 1)
        let b = sample(0, 1)
        #expect(try matches(HKQuery.predicateForObject(with: a.uuid), a))
        #expect(try !matches(HKQuery.predicateForObject(with: a.uuid), b))
        #expect(try matches(HKQuery.predicateForObjects(with: [a.uuid, b.uuid]), b))
    }

    @Test("PRED-8: by source and by revision, with wildcards")
    func bySource() throws {
        let revision = HKSourceRevision(
            source: HKSource(name: "App", bundleIdentifier: "com.app"),
            version: "2.0",
            productType: "iPhone15,2",
            operatingSystemVersion: OperatingSystemVersion(majorVersion: 17, minorVersion: 1, patchVersion: 0)
        )
        let object = try HKQuantitySample.make(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            SampleFields(start: day, end: day, uuid: UUID(), sourceRevision: revision, device: nil, metadata: .empty)
        )
        #expect(
            try matches(
                HKQuery.predicateForObjects(from: HKSource(name: "Other name", bundleIdentifier: "com.app")),
                object
            )
        )
        #expect(
            try !matches(
                HKQuery.predicateForObjects(from: [HKSource(name: "X", bundleIdentifier: "com.other")]),
                object
            )
        )
        #expect(try matches(HKQuery.predicateForObjects(from: [revision]), object))
        let otherVersion = HKSourceRevision(
            source: revision.source,
            version: "1.0",
            productType: "iPhone15,2",
            operatingSystemVersion: revision.operatingSystemVersion
        )
        #expect(try !matches(HKQuery.predicateForObjects(from: [otherVersion]), object))
        let anything = HKSourceRevision(
            source: revision.source,
            version: HKSourceRevisionAnyVersion,
            productType: HKSourceRevisionAnyProductType,
            operatingSystemVersion: HKSourceRevisionAnyOperatingSystem
        )
        #expect(try matches(HKQuery.predicateForObjects(from: [anything]), object))
    }

    @Test("PRED-9: devices match property by property, nil only nil; an empty allowed set matches nil")
    func byDevice() throws {
        let device = HKDevice(
            name: "Watch",
            manufacturer: "Acme",
            model: "W1",
            hardwareVersion: nil,
            firmwareVersion: nil,
            softwareVersion: nil,
            localIdentifier: nil,
            udiDeviceIdentifier: nil
        )
        let withDevice = HKQuantitySample(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day,
            device: device,
            metadata: nil
        )
        let without = sample(0, 0)
        #expect(try matches(HKQuery.predicateForObjects(from: [device]), withDevice))
        let similar = HKDevice(
            name: "Watch",
            manufacturer: "Acme",
            model: "W1",
            hardwareVersion: "",
            firmwareVersion: nil,
            softwareVersion: nil,
            localIdentifier: nil,
            udiDeviceIdentifier: nil
        )
        #expect(try !matches(HKQuery.predicateForObjects(from: [similar]), withDevice))
        #expect(
            try matches(
                HKQuery.predicateForObjects(withDeviceProperty: HKDevicePropertyKeyModel, allowedValues: ["W1", "W2"]),
                withDevice
            )
        )
        #expect(
            try !matches(
                HKQuery.predicateForObjects(withDeviceProperty: HKDevicePropertyKeyModel, allowedValues: []),
                withDevice
            )
        )
        #expect(
            try matches(
                HKQuery.predicateForObjects(withDeviceProperty: HKDevicePropertyKeyModel, allowedValues: []),
                without
            )
        )
        #expect(
            try matches(
                HKQuery.predicateForObjects(withDeviceProperty: HKDevicePropertyKeyHardwareVersion, allowedValues: []),
                withDevice
            )
        )
    }

    @Test("PRED-10: metadata exists, in, and comparisons; other kinds never match; quantities convert")
    func byMetadata() throws {
        let object = try HKQuantitySample.validated(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: day,
            end: day,
            metadata: [
                "brand": "Acme", "level": 3, "weight": HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 2),
                "when": day,
            ]
        )
        #expect(try matches(HKQuery.predicateForObjects(withMetadataKey: "brand"), object))
        #expect(try !matches(HKQuery.predicateForObjects(withMetadataKey: "missing"), object))
        #expect(
            try matches(
                HKQuery.predicateForObjects(withMetadataKey: "brand", allowedValues: ["Other", "Acme"]),
                object
            )
        )
        #expect(
            try matches(
                HKQuery.predicateForObjects(withMetadataKey: "level", operatorType: .greaterThan, value: 2),
                object
            )
        )
        #expect(
            try matches(
                HKQuery.predicateForObjects(withMetadataKey: "level", operatorType: .lessThan, value: 3.5),
                object
            )
        )
        #expect(
            try !matches(
                HKQuery.predicateForObjects(withMetadataKey: "level", operatorType: .equalTo, value: "3"),
                object
            )
        )
        #expect(
            try !matches(
                HKQuery.predicateForObjects(withMetadataKey: "brand", operatorType: .greaterThan, value: 1),
                object
            )
        )
        #expect(
            try matches(
                HKQuery.predicateForObjects(
                    withMetadataKey: "weight",
                    operatorType: .equalTo,
                    value: HKQuantity(unit: .gram(), doubleValue: 2000)
                ),
                object
            )
        )
        #expect(
            try !matches(
                HKQuery.predicateForObjects(
                    withMetadataKey: "weight",
                    operatorType: .equalTo,
                    value: HKQuantity(unit: .meter(), doubleValue: 2)
                ),
                object
            )
        )
        #expect(
            try matches(
                HKQuery.predicateForObjects(withMetadataKey: "when", operatorType: .lessThanOrEqualTo, value: day),
                object
            )
        )
    }

    @Test("PRED-11: quantity comparisons convert units; an incompatible unit is refused for the queried type")
    func byQuantity() throws {
        let heavy = HKQuantitySample(
            type: HKQuantityType(.bodyMass),
            quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 80),
            start: day,
            end: day
        )
        #expect(
            try matches(
                HKQuery.predicateForQuantitySamples(
                    with: .greaterThan,
                    quantity: HKQuantity(unit: .pound(), doubleValue: 170)
                ),
                heavy
            )
        )
        #expect(
            try !matches(
                HKQuery.predicateForQuantitySamples(
                    with: .greaterThan,
                    quantity: HKQuantity(unit: .pound(), doubleValue: 180)
                ),
                heavy
            )
        )
        for op in ComparisonOperator.allCases {
            let expected = op.holds(80.0, 80.0)
            #expect(
                try matches(
                    HKQuery.predicateForQuantitySamples(
                        with: op,
                        quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 80)
                    ),
                    heavy
                ) == expected
            )
        }
        let predicate = try ObjectPredicate(
            HKQuery.predicateForQuantitySamples(with: .lessThan, quantity: HKQuantity(unit: .meter(), doubleValue: 1))
        )
        #expect { try predicate.validate(for: HKQuantityType(.bodyMass)) } throws: {
            ($0 as? HKError)?.rule == "PRED-11"
        }
        #expect(!predicate.evaluate(heavy))
    }

    @Test("PRED-12: category values compare and match sets")
    func byCategory() throws {
        let rem = HKCategorySample(
            type: HKCategoryType(.sleepAnalysis),
            value: HKCategoryValueSleepAnalysis.asleepREM.rawValue,
            start: day,
            end: minutes(30)
        )
        #expect(try matches(HKQuery.predicateForCategorySamples(with: .greaterThanOrEqualTo, value: 3), rem))
        #expect(try matches(HKQuery.predicateForCategorySamples(equalTo: [3, 4, 5]), rem))
        #expect(try !matches(HKQuery.predicateForCategorySamples(equalTo: [0, 2]), rem))
        #expect(try !matches(HKQuery.predicateForCategorySamples(with: .equalTo, value: 5), sample(0, 1)))
    }

    @Test("PRED-13: workouts by activity and by duration and totals; OBJ-20, OBJ-24 through the store's context")
    func byWorkout() throws {
        let run = HKWorkout(
            activityType: .running,
            start: day,
            end: minutes(40),
            workoutEvents: nil,
            totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 400),
            totalDistance: HKQuantity(unit: .meterUnit(with: .kilo), doubleValue: 7),
            metadata: nil
        )
        #expect(try matches(HKQuery.predicateForWorkouts(with: .running), run))
        #expect(try !matches(HKQuery.predicateForWorkouts(with: .walking), run))
        #expect(try matches(HKQuery.predicateForWorkouts(with: .greaterThan, duration: 30 * 60), run))
        #expect(
            try matches(
                HKQuery.predicateForWorkouts(
                    with: .greaterThanOrEqualTo,
                    totalDistance: HKQuantity(unit: .mile(), doubleValue: 4)
                ),
                run
            )
        )
        #expect(
            try !matches(
                HKQuery.predicateForWorkouts(
                    with: .greaterThan,
                    totalEnergyBurned: HKQuantity(unit: .kilocalorie(), doubleValue: 500)
                ),
                run
            )
        )
        #expect(
            try !matches(
                HKQuery.predicateForWorkouts(
                    with: .greaterThan,
                    totalFlightsClimbed: HKQuantity(unit: .count(), doubleValue: 0)
                ),
                run
            )
        )
        let step = sample(0, 1)
        let inRun = try ObjectPredicate(HKQuery.predicateForObjects(from: run))
        #expect(!inRun.evaluate(step))
        #expect(inRun.evaluate(step, context: PredicateContext(isAssociated: { $0 == step.uuid && $1 == run.uuid })))
        let alone = try ObjectPredicate(HKQuery.predicateForObjectsWithNoCorrelation())
        #expect(alone.evaluate(step))
        #expect(!alone.evaluate(step, context: PredicateContext(isCorrelationMember: { $0 == step.uuid })))
    }

    @Test("PRED-14: AND, OR and NOT compose, through NSCompoundPredicate and through operators")
    func composition() throws {
        let morning = HKQuery.predicateForSamples(withStart: dayStart, end: minutes(12 * 60), options: .strictStartDate)
        let big = HKQuery.predicateForQuantitySamples(
            with: .greaterThan,
            quantity: HKQuantity(unit: .count(), doubleValue: 100)
        )
        let bigMorning = HKQuantitySample(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: 500),
            start: minutes(60),
            end: minutes(70)
        )
        let smallMorning = sample(60, 70)
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [morning, big])
        let either = NSCompoundPredicate(orPredicateWithSubpredicates: [morning, big])
        let notBig = NSCompoundPredicate(notPredicateWithSubpredicate: big)
        #expect(try matches(both, bigMorning) && !matches(both, smallMorning))
        #expect(try matches(either, smallMorning))
        #expect(try matches(notBig, smallMorning) && !matches(notBig, bigMorning))
        let typed = try ObjectPredicate(morning) && !ObjectPredicate(big)
        #expect(typed.evaluate(smallMorning) && !typed.evaluate(bigMorning))
        #expect((ObjectPredicate.constant(false) || .constant(true)).evaluate(smallMorning))
    }

    @Test("PRED-14: other NSPredicates are refused with a typed error")
    func foreignPredicates() {
        #expect { try ObjectPredicate(NSPredicate(value: true)) } throws: { ($0 as? HKError)?.rule == "PRED-14" }
        #expect { try ObjectPredicate(NSPredicate { _, _ in true }) } throws: { ($0 as? HKError)?.rule == "PRED-14" }
        #expect(throws: HKError.self) {
            try ObjectPredicate(
                NSCompoundPredicate(andPredicateWithSubpredicates: [
                    HKQuery.predicateForWorkouts(with: .yoga), NSPredicate(value: false),
                ])
            )
        }
    }
}
