// The quantity and category type identifiers of current HealthKit (iOS 18
// SDK), grouped as in HKTypeIdentifiers.h. The catalog (TypeCatalog.swift)
// gives each its log kind code, aggregation style, unit and value set.

/// The identifier of a quantity type (`HKQuantityTypeIdentifierStepCount`…).
///
/// ```swift
/// let steps = HKQuantityType(.stepCount)
/// let raw = HKQuantityTypeIdentifier.stepCount.rawValue   // "HKQuantityTypeIdentifierStepCount"
/// ```
public struct HKQuantityTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw identifier string; use the static members for HealthKit's.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    // MARK: Body measurements

    /// `HKQuantityTypeIdentifierAppleSleepingWristTemperature`: discreteArithmetic, in units compatible with `degC`.
    public static let appleSleepingWristTemperature = Self(
        rawValue: "HKQuantityTypeIdentifierAppleSleepingWristTemperature"
    )
    /// `HKQuantityTypeIdentifierBodyFatPercentage`: discreteArithmetic, in units compatible with `%`.
    public static let bodyFatPercentage = Self(rawValue: "HKQuantityTypeIdentifierBodyFatPercentage")
    /// `HKQuantityTypeIdentifierBodyMass`: discreteArithmetic, in units compatible with `kg`.
    public static let bodyMass = Self(rawValue: "HKQuantityTypeIdentifierBodyMass")
    /// `HKQuantityTypeIdentifierBodyMassIndex`: discreteArithmetic, in units compatible with `count`.
    public static let bodyMassIndex = Self(rawValue: "HKQuantityTypeIdentifierBodyMassIndex")
    /// `HKQuantityTypeIdentifierElectrodermalActivity`: discreteArithmetic, in units compatible with `S`.
    public static let electrodermalActivity = Self(rawValue: "HKQuantityTypeIdentifierElectrodermalActivity")
    /// `HKQuantityTypeIdentifierHeight`: discreteArithmetic, in units compatible with `m`.
    public static let height = Self(rawValue: "HKQuantityTypeIdentifierHeight")
    /// `HKQuantityTypeIdentifierLeanBodyMass`: discreteArithmetic, in units compatible with `kg`.
    public static let leanBodyMass = Self(rawValue: "HKQuantityTypeIdentifierLeanBodyMass")
    /// `HKQuantityTypeIdentifierWaistCircumference`: discreteArithmetic, in units compatible with `m`.
    public static let waistCircumference = Self(rawValue: "HKQuantityTypeIdentifierWaistCircumference")

    // MARK: Fitness

    /// `HKQuantityTypeIdentifierActiveEnergyBurned`: cumulative, in units compatible with `kcal`.
    public static let activeEnergyBurned = Self(rawValue: "HKQuantityTypeIdentifierActiveEnergyBurned")
    /// `HKQuantityTypeIdentifierAppleExerciseTime`: cumulative, in units compatible with `min`.
    public static let appleExerciseTime = Self(rawValue: "HKQuantityTypeIdentifierAppleExerciseTime")
    /// `HKQuantityTypeIdentifierAppleMoveTime`: cumulative, in units compatible with `min`.
    public static let appleMoveTime = Self(rawValue: "HKQuantityTypeIdentifierAppleMoveTime")
    /// `HKQuantityTypeIdentifierAppleStandTime`: cumulative, in units compatible with `min`.
    public static let appleStandTime = Self(rawValue: "HKQuantityTypeIdentifierAppleStandTime")
    /// `HKQuantityTypeIdentifierBasalEnergyBurned`: cumulative, in units compatible with `kcal`.
    public static let basalEnergyBurned = Self(rawValue: "HKQuantityTypeIdentifierBasalEnergyBurned")
    /// `HKQuantityTypeIdentifierCrossCountrySkiingSpeed`: discreteArithmetic, in units compatible with `m/s`.
    public static let crossCountrySkiingSpeed = Self(rawValue: "HKQuantityTypeIdentifierCrossCountrySkiingSpeed")
    /// `HKQuantityTypeIdentifierCyclingCadence`: discreteArithmetic, in units compatible with `count/min`.
    public static let cyclingCadence = Self(rawValue: "HKQuantityTypeIdentifierCyclingCadence")
    /// `HKQuantityTypeIdentifierCyclingFunctionalThresholdPower`: discreteArithmetic, in units compatible with `W`.
    public static let cyclingFunctionalThresholdPower = Self(
        rawValue: "HKQuantityTypeIdentifierCyclingFunctionalThresholdPower"
    )
    /// `HKQuantityTypeIdentifierCyclingPower`: discreteArithmetic, in units compatible with `W`.
    public static let cyclingPower = Self(rawValue: "HKQuantityTypeIdentifierCyclingPower")
    /// `HKQuantityTypeIdentifierCyclingSpeed`: discreteArithmetic, in units compatible with `m/s`.
    public static let cyclingSpeed = Self(rawValue: "HKQuantityTypeIdentifierCyclingSpeed")
    /// `HKQuantityTypeIdentifierDistanceCrossCountrySkiing`: cumulative, in units compatible with `m`.
    public static let distanceCrossCountrySkiing = Self(rawValue: "HKQuantityTypeIdentifierDistanceCrossCountrySkiing")
    /// `HKQuantityTypeIdentifierDistanceCycling`: cumulative, in units compatible with `m`.
    public static let distanceCycling = Self(rawValue: "HKQuantityTypeIdentifierDistanceCycling")
    /// `HKQuantityTypeIdentifierDistanceDownhillSnowSports`: cumulative, in units compatible with `m`.
    public static let distanceDownhillSnowSports = Self(rawValue: "HKQuantityTypeIdentifierDistanceDownhillSnowSports")
    /// `HKQuantityTypeIdentifierDistancePaddleSports`: cumulative, in units compatible with `m`.
    public static let distancePaddleSports = Self(rawValue: "HKQuantityTypeIdentifierDistancePaddleSports")
    /// `HKQuantityTypeIdentifierDistanceRowing`: cumulative, in units compatible with `m`.
    public static let distanceRowing = Self(rawValue: "HKQuantityTypeIdentifierDistanceRowing")
    /// `HKQuantityTypeIdentifierDistanceSkatingSports`: cumulative, in units compatible with `m`.
    public static let distanceSkatingSports = Self(rawValue: "HKQuantityTypeIdentifierDistanceSkatingSports")
    /// `HKQuantityTypeIdentifierDistanceSwimming`: cumulative, in units compatible with `m`.
    public static let distanceSwimming = Self(rawValue: "HKQuantityTypeIdentifierDistanceSwimming")
    /// `HKQuantityTypeIdentifierDistanceWalkingRunning`: cumulative, in units compatible with `m`.
    public static let distanceWalkingRunning = Self(rawValue: "HKQuantityTypeIdentifierDistanceWalkingRunning")
    /// `HKQuantityTypeIdentifierDistanceWheelchair`: cumulative, in units compatible with `m`.
    public static let distanceWheelchair = Self(rawValue: "HKQuantityTypeIdentifierDistanceWheelchair")
    /// `HKQuantityTypeIdentifierEstimatedWorkoutEffortScore`: discreteArithmetic, in units compatible with `appleEffortScore`.
    public static let estimatedWorkoutEffortScore = Self(
        rawValue: "HKQuantityTypeIdentifierEstimatedWorkoutEffortScore"
    )
    /// `HKQuantityTypeIdentifierFlightsClimbed`: cumulative, in units compatible with `count`.
    public static let flightsClimbed = Self(rawValue: "HKQuantityTypeIdentifierFlightsClimbed")
    /// `HKQuantityTypeIdentifierNikeFuel`: cumulative, in units compatible with `count`.
    public static let nikeFuel = Self(rawValue: "HKQuantityTypeIdentifierNikeFuel")
    /// `HKQuantityTypeIdentifierPaddleSportsSpeed`: discreteArithmetic, in units compatible with `m/s`.
    public static let paddleSportsSpeed = Self(rawValue: "HKQuantityTypeIdentifierPaddleSportsSpeed")
    /// `HKQuantityTypeIdentifierPhysicalEffort`: discreteArithmetic, in units compatible with `kcal/hr·kg`.
    public static let physicalEffort = Self(rawValue: "HKQuantityTypeIdentifierPhysicalEffort")
    /// `HKQuantityTypeIdentifierPushCount`: cumulative, in units compatible with `count`.
    public static let pushCount = Self(rawValue: "HKQuantityTypeIdentifierPushCount")
    /// `HKQuantityTypeIdentifierRowingSpeed`: discreteArithmetic, in units compatible with `m/s`.
    public static let rowingSpeed = Self(rawValue: "HKQuantityTypeIdentifierRowingSpeed")
    /// `HKQuantityTypeIdentifierRunningPower`: discreteArithmetic, in units compatible with `W`.
    public static let runningPower = Self(rawValue: "HKQuantityTypeIdentifierRunningPower")
    /// `HKQuantityTypeIdentifierRunningSpeed`: discreteArithmetic, in units compatible with `m/s`.
    public static let runningSpeed = Self(rawValue: "HKQuantityTypeIdentifierRunningSpeed")
    /// `HKQuantityTypeIdentifierStepCount`: cumulative, in units compatible with `count`.
    public static let stepCount = Self(rawValue: "HKQuantityTypeIdentifierStepCount")
    /// `HKQuantityTypeIdentifierSwimmingStrokeCount`: cumulative, in units compatible with `count`.
    public static let swimmingStrokeCount = Self(rawValue: "HKQuantityTypeIdentifierSwimmingStrokeCount")
    /// `HKQuantityTypeIdentifierUnderwaterDepth`: discreteArithmetic, in units compatible with `m`.
    public static let underwaterDepth = Self(rawValue: "HKQuantityTypeIdentifierUnderwaterDepth")
    /// `HKQuantityTypeIdentifierWorkoutEffortScore`: discreteArithmetic, in units compatible with `appleEffortScore`.
    public static let workoutEffortScore = Self(rawValue: "HKQuantityTypeIdentifierWorkoutEffortScore")

    // MARK: Hearing

    /// `HKQuantityTypeIdentifierEnvironmentalAudioExposure`: discreteEquivalentContinuousLevel, in units compatible with `dBASPL`.
    public static let environmentalAudioExposure = Self(rawValue: "HKQuantityTypeIdentifierEnvironmentalAudioExposure")
    /// `HKQuantityTypeIdentifierEnvironmentalSoundReduction`: discreteEquivalentContinuousLevel, in units compatible with `dBASPL`.
    public static let environmentalSoundReduction = Self(
        rawValue: "HKQuantityTypeIdentifierEnvironmentalSoundReduction"
    )
    /// `HKQuantityTypeIdentifierHeadphoneAudioExposure`: discreteEquivalentContinuousLevel, in units compatible with `dBASPL`.
    public static let headphoneAudioExposure = Self(rawValue: "HKQuantityTypeIdentifierHeadphoneAudioExposure")

    // MARK: Heart

    /// `HKQuantityTypeIdentifierAtrialFibrillationBurden`: discreteTemporallyWeighted, in units compatible with `%`.
    public static let atrialFibrillationBurden = Self(rawValue: "HKQuantityTypeIdentifierAtrialFibrillationBurden")
    /// `HKQuantityTypeIdentifierHeartRate`: discreteTemporallyWeighted, in units compatible with `count/s`.
    public static let heartRate = Self(rawValue: "HKQuantityTypeIdentifierHeartRate")
    /// `HKQuantityTypeIdentifierHeartRateRecoveryOneMinute`: discreteArithmetic, in units compatible with `count/min`.
    public static let heartRateRecoveryOneMinute = Self(rawValue: "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute")
    /// `HKQuantityTypeIdentifierHeartRateVariabilitySDNN`: discreteArithmetic, in units compatible with `ms`.
    public static let heartRateVariabilitySDNN = Self(rawValue: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
    /// `HKQuantityTypeIdentifierHeartRateVariabilityRMSSD`: discreteArithmetic, in units compatible with `ms`.
    public static let heartRateVariabilityRMSSD = Self(rawValue: "HKQuantityTypeIdentifierHeartRateVariabilityRMSSD")
    /// `HKQuantityTypeIdentifierPeripheralPerfusionIndex`: discreteArithmetic, in units compatible with `%`.
    public static let peripheralPerfusionIndex = Self(rawValue: "HKQuantityTypeIdentifierPeripheralPerfusionIndex")
    /// `HKQuantityTypeIdentifierRestingHeartRate`: discreteArithmetic, in units compatible with `count/min`.
    public static let restingHeartRate = Self(rawValue: "HKQuantityTypeIdentifierRestingHeartRate")
    /// `HKQuantityTypeIdentifierVO2Max`: discreteArithmetic, in units compatible with `mL/min·kg`.
    public static let vo2Max = Self(rawValue: "HKQuantityTypeIdentifierVO2Max")
    /// `HKQuantityTypeIdentifierWalkingHeartRateAverage`: discreteArithmetic, in units compatible with `count/min`.
    public static let walkingHeartRateAverage = Self(rawValue: "HKQuantityTypeIdentifierWalkingHeartRateAverage")

    // MARK: Mobility

    /// `HKQuantityTypeIdentifierAppleWalkingSteadiness`: discreteArithmetic, in units compatible with `%`.
    public static let appleWalkingSteadiness = Self(rawValue: "HKQuantityTypeIdentifierAppleWalkingSteadiness")
    /// `HKQuantityTypeIdentifierRunningGroundContactTime`: discreteArithmetic, in units compatible with `ms`.
    public static let runningGroundContactTime = Self(rawValue: "HKQuantityTypeIdentifierRunningGroundContactTime")
    /// `HKQuantityTypeIdentifierRunningStrideLength`: discreteArithmetic, in units compatible with `m`.
    public static let runningStrideLength = Self(rawValue: "HKQuantityTypeIdentifierRunningStrideLength")
    /// `HKQuantityTypeIdentifierRunningVerticalOscillation`: discreteArithmetic, in units compatible with `cm`.
    public static let runningVerticalOscillation = Self(rawValue: "HKQuantityTypeIdentifierRunningVerticalOscillation")
    /// `HKQuantityTypeIdentifierSixMinuteWalkTestDistance`: discreteArithmetic, in units compatible with `m`.
    public static let sixMinuteWalkTestDistance = Self(rawValue: "HKQuantityTypeIdentifierSixMinuteWalkTestDistance")
    /// `HKQuantityTypeIdentifierStairAscentSpeed`: discreteArithmetic, in units compatible with `m/s`.
    public static let stairAscentSpeed = Self(rawValue: "HKQuantityTypeIdentifierStairAscentSpeed")
    /// `HKQuantityTypeIdentifierStairDescentSpeed`: discreteArithmetic, in units compatible with `m/s`.
    public static let stairDescentSpeed = Self(rawValue: "HKQuantityTypeIdentifierStairDescentSpeed")
    /// `HKQuantityTypeIdentifierWalkingAsymmetryPercentage`: discreteArithmetic, in units compatible with `%`.
    public static let walkingAsymmetryPercentage = Self(rawValue: "HKQuantityTypeIdentifierWalkingAsymmetryPercentage")
    /// `HKQuantityTypeIdentifierWalkingDoubleSupportPercentage`: discreteArithmetic, in units compatible with `%`.
    public static let walkingDoubleSupportPercentage = Self(
        rawValue: "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage"
    )
    /// `HKQuantityTypeIdentifierWalkingSpeed`: discreteArithmetic, in units compatible with `m/s`.
    public static let walkingSpeed = Self(rawValue: "HKQuantityTypeIdentifierWalkingSpeed")
    /// `HKQuantityTypeIdentifierWalkingStepLength`: discreteArithmetic, in units compatible with `m`.
    public static let walkingStepLength = Self(rawValue: "HKQuantityTypeIdentifierWalkingStepLength")

    // MARK: Nutrition

    /// `HKQuantityTypeIdentifierDietaryBiotin`: cumulative, in units compatible with `g`.
    public static let dietaryBiotin = Self(rawValue: "HKQuantityTypeIdentifierDietaryBiotin")
    /// `HKQuantityTypeIdentifierDietaryCaffeine`: cumulative, in units compatible with `g`.
    public static let dietaryCaffeine = Self(rawValue: "HKQuantityTypeIdentifierDietaryCaffeine")
    /// `HKQuantityTypeIdentifierDietaryCalcium`: cumulative, in units compatible with `g`.
    public static let dietaryCalcium = Self(rawValue: "HKQuantityTypeIdentifierDietaryCalcium")
    /// `HKQuantityTypeIdentifierDietaryCarbohydrates`: cumulative, in units compatible with `g`.
    public static let dietaryCarbohydrates = Self(rawValue: "HKQuantityTypeIdentifierDietaryCarbohydrates")
    /// `HKQuantityTypeIdentifierDietaryChloride`: cumulative, in units compatible with `g`.
    public static let dietaryChloride = Self(rawValue: "HKQuantityTypeIdentifierDietaryChloride")
    /// `HKQuantityTypeIdentifierDietaryCholesterol`: cumulative, in units compatible with `g`.
    public static let dietaryCholesterol = Self(rawValue: "HKQuantityTypeIdentifierDietaryCholesterol")
    /// `HKQuantityTypeIdentifierDietaryChromium`: cumulative, in units compatible with `g`.
    public static let dietaryChromium = Self(rawValue: "HKQuantityTypeIdentifierDietaryChromium")
    /// `HKQuantityTypeIdentifierDietaryCopper`: cumulative, in units compatible with `g`.
    public static let dietaryCopper = Self(rawValue: "HKQuantityTypeIdentifierDietaryCopper")
    /// `HKQuantityTypeIdentifierDietaryEnergyConsumed`: cumulative, in units compatible with `kcal`.
    public static let dietaryEnergyConsumed = Self(rawValue: "HKQuantityTypeIdentifierDietaryEnergyConsumed")
    /// `HKQuantityTypeIdentifierDietaryFatMonounsaturated`: cumulative, in units compatible with `g`.
    public static let dietaryFatMonounsaturated = Self(rawValue: "HKQuantityTypeIdentifierDietaryFatMonounsaturated")
    /// `HKQuantityTypeIdentifierDietaryFatPolyunsaturated`: cumulative, in units compatible with `g`.
    public static let dietaryFatPolyunsaturated = Self(rawValue: "HKQuantityTypeIdentifierDietaryFatPolyunsaturated")
    /// `HKQuantityTypeIdentifierDietaryFatSaturated`: cumulative, in units compatible with `g`.
    public static let dietaryFatSaturated = Self(rawValue: "HKQuantityTypeIdentifierDietaryFatSaturated")
    /// `HKQuantityTypeIdentifierDietaryFatTotal`: cumulative, in units compatible with `g`.
    public static let dietaryFatTotal = Self(rawValue: "HKQuantityTypeIdentifierDietaryFatTotal")
    /// `HKQuantityTypeIdentifierDietaryFiber`: cumulative, in units compatible with `g`.
    public static let dietaryFiber = Self(rawValue: "HKQuantityTypeIdentifierDietaryFiber")
    /// `HKQuantityTypeIdentifierDietaryFolate`: cumulative, in units compatible with `g`.
    public static let dietaryFolate = Self(rawValue: "HKQuantityTypeIdentifierDietaryFolate")
    /// `HKQuantityTypeIdentifierDietaryIodine`: cumulative, in units compatible with `g`.
    public static let dietaryIodine = Self(rawValue: "HKQuantityTypeIdentifierDietaryIodine")
    /// `HKQuantityTypeIdentifierDietaryIron`: cumulative, in units compatible with `g`.
    public static let dietaryIron = Self(rawValue: "HKQuantityTypeIdentifierDietaryIron")
    /// `HKQuantityTypeIdentifierDietaryMagnesium`: cumulative, in units compatible with `g`.
    public static let dietaryMagnesium = Self(rawValue: "HKQuantityTypeIdentifierDietaryMagnesium")
    /// `HKQuantityTypeIdentifierDietaryManganese`: cumulative, in units compatible with `g`.
    public static let dietaryManganese = Self(rawValue: "HKQuantityTypeIdentifierDietaryManganese")
    /// `HKQuantityTypeIdentifierDietaryMolybdenum`: cumulative, in units compatible with `g`.
    public static let dietaryMolybdenum = Self(rawValue: "HKQuantityTypeIdentifierDietaryMolybdenum")
    /// `HKQuantityTypeIdentifierDietaryNiacin`: cumulative, in units compatible with `g`.
    public static let dietaryNiacin = Self(rawValue: "HKQuantityTypeIdentifierDietaryNiacin")
    /// `HKQuantityTypeIdentifierDietaryPantothenicAcid`: cumulative, in units compatible with `g`.
    public static let dietaryPantothenicAcid = Self(rawValue: "HKQuantityTypeIdentifierDietaryPantothenicAcid")
    /// `HKQuantityTypeIdentifierDietaryPhosphorus`: cumulative, in units compatible with `g`.
    public static let dietaryPhosphorus = Self(rawValue: "HKQuantityTypeIdentifierDietaryPhosphorus")
    /// `HKQuantityTypeIdentifierDietaryPotassium`: cumulative, in units compatible with `g`.
    public static let dietaryPotassium = Self(rawValue: "HKQuantityTypeIdentifierDietaryPotassium")
    /// `HKQuantityTypeIdentifierDietaryProtein`: cumulative, in units compatible with `g`.
    public static let dietaryProtein = Self(rawValue: "HKQuantityTypeIdentifierDietaryProtein")
    /// `HKQuantityTypeIdentifierDietaryRiboflavin`: cumulative, in units compatible with `g`.
    public static let dietaryRiboflavin = Self(rawValue: "HKQuantityTypeIdentifierDietaryRiboflavin")
    /// `HKQuantityTypeIdentifierDietarySelenium`: cumulative, in units compatible with `g`.
    public static let dietarySelenium = Self(rawValue: "HKQuantityTypeIdentifierDietarySelenium")
    /// `HKQuantityTypeIdentifierDietarySodium`: cumulative, in units compatible with `g`.
    public static let dietarySodium = Self(rawValue: "HKQuantityTypeIdentifierDietarySodium")
    /// `HKQuantityTypeIdentifierDietarySugar`: cumulative, in units compatible with `g`.
    public static let dietarySugar = Self(rawValue: "HKQuantityTypeIdentifierDietarySugar")
    /// `HKQuantityTypeIdentifierDietaryThiamin`: cumulative, in units compatible with `g`.
    public static let dietaryThiamin = Self(rawValue: "HKQuantityTypeIdentifierDietaryThiamin")
    /// `HKQuantityTypeIdentifierDietaryVitaminA`: cumulative, in units compatible with `g`.
    public static let dietaryVitaminA = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminA")
    /// `HKQuantityTypeIdentifierDietaryVitaminB12`: cumulative, in units compatible with `g`.
    public static let dietaryVitaminB12 = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminB12")
    /// `HKQuantityTypeIdentifierDietaryVitaminB6`: cumulative, in units compatible with `g`.
    public static let dietaryVitaminB6 = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminB6")
    /// `HKQuantityTypeIdentifierDietaryVitaminC`: cumulative, in units compatible with `g`.
    public static let dietaryVitaminC = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminC")
    /// `HKQuantityTypeIdentifierDietaryVitaminD`: cumulative, in units compatible with `g`.
    public static let dietaryVitaminD = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminD")
    /// `HKQuantityTypeIdentifierDietaryVitaminE`: cumulative, in units compatible with `g`.
    public static let dietaryVitaminE = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminE")
    /// `HKQuantityTypeIdentifierDietaryVitaminK`: cumulative, in units compatible with `g`.
    public static let dietaryVitaminK = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminK")
    /// `HKQuantityTypeIdentifierDietaryWater`: cumulative, in units compatible with `mL`.
    public static let dietaryWater = Self(rawValue: "HKQuantityTypeIdentifierDietaryWater")
    /// `HKQuantityTypeIdentifierDietaryZinc`: cumulative, in units compatible with `g`.
    public static let dietaryZinc = Self(rawValue: "HKQuantityTypeIdentifierDietaryZinc")

    // MARK: Other

    /// `HKQuantityTypeIdentifierBloodAlcoholContent`: discreteArithmetic, in units compatible with `%`.
    public static let bloodAlcoholContent = Self(rawValue: "HKQuantityTypeIdentifierBloodAlcoholContent")
    /// `HKQuantityTypeIdentifierBloodPressureDiastolic`: discreteArithmetic, in units compatible with `mmHg`.
    public static let bloodPressureDiastolic = Self(rawValue: "HKQuantityTypeIdentifierBloodPressureDiastolic")
    /// `HKQuantityTypeIdentifierBloodPressureSystolic`: discreteArithmetic, in units compatible with `mmHg`.
    public static let bloodPressureSystolic = Self(rawValue: "HKQuantityTypeIdentifierBloodPressureSystolic")
    /// `HKQuantityTypeIdentifierInsulinDelivery`: cumulative, in units compatible with `IU`.
    public static let insulinDelivery = Self(rawValue: "HKQuantityTypeIdentifierInsulinDelivery")
    /// `HKQuantityTypeIdentifierNumberOfAlcoholicBeverages`: cumulative, in units compatible with `count`.
    public static let numberOfAlcoholicBeverages = Self(rawValue: "HKQuantityTypeIdentifierNumberOfAlcoholicBeverages")
    /// `HKQuantityTypeIdentifierNumberOfTimesFallen`: cumulative, in units compatible with `count`.
    public static let numberOfTimesFallen = Self(rawValue: "HKQuantityTypeIdentifierNumberOfTimesFallen")
    /// `HKQuantityTypeIdentifierTimeInDaylight`: cumulative, in units compatible with `min`.
    public static let timeInDaylight = Self(rawValue: "HKQuantityTypeIdentifierTimeInDaylight")
    /// `HKQuantityTypeIdentifierUVExposure`: discreteArithmetic, in units compatible with `count`.
    public static let uvExposure = Self(rawValue: "HKQuantityTypeIdentifierUVExposure")
    /// `HKQuantityTypeIdentifierWaterTemperature`: discreteArithmetic, in units compatible with `degC`.
    public static let waterTemperature = Self(rawValue: "HKQuantityTypeIdentifierWaterTemperature")

    // MARK: Reproductive health

    /// `HKQuantityTypeIdentifierBasalBodyTemperature`: discreteArithmetic, in units compatible with `degC`.
    public static let basalBodyTemperature = Self(rawValue: "HKQuantityTypeIdentifierBasalBodyTemperature")

    // MARK: Respiratory

    /// `HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances`: discreteArithmetic, in units compatible with `count`.
    public static let appleSleepingBreathingDisturbances = Self(
        rawValue: "HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances"
    )
    /// `HKQuantityTypeIdentifierForcedExpiratoryVolume1`: discreteArithmetic, in units compatible with `L`.
    public static let forcedExpiratoryVolume1 = Self(rawValue: "HKQuantityTypeIdentifierForcedExpiratoryVolume1")
    /// `HKQuantityTypeIdentifierForcedVitalCapacity`: discreteArithmetic, in units compatible with `L`.
    public static let forcedVitalCapacity = Self(rawValue: "HKQuantityTypeIdentifierForcedVitalCapacity")
    /// `HKQuantityTypeIdentifierInhalerUsage`: cumulative, in units compatible with `count`.
    public static let inhalerUsage = Self(rawValue: "HKQuantityTypeIdentifierInhalerUsage")
    /// `HKQuantityTypeIdentifierOxygenSaturation`: discreteArithmetic, in units compatible with `%`.
    public static let oxygenSaturation = Self(rawValue: "HKQuantityTypeIdentifierOxygenSaturation")
    /// `HKQuantityTypeIdentifierPeakExpiratoryFlowRate`: discreteArithmetic, in units compatible with `L/min`.
    public static let peakExpiratoryFlowRate = Self(rawValue: "HKQuantityTypeIdentifierPeakExpiratoryFlowRate")
    /// `HKQuantityTypeIdentifierRespiratoryRate`: discreteArithmetic, in units compatible with `count/s`.
    public static let respiratoryRate = Self(rawValue: "HKQuantityTypeIdentifierRespiratoryRate")

    // MARK: Vital signs

    /// `HKQuantityTypeIdentifierBloodGlucose`: discreteArithmetic, in units compatible with `mg/dL`.
    public static let bloodGlucose = Self(rawValue: "HKQuantityTypeIdentifierBloodGlucose")
    /// `HKQuantityTypeIdentifierBodyTemperature`: discreteArithmetic, in units compatible with `degC`.
    public static let bodyTemperature = Self(rawValue: "HKQuantityTypeIdentifierBodyTemperature")
}
