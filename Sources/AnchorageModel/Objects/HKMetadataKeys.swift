// HealthKit's metadata keys (HKMetadata.h, iOS 18 SDK). Keys beginning
// with "HK" that are not in this list are rejected (OBJ-6).

/// `HKMetadataKeyDeviceSerialNumber`.
public let HKMetadataKeyDeviceSerialNumber = "HKMetadataKeyDeviceSerialNumber"
/// `HKMetadataKeyBodyTemperatureSensorLocation`.
public let HKMetadataKeyBodyTemperatureSensorLocation = "HKMetadataKeyBodyTemperatureSensorLocation"
/// `HKMetadataKeyHeartRateSensorLocation`.
public let HKMetadataKeyHeartRateSensorLocation = "HKMetadataKeyHeartRateSensorLocation"
/// `HKMetadataKeyHeartRateMotionContext`.
public let HKMetadataKeyHeartRateMotionContext = "HKMetadataKeyHeartRateMotionContext"
/// `HKMetadataKeyUserMotionContext`.
public let HKMetadataKeyUserMotionContext = "HKMetadataKeyUserMotionContext"
/// `HKMetadataKeySessionEstimate`.
public let HKMetadataKeySessionEstimate = "HKMetadataKeySessionEstimate"
/// `HKMetadataKeyHeartRateRecoveryTestType`.
public let HKMetadataKeyHeartRateRecoveryTestType = "HKMetadataKeyHeartRateRecoveryTestType"
/// `HKMetadataKeyHeartRateRecoveryActivityType`.
public let HKMetadataKeyHeartRateRecoveryActivityType = "HKMetadataKeyHeartRateRecoveryActivityType"
/// `HKMetadataKeyHeartRateRecoveryActivityDuration`.
public let HKMetadataKeyHeartRateRecoveryActivityDuration = "HKMetadataKeyHeartRateRecoveryActivityDuration"
/// `HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate`.
public let HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate =
    "HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate"
