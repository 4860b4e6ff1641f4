import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

/// Behaviour of members added so that HealthKit code compiles unchanged:
/// each does what HealthKit's does, not just exist.
@Suite("HealthKit's members beyond the core, doing what HealthKit's do")
struct HealthKitSurfaceTests {
    @Test(
        "preferred units: each type's own unit until the owner sets one; the setting is logged, digested and announced"
    )
    func preferredUnits() async throws {
        try await withTemporaryStore { store, directory in
            let mass = HKQuantityType(.bodyMass)
            var units = try await store.preferredUnits(for: [mass, stepType])
            #expect(units[mass] == mass.canonicalUnit && units[stepType] == .count())

            let before = try store.stateDigest()
            let announced = Collector<Bool>()
            let observer = NotificationCenter.default.addObserver(
                forName: .HKUserPreferencesDidChange,  // HealthKit's name, as ports write it
                object: store,
                queue: nil
            ) { _ in announced.append(true) }
            defer { NotificationCenter.default.removeObserver(observer) }
            try await store.setPreferredUnits([mass: .pound()])
            try await store.setPreferredUnits([stepType: .count()])
            #expect(announced.count == 2)
            units = try await store.preferredUnits(for: [mass, stepType])
            #expect(units[mass] == .pound(), "a later setting of another type keeps this one")
            #expect(try store.stateDigest() != before)
            await expectCode(.errorInvalidArgument) { try await store.setPreferredUnits([mass: .meter()]) }

            // Apps read them once they have asked for the type; they cannot set them.
            let app = HKHealthStore(
                directory: directory,
                principal: HKSource(name: "Scale", bundleIdentifier: "com.example.scale"),
                configuration: .forTests
            )
            await expectCode(.errorAuthorizationNotDetermined) { try await app.preferredUnits(for: [mass]) }
            try await app.requestAuthorization(toShare: [], read: [mass])
            #expect(try await app.preferredUnits(for: [mass])[mass] == .pound())
            await expectCode(.errorAuthorizationDenied) { try await app.setPreferredUnits([mass: .gram()]) }
            await app.close()

            // Rebuilt indices keep the same setting.
            _ = try await store.rebuildIndices()
            #expect(try await store.preferredUnits(for: [mass])[mass] == .pound())
        }
    }

    @Test("UNIT-2: lux, diopters and prism diopters parse, print and convert only where they should")
    func lightAndLensUnits() {
        #expect(HKUnit(from: "klx") == .luxUnit(with: .kilo))
        #expect(HKUnit.lux().unitString == "lx")
        #expect(HKQuantity(unit: .luxUnit(with: .kilo), doubleValue: 1.5).doubleValue(for: .lux()) == 1_500)
        #expect(HKUnit(from: "D") == .diopter() && HKUnit(from: "pD") == .prismDiopter())
        #expect(!HKUnit.diopter().isCompatible(with: .prismDiopter()))
        #expect(!HKUnit.diopter().isCompatible(with: .meter().reciprocal()))
        #expect(!HKUnit.lux().isCompatible(with: .count()))
    }

    @Test("UNIT-4: Foundation's formatter units convert both ways, calories as the formatters mean them")
    func formatterUnits() {
        for unit in [MassFormatter.Unit.gram, .kilogram, .ounce, .pound, .stone] {
            #expect(HKUnit.massFormatterUnit(from: HKUnit(from: unit)) == unit)
        }
        for unit in [LengthFormatter.Unit.millimeter, .centimeter, .meter, .kilometer, .inch, .foot, .yard, .mile] {
            #expect(HKUnit.lengthFormatterUnit(from: HKUnit(from: unit)) == unit)
        }
        for unit in [EnergyFormatter.Unit.joule, .kilojoule, .calorie, .kilocalorie] {
            #expect(HKUnit.energyFormatterUnit(from: HKUnit(from: unit)) == unit)
        }
        #expect(HKUnit(from: EnergyFormatter.Unit.calorie) == .smallCalorie())
        #expect(HKUnit.energyFormatterUnit(from: .largeCalorie()) == .kilocalorie)
    }

    @Test("errors are CustomNSError with HealthKit's domain, codes and static members for catch patterns")
    func errorsAsHealthKit() async throws {
        let error = HKError(.errorAuthorizationDenied, "no")
        #expect(HKError.errorDomain == HKErrorDomain && error.errorCode == 4)
        #expect(error.userInfo[NSLocalizedDescriptionKey] as? String == "no")
        let nsError = error as NSError
        #expect(nsError.domain == HKErrorDomain && nsError.code == 4)
        let rebuilt = HKError(
            .errorInvalidArgument,
            userInfo: [NSLocalizedDescriptionKey: "bad", "HKErrorRule": "OBJ-7"]
        )
        #expect(rebuilt.message == "bad" && rebuilt.rule == "OBJ-7")
        #expect(HKError(.errorNoData).message == "errorNoData")
        do {
            throw error
        } catch HKError.errorAuthorizationDenied {
            // HealthKit's pattern matched.
        } catch {
            Issue.record("HKError.errorAuthorizationDenied did not match \(error)")
        }
    }

