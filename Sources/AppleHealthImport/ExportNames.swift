import Anchorage
import Foundation

/// The names the Health app writes for enumerations, and the metadata keys
/// it writes by their raw strings.
enum ExportNames {
    /// `prefix` + each case's name with its first letter capitalized, to
    /// the case: `HKWorkoutActivityType` + `running` → `.running`.
    static func table<E: CaseIterable>(_ type: E.Type, prefix: String) -> [String: E] {
        var table: [String: E] = [:]
        for value in E.allCases {
            let name = String(describing: value)
            table[prefix + name.prefix(1).uppercased() + name.dropFirst()] = value
        }
        return table
    }

    static let activityTypes = table(HKWorkoutActivityType.self, prefix: "HKWorkoutActivityType")
    static let eventTypes = table(HKWorkoutEventType.self, prefix: "HKWorkoutEventType")
    /// ``table(_:prefix:)`` for a characteristic, with its raw values as
    /// text too: the oldest exports (iOS 8 and 9) write `Me`'s values as
    /// numbers (`HKCharacteristicTypeIdentifierBiologicalSex="2"`: male).
    static func characteristicTable<E: CaseIterable & RawRepresentable>(
        _ type: E.Type,
        prefix: String
    ) -> [String: E] where E.RawValue == Int {
        var names = table(type, prefix: prefix)
        for value in E.allCases { names[String(value.rawValue)] = value }
        return names
    }

    static let biologicalSexes = characteristicTable(HKBiologicalSex.self, prefix: "HKBiologicalSex")
    static let bloodTypes = characteristicTable(HKBloodType.self, prefix: "HKBloodType")
    static let skinTypes = characteristicTable(HKFitzpatrickSkinType.self, prefix: "HKFitzpatrickSkinType")
    static let wheelchairUses = characteristicTable(HKWheelchairUse.self, prefix: "HKWheelchairUse")

    /// Category values by name: `HKCategoryValueSleepAnalysisInBed` → 0.
    static let categoryValues: [String: Int] = {
        var values: [String: Int] = ["HKCategoryValueNotApplicable": 0, "HKCategoryValueSleepAnalysisAsleep": 1]
        func add<E: CaseIterable & RawRepresentable>(_ type: E.Type, _ prefix: String) where E.RawValue == Int {
            for (name, value) in table(type, prefix: prefix) { values[name] = value.rawValue }
        }
        add(HKCategoryValueAppetiteChanges.self, "HKCategoryValueAppetiteChanges")
        add(HKCategoryValueAppleStandHour.self, "HKCategoryValueAppleStandHour")
        add(HKCategoryValueAppleWalkingSteadinessEvent.self, "HKCategoryValueAppleWalkingSteadinessEvent")
        add(HKCategoryValueCervicalMucusQuality.self, "HKCategoryValueCervicalMucusQuality")
        add(HKCategoryValueContraceptive.self, "HKCategoryValueContraceptive")
        add(HKCategoryValueEnvironmentalAudioExposureEvent.self, "HKCategoryValueEnvironmentalAudioExposureEvent")
        add(HKCategoryValueHeadphoneAudioExposureEvent.self, "HKCategoryValueHeadphoneAudioExposureEvent")
        add(HKCategoryValueLowCardioFitnessEvent.self, "HKCategoryValueLowCardioFitnessEvent")
        add(HKCategoryValueMenstrualFlow.self, "HKCategoryValueMenstrualFlow")
        add(HKCategoryValueOvulationTestResult.self, "HKCategoryValueOvulationTestResult")
        add(HKCategoryValuePregnancyTestResult.self, "HKCategoryValuePregnancyTestResult")
        add(HKCategoryValuePresence.self, "HKCategoryValuePresence")
        add(HKCategoryValueProgesteroneTestResult.self, "HKCategoryValueProgesteroneTestResult")
        add(HKCategoryValueSeverity.self, "HKCategoryValueSeverity")
        add(HKCategoryValueSleepAnalysis.self, "HKCategoryValueSleepAnalysis")
        add(HKCategoryValueVaginalBleeding.self, "HKCategoryValueVaginalBleeding")
        return values
    }()

    /// Metadata keys the Health app writes by their raw strings, mapped to
    /// Anchorage's constants; other keys are kept as written.
    static let metadataKeys: [String: String] = [
        "HKWasUserEntered": HKMetadataKeyWasUserEntered,
        "HKTimeZone": HKMetadataKeyTimeZone,
        "HKDeviceName": HKMetadataKeyDeviceName,
        "HKDeviceManufacturerName": HKMetadataKeyDeviceManufacturerName,
        "HKExternalUUID": HKMetadataKeyExternalUUID,
        "HKFoodType": HKMetadataKeyFoodType,
        "HKIndoorWorkout": "HKMetadataKeyIndoorWorkout",
        "HKHeartRateMotionContext": HKMetadataKeyHeartRateMotionContext,
        "HKWasTakenInLab": HKMetadataKeyWasTakenInLab,
        "HKSwimmingLocationType": HKMetadataKeySwimmingLocationType,
        "HKLapLength": HKMetadataKeyLapLength,
    ]
}