/// `HKMetadataKeyFoodType`.
public let HKMetadataKeyFoodType = "HKMetadataKeyFoodType"
/// `HKMetadataKeyUDIDeviceIdentifier`.
public let HKMetadataKeyUDIDeviceIdentifier = "HKMetadataKeyUDIDeviceIdentifier"
/// `HKMetadataKeyUDIProductionIdentifier`.
public let HKMetadataKeyUDIProductionIdentifier = "HKMetadataKeyUDIProductionIdentifier"
/// `HKMetadataKeyDigitalSignature`.
public let HKMetadataKeyDigitalSignature = "HKMetadataKeyDigitalSignature"
/// `HKMetadataKeyExternalUUID`.
public let HKMetadataKeyExternalUUID = "HKMetadataKeyExternalUUID"
/// `HKMetadataKeySyncIdentifier`.
public let HKMetadataKeySyncIdentifier = "HKMetadataKeySyncIdentifier"
/// `HKMetadataKeySyncVersion`.
public let HKMetadataKeySyncVersion = "HKMetadataKeySyncVersion"
/// `HKMetadataKeyTimeZone`.
public let HKMetadataKeyTimeZone = "HKMetadataKeyTimeZone"
/// `HKMetadataKeyDeviceName`.
public let HKMetadataKeyDeviceName = "HKMetadataKeyDeviceName"
/// `HKMetadataKeyDeviceManufacturerName`.
public let HKMetadataKeyDeviceManufacturerName = "HKMetadataKeyDeviceManufacturerName"
/// `HKMetadataKeyWasTakenInLab`.
public let HKMetadataKeyWasTakenInLab = "HKMetadataKeyWasTakenInLab"
/// `HKMetadataKeyReferenceRangeLowerLimit`.
public let HKMetadataKeyReferenceRangeLowerLimit = "HKMetadataKeyReferenceRangeLowerLimit"
/// `HKMetadataKeyReferenceRangeUpperLimit`.
public let HKMetadataKeyReferenceRangeUpperLimit = "HKMetadataKeyReferenceRangeUpperLimit"
/// `HKMetadataKeyWasUserEntered`.
public let HKMetadataKeyWasUserEntered = "HKMetadataKeyWasUserEntered"
/// `HKMetadataKeyWorkoutBrandName`.
public let HKMetadataKeyWorkoutBrandName = "HKMetadataKeyWorkoutBrandName"
/// `HKMetadataKeyGroupFitness`.
public let HKMetadataKeyGroupFitness = "HKMetadataKeyGroupFitness"
/// `HKMetadataKeyAppleFitnessPlusSession`.
public let HKMetadataKeyAppleFitnessPlusSession = "HKMetadataKeyAppleFitnessPlusSession"
/// `HKMetadataKeyAppleFitnessPlusCatalogIdentifier`.
public let HKMetadataKeyAppleFitnessPlusCatalogIdentifier = "HKMetadataKeyAppleFitnessPlusCatalogIdentifier"
/// `HKMetadataKeyIndoorWorkout`.
public let HKMetadataKeyIndoorWorkout = "HKMetadataKeyIndoorWorkout"
/// `HKMetadataKeyCoachedWorkout`.
public let HKMetadataKeyCoachedWorkout = "HKMetadataKeyCoachedWorkout"
/// `HKMetadataKeyWeatherCondition`.
public let HKMetadataKeyWeatherCondition = "HKMetadataKeyWeatherCondition"
/// `HKMetadataKeyWeatherTemperature`.
public let HKMetadataKeyWeatherTemperature = "HKMetadataKeyWeatherTemperature"
/// `HKMetadataKeyWeatherHumidity`.
public let HKMetadataKeyWeatherHumidity = "HKMetadataKeyWeatherHumidity"
/// `HKMetadataKeySexualActivityProtectionUsed`.
public let HKMetadataKeySexualActivityProtectionUsed = "HKMetadataKeySexualActivityProtectionUsed"
/// `HKMetadataKeyMenstrualCycleStart`.
public let HKMetadataKeyMenstrualCycleStart = "HKMetadataKeyMenstrualCycleStart"
/// `HKMetadataKeyLapLength`.
public let HKMetadataKeyLapLength = "HKMetadataKeyLapLength"
/// `HKMetadataKeySwimmingLocationType`.
public let HKMetadataKeySwimmingLocationType = "HKMetadataKeySwimmingLocationType"
/// `HKMetadataKeySwimmingStrokeStyle`.
public let HKMetadataKeySwimmingStrokeStyle = "HKMetadataKeySwimmingStrokeStyle"
/// `HKMetadataKeyInsulinDeliveryReason`.
public let HKMetadataKeyInsulinDeliveryReason = "HKMetadataKeyInsulinDeliveryReason"
/// `HKMetadataKeyBloodGlucoseMealTime`.
public let HKMetadataKeyBloodGlucoseMealTime = "HKMetadataKeyBloodGlucoseMealTime"
/// `HKMetadataKeyVO2MaxTestType`.
public let HKMetadataKeyVO2MaxTestType = "HKMetadataKeyVO2MaxTestType"
/// `HKMetadataKeyAverageSpeed`.
public let HKMetadataKeyAverageSpeed = "HKMetadataKeyAverageSpeed"
/// `HKMetadataKeyMaximumSpeed`.
public let HKMetadataKeyMaximumSpeed = "HKMetadataKeyMaximumSpeed"
/// `HKMetadataKeyAlpineSlopeGrade`.
public let HKMetadataKeyAlpineSlopeGrade = "HKMetadataKeyAlpineSlopeGrade"
/// `HKMetadataKeyElevationAscended`.
public let HKMetadataKeyElevationAscended = "HKMetadataKeyElevationAscended"
/// `HKMetadataKeyElevationDescended`.
public let HKMetadataKeyElevationDescended = "HKMetadataKeyElevationDescended"
/// `HKMetadataKeyFitnessMachineDuration`.
public let HKMetadataKeyFitnessMachineDuration = "HKMetadataKeyFitnessMachineDuration"
/// `HKMetadataKeyIndoorBikeDistance`.
public let HKMetadataKeyIndoorBikeDistance = "HKMetadataKeyIndoorBikeDistance"
/// `HKMetadataKeyCrossTrainerDistance`.
public let HKMetadataKeyCrossTrainerDistance = "HKMetadataKeyCrossTrainerDistance"
/// `HKMetadataKeyHeartRateEventThreshold`.
public let HKMetadataKeyHeartRateEventThreshold = "HKMetadataKeyHeartRateEventThreshold"
/// `HKMetadataKeyAverageMETs`.
public let HKMetadataKeyAverageMETs = "HKMetadataKeyAverageMETs"
/// `HKMetadataKeyAudioExposureLevel`.
public let HKMetadataKeyAudioExposureLevel = "HKMetadataKeyAudioExposureLevel"
/// `HKMetadataKeyAudioExposureDuration`.
public let HKMetadataKeyAudioExposureDuration = "HKMetadataKeyAudioExposureDuration"
/// `HKMetadataKeyAppleECGAlgorithmVersion`.
public let HKMetadataKeyAppleECGAlgorithmVersion = "HKMetadataKeyAppleECGAlgorithmVersion"
/// `HKMetadataKeyDevicePlacementSide`.
public let HKMetadataKeyDevicePlacementSide = "HKMetadataKeyDevicePlacementSide"
/// `HKMetadataKeyBarometricPressure`.
public let HKMetadataKeyBarometricPressure = "HKMetadataKeyBarometricPressure"
/// `HKMetadataKeyAppleDeviceCalibrated`.
public let HKMetadataKeyAppleDeviceCalibrated = "HKMetadataKeyAppleDeviceCalibrated"
/// `HKMetadataKeyVO2MaxValue`.
public let HKMetadataKeyVO2MaxValue = "HKMetadataKeyVO2MaxValue"
/// `HKMetadataKeyLowCardioFitnessEventThreshold`.
public let HKMetadataKeyLowCardioFitnessEventThreshold = "HKMetadataKeyLowCardioFitnessEventThreshold"
/// `HKMetadataKeyDateOfEarliestDataUsedForEstimate`.
public let HKMetadataKeyDateOfEarliestDataUsedForEstimate = "HKMetadataKeyDateOfEarliestDataUsedForEstimate"
/// `HKMetadataKeyAlgorithmVersion`.
public let HKMetadataKeyAlgorithmVersion = "HKMetadataKeyAlgorithmVersion"
/// `HKMetadataKeySWOLFScore`.
public let HKMetadataKeySWOLFScore = "HKMetadataKeySWOLFScore"
/// `HKMetadataKeyQuantityClampedToLowerBound`.
public let HKMetadataKeyQuantityClampedToLowerBound = "HKMetadataKeyQuantityClampedToLowerBound"
/// `HKMetadataKeyQuantityClampedToUpperBound`.
public let HKMetadataKeyQuantityClampedToUpperBound = "HKMetadataKeyQuantityClampedToUpperBound"
/// `HKMetadataKeyGlassesPrescriptionDescription`.
public let HKMetadataKeyGlassesPrescriptionDescription = "HKMetadataKeyGlassesPrescriptionDescription"
/// `HKMetadataKeyWaterSalinity`.
public let HKMetadataKeyWaterSalinity = "HKMetadataKeyWaterSalinity"
/// `HKMetadataKeyHeadphoneGain`.
public let HKMetadataKeyHeadphoneGain = "HKMetadataKeyHeadphoneGain"
/// `HKMetadataKeyCyclingFunctionalThresholdPowerTestType`.
public let HKMetadataKeyCyclingFunctionalThresholdPowerTestType = "HKMetadataKeyCyclingFunctionalThresholdPowerTestType"
/// `HKMetadataKeyActivityType`.
public let HKMetadataKeyActivityType = "HKMetadataKeyActivityType"
/// `HKMetadataKeyPhysicalEffortEstimationType`.
public let HKMetadataKeyPhysicalEffortEstimationType = "HKMetadataKeyPhysicalEffortEstimationType"
/// `HKMetadataKeyMaximumLightIntensity`.
public let HKMetadataKeyMaximumLightIntensity = "HKMetadataKeyMaximumLightIntensity"

