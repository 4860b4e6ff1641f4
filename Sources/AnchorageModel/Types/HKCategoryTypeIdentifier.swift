/// The identifier of a category type (`HKCategoryTypeIdentifierSleepAnalysis`…).
public struct HKCategoryTypeIdentifier: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a raw identifier string; use the static members for HealthKit's.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    // MARK: Fitness

    /// `HKCategoryTypeIdentifierAppleStandHour`.
    public static let appleStandHour = Self(rawValue: "HKCategoryTypeIdentifierAppleStandHour")

    // MARK: Hearing

    /// Noise notifications. HealthKit kept the string of the name it
    /// replaced: the raw value is `HKCategoryTypeIdentifierAudioExposureEvent`,
    /// as the Health app's export writes it.
    public static let environmentalAudioExposureEvent = Self(
        rawValue: "HKCategoryTypeIdentifierAudioExposureEvent"
    )
    /// `HKCategoryTypeIdentifierHeadphoneAudioExposureEvent`.
    public static let headphoneAudioExposureEvent = Self(
        rawValue: "HKCategoryTypeIdentifierHeadphoneAudioExposureEvent"
    )

    // MARK: Heart

    /// `HKCategoryTypeIdentifierHighHeartRateEvent`.
    public static let highHeartRateEvent = Self(rawValue: "HKCategoryTypeIdentifierHighHeartRateEvent")
    /// `HKCategoryTypeIdentifierIrregularHeartRhythmEvent`.
    public static let irregularHeartRhythmEvent = Self(rawValue: "HKCategoryTypeIdentifierIrregularHeartRhythmEvent")
    /// `HKCategoryTypeIdentifierLowCardioFitnessEvent`.
    public static let lowCardioFitnessEvent = Self(rawValue: "HKCategoryTypeIdentifierLowCardioFitnessEvent")
    /// `HKCategoryTypeIdentifierLowHeartRateEvent`.
    public static let lowHeartRateEvent = Self(rawValue: "HKCategoryTypeIdentifierLowHeartRateEvent")

    // MARK: Mindfulness

    /// `HKCategoryTypeIdentifierMindfulSession`.
    public static let mindfulSession = Self(rawValue: "HKCategoryTypeIdentifierMindfulSession")

    // MARK: Mobility

    /// `HKCategoryTypeIdentifierAppleWalkingSteadinessEvent`.
    public static let appleWalkingSteadinessEvent = Self(
        rawValue: "HKCategoryTypeIdentifierAppleWalkingSteadinessEvent"
    )

    // MARK: Other

    /// `HKCategoryTypeIdentifierHandwashingEvent`.
    public static let handwashingEvent = Self(rawValue: "HKCategoryTypeIdentifierHandwashingEvent")
    /// `HKCategoryTypeIdentifierToothbrushingEvent`.
    public static let toothbrushingEvent = Self(rawValue: "HKCategoryTypeIdentifierToothbrushingEvent")

    // MARK: Reproductive health

    /// `HKCategoryTypeIdentifierBleedingAfterPregnancy`.
    public static let bleedingAfterPregnancy = Self(rawValue: "HKCategoryTypeIdentifierBleedingAfterPregnancy")
    /// `HKCategoryTypeIdentifierBleedingDuringPregnancy`.
    public static let bleedingDuringPregnancy = Self(rawValue: "HKCategoryTypeIdentifierBleedingDuringPregnancy")
    /// `HKCategoryTypeIdentifierCervicalMucusQuality`.
    public static let cervicalMucusQuality = Self(rawValue: "HKCategoryTypeIdentifierCervicalMucusQuality")
    /// `HKCategoryTypeIdentifierContraceptive`.
    public static let contraceptive = Self(rawValue: "HKCategoryTypeIdentifierContraceptive")
    /// `HKCategoryTypeIdentifierInfrequentMenstrualCycles`.
    public static let infrequentMenstrualCycles = Self(rawValue: "HKCategoryTypeIdentifierInfrequentMenstrualCycles")
    /// `HKCategoryTypeIdentifierIntermenstrualBleeding`.
    public static let intermenstrualBleeding = Self(rawValue: "HKCategoryTypeIdentifierIntermenstrualBleeding")
    /// `HKCategoryTypeIdentifierIrregularMenstrualCycles`.
    public static let irregularMenstrualCycles = Self(rawValue: "HKCategoryTypeIdentifierIrregularMenstrualCycles")
    /// `HKCategoryTypeIdentifierLactation`.
    public static let lactation = Self(rawValue: "HKCategoryTypeIdentifierLactation")
    /// `HKCategoryTypeIdentifierMenstrualFlow`.
    public static let menstrualFlow = Self(rawValue: "HKCategoryTypeIdentifierMenstrualFlow")
    /// `HKCategoryTypeIdentifierOvulationTestResult`.
    public static let ovulationTestResult = Self(rawValue: "HKCategoryTypeIdentifierOvulationTestResult")
    /// `HKCategoryTypeIdentifierPersistentIntermenstrualBleeding`.
    public static let persistentIntermenstrualBleeding = Self(
        rawValue: "HKCategoryTypeIdentifierPersistentIntermenstrualBleeding"
    )
    /// `HKCategoryTypeIdentifierPregnancy`.
    public static let pregnancy = Self(rawValue: "HKCategoryTypeIdentifierPregnancy")
    /// `HKCategoryTypeIdentifierPregnancyTestResult`.
    public static let pregnancyTestResult = Self(rawValue: "HKCategoryTypeIdentifierPregnancyTestResult")
    /// `HKCategoryTypeIdentifierProgesteroneTestResult`.
    public static let progesteroneTestResult = Self(rawValue: "HKCategoryTypeIdentifierProgesteroneTestResult")
    /// `HKCategoryTypeIdentifierProlongedMenstrualPeriods`.
    public static let prolongedMenstrualPeriods = Self(rawValue: "HKCategoryTypeIdentifierProlongedMenstrualPeriods")
    /// `HKCategoryTypeIdentifierSexualActivity`.
    public static let sexualActivity = Self(rawValue: "HKCategoryTypeIdentifierSexualActivity")

    // MARK: Respiratory

    /// `HKCategoryTypeIdentifierSleepApneaEvent`.
    public static let sleepApneaEvent = Self(rawValue: "HKCategoryTypeIdentifierSleepApneaEvent")

    // MARK: Sleep

    /// `HKCategoryTypeIdentifierSleepAnalysis`.
    public static let sleepAnalysis = Self(rawValue: "HKCategoryTypeIdentifierSleepAnalysis")

    // MARK: Symptoms

    /// `HKCategoryTypeIdentifierAbdominalCramps`.
    public static let abdominalCramps = Self(rawValue: "HKCategoryTypeIdentifierAbdominalCramps")
    /// `HKCategoryTypeIdentifierAcne`.
    public static let acne = Self(rawValue: "HKCategoryTypeIdentifierAcne")
    /// `HKCategoryTypeIdentifierAppetiteChanges`.
    public static let appetiteChanges = Self(rawValue: "HKCategoryTypeIdentifierAppetiteChanges")
    /// `HKCategoryTypeIdentifierBladderIncontinence`.
    public static let bladderIncontinence = Self(rawValue: "HKCategoryTypeIdentifierBladderIncontinence")
    /// `HKCategoryTypeIdentifierBloating`.
    public static let bloating = Self(rawValue: "HKCategoryTypeIdentifierBloating")
    /// `HKCategoryTypeIdentifierBreastPain`.
    public static let breastPain = Self(rawValue: "HKCategoryTypeIdentifierBreastPain")
    /// `HKCategoryTypeIdentifierChestTightnessOrPain`.
    public static let chestTightnessOrPain = Self(rawValue: "HKCategoryTypeIdentifierChestTightnessOrPain")
    /// `HKCategoryTypeIdentifierChills`.
    public static let chills = Self(rawValue: "HKCategoryTypeIdentifierChills")
    /// `HKCategoryTypeIdentifierConstipation`.
    public static let constipation = Self(rawValue: "HKCategoryTypeIdentifierConstipation")
    /// `HKCategoryTypeIdentifierCoughing`.
    public static let coughing = Self(rawValue: "HKCategoryTypeIdentifierCoughing")
    /// `HKCategoryTypeIdentifierDiarrhea`.
    public static let diarrhea = Self(rawValue: "HKCategoryTypeIdentifierDiarrhea")
    /// `HKCategoryTypeIdentifierDizziness`.
    public static let dizziness = Self(rawValue: "HKCategoryTypeIdentifierDizziness")
    /// `HKCategoryTypeIdentifierDrySkin`.
    public static let drySkin = Self(rawValue: "HKCategoryTypeIdentifierDrySkin")
    /// `HKCategoryTypeIdentifierFainting`.
    public static let fainting = Self(rawValue: "HKCategoryTypeIdentifierFainting")
    /// `HKCategoryTypeIdentifierFatigue`.
    public static let fatigue = Self(rawValue: "HKCategoryTypeIdentifierFatigue")
    /// `HKCategoryTypeIdentifierFever`.
    public static let fever = Self(rawValue: "HKCategoryTypeIdentifierFever")
    /// `HKCategoryTypeIdentifierGeneralizedBodyAche`.
    public static let generalizedBodyAche = Self(rawValue: "HKCategoryTypeIdentifierGeneralizedBodyAche")
    /// `HKCategoryTypeIdentifierHairLoss`.
    public static let hairLoss = Self(rawValue: "HKCategoryTypeIdentifierHairLoss")
    /// `HKCategoryTypeIdentifierHeadache`.
    public static let headache = Self(rawValue: "HKCategoryTypeIdentifierHeadache")
    /// `HKCategoryTypeIdentifierHeartburn`.
    public static let heartburn = Self(rawValue: "HKCategoryTypeIdentifierHeartburn")
    /// `HKCategoryTypeIdentifierHotFlashes`.
    public static let hotFlashes = Self(rawValue: "HKCategoryTypeIdentifierHotFlashes")
    /// `HKCategoryTypeIdentifierLossOfSmell`.
    public static let lossOfSmell = Self(rawValue: "HKCategoryTypeIdentifierLossOfSmell")
    /// `HKCategoryTypeIdentifierLossOfTaste`.
    public static let lossOfTaste = Self(rawValue: "HKCategoryTypeIdentifierLossOfTaste")
    /// `HKCategoryTypeIdentifierLowerBackPain`.
    public static let lowerBackPain = Self(rawValue: "HKCategoryTypeIdentifierLowerBackPain")
    /// `HKCategoryTypeIdentifierMemoryLapse`.
    public static let memoryLapse = Self(rawValue: "HKCategoryTypeIdentifierMemoryLapse")
    /// `HKCategoryTypeIdentifierMoodChanges`.
    public static let moodChanges = Self(rawValue: "HKCategoryTypeIdentifierMoodChanges")
    /// `HKCategoryTypeIdentifierNausea`.
    public static let nausea = Self(rawValue: "HKCategoryTypeIdentifierNausea")
    /// `HKCategoryTypeIdentifierNightSweats`.
    public static let nightSweats = Self(rawValue: "HKCategoryTypeIdentifierNightSweats")
    /// `HKCategoryTypeIdentifierPelvicPain`.
    public static let pelvicPain = Self(rawValue: "HKCategoryTypeIdentifierPelvicPain")
    /// `HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat`.
    public static let rapidPoundingOrFlutteringHeartbeat = Self(
        rawValue: "HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat"
    )
    /// `HKCategoryTypeIdentifierRunnyNose`.
    public static let runnyNose = Self(rawValue: "HKCategoryTypeIdentifierRunnyNose")
    /// `HKCategoryTypeIdentifierShortnessOfBreath`.
    public static let shortnessOfBreath = Self(rawValue: "HKCategoryTypeIdentifierShortnessOfBreath")
    /// `HKCategoryTypeIdentifierSinusCongestion`.
    public static let sinusCongestion = Self(rawValue: "HKCategoryTypeIdentifierSinusCongestion")
    /// `HKCategoryTypeIdentifierSkippedHeartbeat`.
    public static let skippedHeartbeat = Self(rawValue: "HKCategoryTypeIdentifierSkippedHeartbeat")
    /// `HKCategoryTypeIdentifierSleepChanges`.
    public static let sleepChanges = Self(rawValue: "HKCategoryTypeIdentifierSleepChanges")
    /// `HKCategoryTypeIdentifierSoreThroat`.
    public static let soreThroat = Self(rawValue: "HKCategoryTypeIdentifierSoreThroat")
    /// `HKCategoryTypeIdentifierVaginalDryness`.
    public static let vaginalDryness = Self(rawValue: "HKCategoryTypeIdentifierVaginalDryness")
    /// `HKCategoryTypeIdentifierVomiting`.
    public static let vomiting = Self(rawValue: "HKCategoryTypeIdentifierVomiting")
    /// `HKCategoryTypeIdentifierWheezing`.
    public static let wheezing = Self(rawValue: "HKCategoryTypeIdentifierWheezing")

    // MARK: Newer types

    /// `HKCategoryTypeIdentifierHypertensionEvent`: hypertension notifications.
    public static let hypertensionEvent = Self(rawValue: "HKCategoryTypeIdentifierHypertensionEvent")
    /// `HKCategoryTypeIdentifierBleedingAfterMenopause`.
    public static let bleedingAfterMenopause = Self(rawValue: "HKCategoryTypeIdentifierBleedingAfterMenopause")
    /// `HKCategoryTypeIdentifierMenopausalState`: point-in-time menopausal states.
    public static let menopausalState = Self(rawValue: "HKCategoryTypeIdentifierMenopausalState")

    // MARK: Deprecated

    /// `HKCategoryTypeIdentifierAudioExposureEvent`.
    @available(*, deprecated, renamed: "environmentalAudioExposureEvent")
    public static let audioExposureEvent = Self(rawValue: "HKCategoryTypeIdentifierAudioExposureEvent")
}