    @Test("OBJ-13: noise notifications use the identifier string the export writes; the old kind still reads")
    func audioExposureIdentifier() throws {
        #expect(
            HKCategoryTypeIdentifier.environmentalAudioExposureEvent.rawValue
                == "HKCategoryTypeIdentifierAudioExposureEvent"
        )
        let type = HKCategoryType(.environmentalAudioExposureEvent)
        #expect(HKObjectType.type(forIdentifier: "HKCategoryTypeIdentifierAudioExposureEvent") == type)
        #expect(
            (HKObjectType.type(forIdentifier: "HKCategoryTypeIdentifierAudioExposureEvent") as? HKCategoryType)?
                .kindCode == 2069
        )
        // Entries written under the constant's name (kind 2002) still decode.
        let legacy = try #require(TypeCatalog.sampleType(forKindCode: 2002))
        #expect(legacy.identifier == "HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent")
        #expect(
            TypeCatalog.sampleType(forKindCode: 2072)?.identifier == HKCategoryTypeIdentifier.menopausalState.rawValue
        )
        #expect(
            HKObjectType.quantityType(forIdentifier: .heartRateVariabilityRMSSD)?.aggregationStyle
                == .discreteArithmetic
        )
    }

    @Test("OBJ-13: category value providers make the predicates HealthKit's do; sleep knows its asleep values")
    func categoryValuePredicates() async throws {
        try await withTemporaryStore { store, _ in
            let sleep = HKCategoryType(.sleepAnalysis)
            let values: [HKCategoryValueSleepAnalysis] = [.inBed, .asleepCore, .awake, .asleepREM]
            try await store.save(
                values.enumerated().map { index, value in
                    HKCategorySample(
                        type: sleep,
                        value: value.rawValue,
                        start: minutes(Double(index)),
                        end: minutes(Double(index) + 1)
                    )
                }
            )
            func matching(_ predicate: NSPredicate) async throws -> [Int] {
                try await HKSampleQueryDescriptor(
                    predicates: [.categorySample(type: sleep, predicate: predicate)],
                    sortDescriptors: [SortDescriptor(\.startDate)]
                ).result(for: store).map(\.value)
            }
            let asleep = HKCategoryValueSleepAnalysis.predicateForSamples(
                equalTo: HKCategoryValueSleepAnalysis.allAsleepValues
            )
            #expect(try await matching(asleep) == [3, 5])
            #expect(
                try await matching(HKCategoryValueSleepAnalysis.predicateForSamples(.greaterThan, value: .awake)) == [
                    3, 5,
                ]
            )
        }
    }

    @Test("walking steadiness classifies at 20 % and 40 %; breathing disturbances at 5; wrong units are refused")
    func classifications() throws {
        func steadiness(_ percent: Double) throws -> HKAppleWalkingSteadinessClassification {
            try HKAppleWalkingSteadinessClassification(for: HKQuantity(unit: .percent(), doubleValue: percent))
        }
        #expect(try steadiness(0.5) == .ok && steadiness(0.4) == .ok)
        #expect(try steadiness(0.39) == .low && steadiness(0.2) == .low && steadiness(0.1) == .veryLow)
        #expect(throws: HKError.self) { try steadiness(1.5) }
        #expect(throws: HKError.self) {
            try HKAppleWalkingSteadinessClassification(for: HKQuantity(unit: .meter(), doubleValue: 1))
        }
        for level in HKAppleWalkingSteadinessClassification.allCases {
            #expect(try HKAppleWalkingSteadinessClassification(for: level.minimum) == level)
        }
        let count = { (value: Double) in HKQuantity(unit: .count(), doubleValue: value) }
        #expect(HKAppleSleepingBreathingDisturbancesClassification(classifying: count(4.9)) == .notElevated)
        #expect(HKAppleSleepingBreathingDisturbancesClassification(classifying: count(5)) == .elevated)
        #expect(
            HKAppleSleepingBreathingDisturbancesClassification(classifying: HKQuantity(unit: .second(), doubleValue: 9))
                == nil
        )
    }

    @Test("the types of data not stored exist, ask nothing special, and queries of them find nothing")
    func typesOfOtherData() async throws {
        try await withTemporaryStore { store, _ in
            #expect(HKObjectType.electrocardiogramType().identifier == "HKDataTypeIdentifierElectrocardiogram")
            #expect(HKSeriesType.workoutRoute().identifier == HKWorkoutRouteTypeIdentifier)
            #expect(
                HKObjectType.seriesType(forIdentifier: HKDataTypeIdentifierHeartbeatSeries) === HKSeriesType.heartbeat()
            )
            #expect(HKObjectType.visionPrescriptionType().requiresPerObjectAuthorization())
            #expect(!stepType.requiresPerObjectAuthorization())
            #expect(HKObjectType.clinicalType(forIdentifier: .labResultRecord) == HKClinicalType(.labResultRecord))
            #expect(!store.supportsHealthRecords())
            let found = try await HKSampleQueryDescriptor(
                predicates: [.sample(type: HKObjectType.electrocardiogramType())],
                sortDescriptors: []
            ).result(for: store)
            #expect(found.isEmpty)
            await expectCode(.errorInvalidArgument) {
                try await store.recalibrateEstimates(sampleType: stepType, date: Date())
            }
        }
    }
}