/// Every known `HK…` metadata key.
extension HKObject {
    /// Whether `key` is one of the HealthKit metadata keys Anchorage knows.
    /// Other keys beginning with `HK` are refused (OBJ-6): importers keep
    /// such keys under a name of their own.
    public static func isKnownMetadataKey(_ key: String) -> Bool {
        knownMetadataKeys.contains(key)
    }

    /// Whether the object was entered by hand (`HKMetadataKeyWasUserEntered`
    /// true, or a non-zero number): such samples rank first when statistics
    /// merge sources (ST-24).
    package var wasUserEntered: Bool {
        (typedMetadata[HKMetadataKeyWasUserEntered]?.number ?? 0) != 0
    }
}

package let knownMetadataKeys: Set<String> = [
    HKMetadataKeyDeviceSerialNumber,
    HKMetadataKeyBodyTemperatureSensorLocation,
    HKMetadataKeyHeartRateSensorLocation,
    HKMetadataKeyHeartRateMotionContext,
    HKMetadataKeyUserMotionContext,
    HKMetadataKeySessionEstimate,
    HKMetadataKeyHeartRateRecoveryTestType,
    HKMetadataKeyHeartRateRecoveryActivityType,
    HKMetadataKeyHeartRateRecoveryActivityDuration,
    HKMetadataKeyHeartRateRecoveryMaxObservedRecoveryHeartRate,
    HKMetadataKeyFoodType,
    HKMetadataKeyUDIDeviceIdentifier,
    HKMetadataKeyUDIProductionIdentifier,
    HKMetadataKeyDigitalSignature,
    HKMetadataKeyExternalUUID,
    HKMetadataKeySyncIdentifier,
    HKMetadataKeySyncVersion,
    HKMetadataKeyTimeZone,
    HKMetadataKeyDeviceName,
    HKMetadataKeyDeviceManufacturerName,
    HKMetadataKeyWasTakenInLab,
    HKMetadataKeyReferenceRangeLowerLimit,
    HKMetadataKeyReferenceRangeUpperLimit,
    HKMetadataKeyWasUserEntered,
    HKMetadataKeyWorkoutBrandName,
    HKMetadataKeyGroupFitness,
    HKMetadataKeyAppleFitnessPlusSession,
    HKMetadataKeyAppleFitnessPlusCatalogIdentifier,
    HKMetadataKeyIndoorWorkout,
    HKMetadataKeyCoachedWorkout,
    HKMetadataKeyWeatherCondition,
    HKMetadataKeyWeatherTemperature,
    HKMetadataKeyWeatherHumidity,
    HKMetadataKeySexualActivityProtectionUsed,
    HKMetadataKeyMenstrualCycleStart,
    HKMetadataKeyLapLength,
    HKMetadataKeySwimmingLocationType,
    HKMetadataKeySwimmingStrokeStyle,
    HKMetadataKeyInsulinDeliveryReason,
    HKMetadataKeyBloodGlucoseMealTime,
    HKMetadataKeyVO2MaxTestType,
    HKMetadataKeyAverageSpeed,
    HKMetadataKeyMaximumSpeed,
    HKMetadataKeyAlpineSlopeGrade,
    HKMetadataKeyElevationAscended,
    HKMetadataKeyElevationDescended,
    HKMetadataKeyFitnessMachineDuration,
    HKMetadataKeyIndoorBikeDistance,
    HKMetadataKeyCrossTrainerDistance,
    HKMetadataKeyHeartRateEventThreshold,
    HKMetadataKeyAverageMETs,
    HKMetadataKeyAudioExposureLevel,
    HKMetadataKeyAudioExposureDuration,
    HKMetadataKeyAppleECGAlgorithmVersion,
    HKMetadataKeyDevicePlacementSide,
    HKMetadataKeyBarometricPressure,
    HKMetadataKeyAppleDeviceCalibrated,
    HKMetadataKeyVO2MaxValue,
    HKMetadataKeyLowCardioFitnessEventThreshold,
    HKMetadataKeyDateOfEarliestDataUsedForEstimate,
    HKMetadataKeyAlgorithmVersion,
    HKMetadataKeySWOLFScore,
    HKMetadataKeyQuantityClampedToLowerBound,
    HKMetadataKeyQuantityClampedToUpperBound,
    HKMetadataKeyGlassesPrescriptionDescription,
    HKMetadataKeyWaterSalinity,
    HKMetadataKeyHeadphoneGain,
    HKMetadataKeyCyclingFunctionalThresholdPowerTestType,
    HKMetadataKeyActivityType,
    HKMetadataKeyPhysicalEffortEstimationType,
    HKMetadataKeyMaximumLightIntensity,
]
