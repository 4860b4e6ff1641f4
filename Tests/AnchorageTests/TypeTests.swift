import AnchorageStoreTesting
import AnchorageTestRun
import Foundation
import Testing

@testable import Anchorage

@Suite("Object types and identifiers (spec §1.3, §1.4, §1.8)")
struct TypeTests {
    @Test("no sample type restricts its duration, and a sample of ten years saves and reads back whole")
    func durationRestrictions() async throws {
        let types: [HKSampleType] =
            Array(TypeCatalog.quantityTypes.values) + Array(TypeCatalog.categoryTypes.values) + [.workoutType()]
        for type in types {
            #expect(!type.isMaximumDurationRestricted && type.maximumAllowedDuration == .infinity, "\(type)")
            #expect(!type.isMinimumDurationRestricted && type.minimumAllowedDuration == 0, "\(type)")
        }
        try await withTemporaryStore { store, _ in
            let start = Date(timeIntervalSinceReferenceDate: 400_000_000)
            let decade = HKQuantitySample(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: 3_652_000),
                start: start,
                end: start.addingTimeInterval(3_652 * 86_400)
            )
            try await store.save(decade)
            let found = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                sortDescriptors: []
            ).result(for: store)
            #expect(found.map(\.uuid) == [decade.uuid])
            #expect(found.first?.endDate == decade.endDate)
        }
    }

    @Test("every identifier resolves, round-trips by raw value, and has a unique, stable kind code")
    func catalog() {
        #expect(TypeCatalog.quantityTypes.count == 121)
        // 71 of HealthKit's identifiers, and kind 2002 kept for entries
        // written under the noise notifications' constant name.
        #expect(TypeCatalog.categoryTypes.count == 72)
        let codes = TypeCatalog.allTypes.map(\.kindCode)
        #expect(Set(codes).count == codes.count)
        for type in TypeCatalog.allTypes {
            #expect(HKObjectType.type(forIdentifier: type.identifier) == type)
            #expect(TypeCatalog.byKindCode[type.kindCode] == type)
        }
        // Kind codes are part of the log format: these must never change.
        #expect(HKQuantityType(.bodyMass).kindCode == 1003)
        #expect(HKQuantityType(.stepCount).kindCode == 1037)
        #expect(HKQuantityType(.heartRate).kindCode == 1045)
        #expect(HKQuantityType(.bloodGlucose).kindCode == 1119)
        #expect(HKCategoryType(.sleepAnalysis).kindCode == 2029)
        #expect(HKCorrelationType(.bloodPressure).kindCode == 3001)
        #expect(HKObjectType.workoutType().kindCode == 4001)
    }

    @Test("OBJ-11: every identifier Apple documents resolves, with the aggregation style Apple gives")
    func apple() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/healthkit-interface")
        let quantities = try String(contentsOf: fixtures.appendingPathComponent("quantity-types.tsv"), encoding: .utf8)
        var checked = 0
        for line in quantities.split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let type = try #require(
                HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: columns[1])),
                "\(columns[1])"
            )
            if let style = HKQuantityAggregationStyle.named(columns[2]) {
                #expect(type.aggregationStyle == style, "\(columns[1])")
            }
            checked += 1
        }
        #expect(checked == 121)
        let categories = try String(contentsOf: fixtures.appendingPathComponent("category-types.tsv"), encoding: .utf8)
        for line in categories.split(separator: "\n") {
            let raw = String(line.split(separator: "\t")[1])
            #expect(HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: raw)) != nil, "\(raw)")
        }
    }

    @Test("the HealthKit spellings: raw values, the .identifier style and the factories")
    func spellings() {
        #expect(HKQuantityTypeIdentifier.stepCount.rawValue == "HKQuantityTypeIdentifierStepCount")
        #expect(HKQuantityTypeIdentifier.vo2Max.rawValue == "HKQuantityTypeIdentifierVO2Max")
        #expect(HKCategoryTypeIdentifier.sleepAnalysis.rawValue == "HKCategoryTypeIdentifierSleepAnalysis")
        #expect(HKObjectType.quantityType(forIdentifier: .stepCount) == HKQuantityType(.stepCount))
        #expect(
            HKObjectType.categoryType(forIdentifier: .mindfulSession)?.identifier
                == "HKCategoryTypeIdentifierMindfulSession"
        )
        #expect(HKObjectType.correlationType(forIdentifier: .food) == HKCorrelationType(.food))
        #expect(HKObjectType.characteristicType(forIdentifier: .bloodType) == HKCharacteristicType(.bloodType))
        #expect(HKObjectType.workoutType().identifier == "HKWorkoutTypeIdentifier")
        #expect(HKQuantityType(.stepCount) == HKQuantityType(.stepCount))
        #expect(Set([HKQuantityType(.stepCount), HKObjectType.quantityType(forIdentifier: .stepCount)!]).count == 1)
    }

    @Test("unknown identifiers are nil from the factories and a typed error from the throwing doors")
    func unknownIdentifiers() {
        #expect(
            HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNope"))
                == nil
        )
        #expect(HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: "nope")) == nil)
        #expect(HKObjectType.type(forIdentifier: "") == nil)
        #expect(throws: HKError.self) {
            try HKQuantityType.validated(HKQuantityTypeIdentifier("HKQuantityTypeIdentifierNope"))
        }
        #expect(throws: HKError.self) { try HKCategoryType.validated(HKCategoryTypeIdentifier("nope")) }
        #expect {
            try HKObjectType.validatedType(forIdentifier: "HKQuantityTypeIdentifierNope")
        } throws: { error in
            (error as? HKError)?.rule == "OBJ-11"
        }
    }

    @Test("unknown identifiers stop the program in HealthKit's non-throwing initializers", .startsProcesses())
    func unknownIdentifierTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = HKQuantityType(HKQuantityTypeIdentifier(rawValue: "HKQuantityTypeIdentifierNope"))
        }
        await #expect(processExitsWith: .failure) { _ = HKCategoryType(HKCategoryTypeIdentifier("nope")) }
        await #expect(processExitsWith: .failure) { _ = HKCorrelationType(HKCorrelationTypeIdentifier("nope")) }
        await #expect(processExitsWith: .failure) { _ = HKCharacteristicType(HKCharacteristicTypeIdentifier("nope")) }
        await #expect(processExitsWith: .failure) { _ = HKDocumentType(HKDocumentTypeIdentifier("nope")) }
        await #expect(processExitsWith: .failure) { _ = HKClinicalType(HKClinicalTypeIdentifier("nope")) }
        await #expect(processExitsWith: .failure) {
            _ = HKScoredAssessmentType(HKScoredAssessmentTypeIdentifier("nope"))
        }
    }

    @Test("HealthKit's initializers of every type family give the catalogued type, kind code included")
    func initializersGiveTheCataloguedType() throws {
        let made: [(HKObjectType, HKObjectType?)] = [
            (HKQuantityType(.heartRate), HKObjectType.quantityType(forIdentifier: .heartRate)),
            (HKCategoryType(.sleepAnalysis), HKObjectType.categoryType(forIdentifier: .sleepAnalysis)),
            (HKCorrelationType(.food), HKObjectType.correlationType(forIdentifier: .food)),
            (HKCharacteristicType(.bloodType), HKObjectType.characteristicType(forIdentifier: .bloodType)),
            (HKDocumentType(.CDA), HKObjectType.documentType(forIdentifier: .CDA)),
            (HKClinicalType(.labResultRecord), HKObjectType.clinicalType(forIdentifier: .labResultRecord)),
            (HKScoredAssessmentType(.PHQ9), TypeCatalog.scoredAssessmentTypes[.PHQ9]),
        ]
        for (built, catalogued) in made {
            let catalogued = try #require(catalogued)
            #expect(built == catalogued)
            #expect(built.kindCode == catalogued.kindCode)
            #expect(type(of: built) == type(of: catalogued))
        }
    }

    @Test("OBJ-11, OBJ-13: the throwing doors name the rule and the identifier, cut to 120 characters")
    func throwingDoorsNameTheIdentifier() {
        let long = String(repeating: "x", count: 5_000)
        #expect {
            try HKQuantityType.validated(HKQuantityTypeIdentifier(long))
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.rule == "OBJ-11" && error.message.contains("is not a quantity type identifier")
                && error.message.contains(String(repeating: "x", count: 120))
                && !error.message.contains(String(repeating: "x", count: 121))
        }
        #expect {
            try HKCategoryType.validated(HKCategoryTypeIdentifier("HKCategoryTypeIdentifierNope"))
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.rule == "OBJ-13"
                && error.message.contains("'HKCategoryTypeIdentifierNope' is not a category type identifier")
        }
    }

    @Test(
        "OBJ-11: aggregation styles of the spec's table",
        arguments: [
            (HKQuantityTypeIdentifier.stepCount, HKQuantityAggregationStyle.cumulative),
            (.distanceWalkingRunning, .cumulative), (.activeEnergyBurned, .cumulative),
            (.basalEnergyBurned, .cumulative),
            (.flightsClimbed, .cumulative), (.dietaryEnergyConsumed, .cumulative), (.dietaryWater, .cumulative),
            (.appleExerciseTime, .cumulative), (.pushCount, .cumulative), (.swimmingStrokeCount, .cumulative),
            (.insulinDelivery, .cumulative), (.numberOfTimesFallen, .cumulative), (.inhalerUsage, .cumulative),
            (.numberOfAlcoholicBeverages, .cumulative),
            (.bodyMass, .discreteArithmetic), (.height, .discreteArithmetic), (.bodyMassIndex, .discreteArithmetic),
            (.bodyFatPercentage, .discreteArithmetic), (.leanBodyMass, .discreteArithmetic),
            (.bloodGlucose, .discreteArithmetic), (.bodyTemperature, .discreteArithmetic),
            (.bloodPressureSystolic, .discreteArithmetic), (.bloodPressureDiastolic, .discreteArithmetic),
            (.oxygenSaturation, .discreteArithmetic), (.vo2Max, .discreteArithmetic),
            (.respiratoryRate, .discreteArithmetic),
            (.restingHeartRate, .discreteArithmetic), (.uvExposure, .discreteArithmetic),
            (.electrodermalActivity, .discreteArithmetic),
            (.heartRate, .discreteTemporallyWeighted),
            (.environmentalAudioExposure, .discreteEquivalentContinuousLevel),
            (.headphoneAudioExposure, .discreteEquivalentContinuousLevel),
        ] as [(HKQuantityTypeIdentifier, HKQuantityAggregationStyle)]
    )
    func aggregationStyles(identifier: HKQuantityTypeIdentifier, style: HKQuantityAggregationStyle) {
        #expect(HKQuantityType(identifier).aggregationStyle == style)
    }

    @Test("OBJ-11: every dietary type is cumulative and takes mass or energy or volume")
    func dietaryTypes() {
        let dietary = TypeCatalog.quantityTypes.values.filter { $0.identifier.contains("Dietary") }
        #expect(dietary.count == 39)
        for type in dietary {
            #expect(type.aggregationStyle == .cumulative)
            #expect(
                type.is(compatibleWith: .gram()) || type.is(compatibleWith: .kilocalorie())
                    || type.is(compatibleWith: .liter())
            )
        }
    }

    @Test(
        "UNIT-19: units a type accepts",
        arguments: [
            (HKQuantityTypeIdentifier.stepCount, "count", true), (.stepCount, "kg", false),
            (.heartRate, "count/min", true), (.heartRate, "Hz", true), (.heartRate, "count", false),
            (.bloodGlucose, "mg/dL", true), (.bloodGlucose, "mmol<180.15588000005408>/L", true),
            (.bloodGlucose, "mg", false),
            (.bodyTemperature, "degF", true), (.bodyTemperature, "K", true),
            (.bodyFatPercentage, "%", true), (.vo2Max, "ml/(kg*min)", true), (.vo2Max, "L/min", false),
            (.insulinDelivery, "IU", true), (.insulinDelivery, "mg", false),
            (.environmentalAudioExposure, "dBASPL", true), (.environmentalAudioExposure, "Pa", true),
            (.environmentalAudioExposure, "count", false), (.bodyMass, "lb", true), (.dietaryWater, "fl_oz_us", true),
            (.physicalEffort, "kcal/hr·kg", true), (.workoutEffortScore, "appleEffortScore", true),
        ] as [(HKQuantityTypeIdentifier, String, Bool)]
    )
    func acceptedUnits(identifier: HKQuantityTypeIdentifier, unit: String, accepted: Bool) throws {
        #expect(HKQuantityType(identifier).is(compatibleWith: try HKUnit.parse(unit)) == accepted)
    }

    @Test(
        "OBJ-13: category value sets",
        arguments: [
            (HKCategoryTypeIdentifier.sleepAnalysis, 0...5), (.appleStandHour, 0...1), (.cervicalMucusQuality, 1...5),
            (.ovulationTestResult, 1...4), (.menstrualFlow, 1...5), (.mindfulSession, 0...0), (.sexualActivity, 0...0),
            (.intermenstrualBleeding, 0...0), (.headache, 0...4), (.moodChanges, 0...1), (.appetiteChanges, 0...3),
            (.contraceptive, 1...7), (.pregnancyTestResult, 1...3), (.appleWalkingSteadinessEvent, 1...4),
            (.environmentalAudioExposureEvent, 1...1), (.lowCardioFitnessEvent, 1...1),
        ] as [(HKCategoryTypeIdentifier, ClosedRange<Int>)]
    )
    func categoryValues(identifier: HKCategoryTypeIdentifier, values: ClosedRange<Int>) {
        #expect(HKCategoryType(identifier).legalValues == values)
    }

    @Test("OBJ-13 and OBJ-28: HealthKit's raw values of category and characteristic enums")
    func rawValues() {
        #expect(HKCategoryValueSleepAnalysis.inBed.rawValue == 0)
        #expect(HKCategoryValueSleepAnalysis.asleepREM.rawValue == 5)
        #expect(HKCategoryValueOvulationTestResult.estrogenSurge.rawValue == 4)
        #expect(HKCategoryValueVaginalBleeding.none.rawValue == 5)
        #expect(HKCategoryValueSeverity.severe.rawValue == 4)
        #expect(HKBiologicalSex.other.rawValue == 3)
        #expect(HKBloodType.oNegative.rawValue == 8)
        #expect(HKFitzpatrickSkinType.VI.rawValue == 6)
        #expect(HKWheelchairUse.yes.rawValue == 2)
        #expect(HKWorkoutActivityType.running.rawValue == 37)
        #expect(HKWorkoutActivityType.walking.rawValue == 52)
        #expect(HKWorkoutActivityType.cycling.rawValue == 13)
        #expect(HKWorkoutActivityType.other.rawValue == 3000)
        #expect(HKQuantityAggregationStyle.discreteEquivalentContinuousLevel.rawValue == 3)
    }
}

extension HKQuantityAggregationStyle {
    /// The style a name in Apple's documentation gives; `nil` for `?`.
    static func named(_ name: String) -> HKQuantityAggregationStyle? {
        allCases.first { "\($0)" == name }
    }
}
