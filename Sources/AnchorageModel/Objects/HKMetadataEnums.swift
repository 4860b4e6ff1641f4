// The enumerations whose raw values HealthKit's metadata keys hold
// (HKMetadata.h): `metadata[HKMetadataKeyInsulinDeliveryReason]` is an
// `HKInsulinDeliveryReason.bolus.rawValue`, and so on. Raw values are
// HealthKit's: they are what exports and other stores carry.

/// Where a body temperature was taken (`HKMetadataKeyBodyTemperatureSensorLocation`).
public enum HKBodyTemperatureSensorLocation: Int, Sendable, Hashable, Codable, CaseIterable {
    case other = 0
    case armpit, body, ear, finger, gastroIntestinal, mouth, rectum, toe, earDrum, temporalArtery, forehead
}

/// Where a heart rate sensor was worn (`HKMetadataKeyHeartRateSensorLocation`).
public enum HKHeartRateSensorLocation: Int, Sendable, Hashable, Codable, CaseIterable {
    case other = 0
    case chest, wrist, finger, hand, earLobe, foot
}

/// What the person was doing when a heart rate was taken (`HKMetadataKeyHeartRateMotionContext`).
public enum HKHeartRateMotionContext: Int, Sendable, Hashable, Codable, CaseIterable {
    case notSet = 0
    case sedentary, active
}

/// What the person was doing when a sample was taken (`HKMetadataKeyUserMotionContext`).
public enum HKUserMotionContext: Int, Sendable, Hashable, Codable, CaseIterable {
    case notSet = 0
    case stationary, active
}

/// How a heart rate recovery was measured (`HKMetadataKeyHeartRateRecoveryTestType`).
public enum HKHeartRateRecoveryTestType: Int, Sendable, Hashable, Codable, CaseIterable {
    case maxExercise = 1
    case predictionSubMaxExercise, predictionNonExercise
}

/// Why insulin was delivered (`HKMetadataKeyInsulinDeliveryReason`, required on insulin deliveries).
public enum HKInsulinDeliveryReason: Int, Sendable, Hashable, Codable, CaseIterable {
    case basal = 1
    case bolus
}

/// When a blood glucose was taken relative to a meal (`HKMetadataKeyBloodGlucoseMealTime`).
public enum HKBloodGlucoseMealTime: Int, Sendable, Hashable, Codable, CaseIterable {
    case preprandial = 1
    case postprandial
}

/// How a VO₂ max was measured (`HKMetadataKeyVO2MaxTestType`).
public enum HKVO2MaxTestType: Int, Sendable, Hashable, Codable, CaseIterable {
    case maxExercise = 1
    case predictionSubMaxExercise, predictionNonExercise, predictionStepTest
}

/// The weather during a workout (`HKMetadataKeyWeatherCondition`).
public enum HKWeatherCondition: Int, Sendable, Hashable, Codable, CaseIterable {
    case none = 0
    case clear, fair, partlyCloudy, mostlyCloudy, cloudy, foggy, haze, windy, blustery, smoky, dust, snow
    case hail, sleet, freezingDrizzle, freezingRain, mixedRainAndHail, mixedRainAndSnow, mixedRainAndSleet
    case mixedSnowAndSleet, drizzle, scatteredShowers, showers, thunderstorms, tropicalStorm, hurricane, tornado
}

/// The water of a swim or dive (`HKMetadataKeyWaterSalinity`).
public enum HKWaterSalinity: Int, Sendable, Hashable, Codable, CaseIterable {
    case freshWater = 1
    case saltWater
}

/// How a cycling functional threshold power was measured
/// (`HKMetadataKeyCyclingFunctionalThresholdPowerTestType`).
public enum HKCyclingFunctionalThresholdPowerTestType: Int, Sendable, Hashable, Codable, CaseIterable {
    case maxExercise60Minute = 1
    case maxExercise20Minute, rampTest, predictionExercise
}

/// A swimming stroke (`HKMetadataKeySwimmingStrokeStyle`).
public enum HKSwimmingStrokeStyle: Int, Sendable, Hashable, Codable, CaseIterable {
    case unknown = 0
    case mixed, freestyle, backstroke, breaststroke, butterfly, kickboard
}

/// Where a swim took place (`HKMetadataKeySwimmingLocationType`).
public enum HKWorkoutSwimmingLocationType: Int, Sendable, Hashable, Codable, CaseIterable {
    case unknown = 0
    case pool, openWater
}

/// Where a workout took place.
public enum HKWorkoutSessionLocationType: Int, Sendable, Hashable, Codable, CaseIterable {
    case unknown = 1
    case indoor, outdoor
}

/// The side of the body a device was worn on (`HKMetadataKeyDevicePlacementSide`).
public enum HKDevicePlacementSide: Int, Sendable, Hashable, Codable, CaseIterable {
    case unknown = 0
    case left, right, central
}

/// How a physical effort was estimated (`HKMetadataKeyPhysicalEffortEstimationType`).
public enum HKPhysicalEffortEstimationType: Int, Sendable, Hashable, Codable, CaseIterable {
    case activityLookup = 1
    case deviceSensed
}

/// The ECG algorithm that classified an electrocardiogram
/// (`HKMetadataKeyAppleECGAlgorithmVersion`).
public enum HKAppleECGAlgorithmVersion: Int, Sendable, Hashable, Codable, CaseIterable {
    case version1 = 1
    case version2
}
