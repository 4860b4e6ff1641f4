// Category values (OBJ-13), with HealthKit's names and raw values.

/// The value of category types that have no specific values.
public enum HKCategoryValue: Int, Sendable, Hashable, Codable, CaseIterable {
    case notApplicable = 0
}

/// Values of `appetiteChanges`.
public enum HKCategoryValueAppetiteChanges: Int, Sendable, Hashable, Codable, CaseIterable {
    case unspecified = 0
    case noChange = 1
    case decreased = 2
    case increased = 3
}

/// Values of `appleStandHour`.
public enum HKCategoryValueAppleStandHour: Int, Sendable, Hashable, Codable, CaseIterable {
    case stood = 0
    case idle = 1
}

/// Values of `appleWalkingSteadinessEvent`.
public enum HKCategoryValueAppleWalkingSteadinessEvent: Int, Sendable, Hashable, Codable, CaseIterable {
    case initialLow = 1
    case initialVeryLow = 2
    case repeatLow = 3
    case repeatVeryLow = 4
}

/// Values of `cervicalMucusQuality`, from least to most fertile.
public enum HKCategoryValueCervicalMucusQuality: Int, Sendable, Hashable, Codable, CaseIterable {
    case dry = 1
    case sticky = 2
    case creamy = 3
    case watery = 4
    case eggWhite = 5
}

/// Values of `contraceptive`.
public enum HKCategoryValueContraceptive: Int, Sendable, Hashable, Codable, CaseIterable {
    case unspecified = 1
    case implant = 2
    case injection = 3
    case intrauterineDevice = 4
    case intravaginalRing = 5
    case oral = 6
    case patch = 7
}

/// Values of `environmentalAudioExposureEvent`.
public enum HKCategoryValueEnvironmentalAudioExposureEvent: Int, Sendable, Hashable, Codable, CaseIterable {
    case momentaryLimit = 1
}

/// Values of `headphoneAudioExposureEvent`.
public enum HKCategoryValueHeadphoneAudioExposureEvent: Int, Sendable, Hashable, Codable, CaseIterable {
    case sevenDayLimit = 1
}

/// Values of `lowCardioFitnessEvent`.
public enum HKCategoryValueLowCardioFitnessEvent: Int, Sendable, Hashable, Codable, CaseIterable {
    case lowFitness = 1
}

/// Values of `menstrualFlow` before iOS 18; see ``HKCategoryValueVaginalBleeding``.
public enum HKCategoryValueMenstrualFlow: Int, Sendable, Hashable, Codable, CaseIterable {
    case unspecified = 1
    case light = 2
    case medium = 3
    case heavy = 4
    case none = 5
}

/// Values of `ovulationTestResult`.
public enum HKCategoryValueOvulationTestResult: Int, Sendable, Hashable, Codable, CaseIterable {
    case negative = 1
    case luteinizingHormoneSurge = 2
    case indeterminate = 3
    case estrogenSurge = 4

    /// The name before iOS 13.
    @available(*, deprecated, renamed: "luteinizingHormoneSurge")
    public static let positive = HKCategoryValueOvulationTestResult.luteinizingHormoneSurge
}

/// Values of `pregnancyTestResult`.
public enum HKCategoryValuePregnancyTestResult: Int, Sendable, Hashable, Codable, CaseIterable {
    case negative = 1
    case positive = 2
    case indeterminate = 3
}

/// Values of `moodChanges` and `sleepChanges`.
public enum HKCategoryValuePresence: Int, Sendable, Hashable, Codable, CaseIterable {
    case present = 0
    case notPresent = 1
}

/// Values of `progesteroneTestResult`.
public enum HKCategoryValueProgesteroneTestResult: Int, Sendable, Hashable, Codable, CaseIterable {
    case negative = 1
    case positive = 2
    case indeterminate = 3
}

/// Values of symptom types (`headache`, `fatigue`…).
public enum HKCategoryValueSeverity: Int, Sendable, Hashable, Codable, CaseIterable {
    case unspecified = 0
    case notPresent = 1
    case mild = 2
    case moderate = 3
    case severe = 4
}

/// Values of `sleepAnalysis`. Sleep is recorded as overlapping samples: an
/// in-bed interval with asleep and awake intervals inside it (OBJ-14).
public enum HKCategoryValueSleepAnalysis: Int, Sendable, Hashable, Codable, CaseIterable {
    case inBed = 0
    case asleepUnspecified = 1
    case awake = 2
    case asleepCore = 3
    case asleepDeep = 4
    case asleepREM = 5

    /// The name before iOS 16.
    @available(*, deprecated, renamed: "asleepUnspecified")
    public static let asleep = HKCategoryValueSleepAnalysis.asleepUnspecified
}

/// Values of `menstrualFlow` and the bleeding types.
public enum HKCategoryValueVaginalBleeding: Int, Sendable, Hashable, Codable, CaseIterable {
    case unspecified = 1
    case light = 2
    case medium = 3
    case heavy = 4
    case none = 5
}

/// Values of `menopausalState`. Apple's documentation gives the cases, not
/// their numbers; these follow HealthKit's numbering of its other
/// value sets from 1.
public enum HKCategoryValueMenopausalState: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Neither menopause nor perimenopause applies at the sample's date.
    case none = 1
    /// Perimenopause applies at the sample's date.
    case perimenopause = 2
    /// Menopause applies at the sample's date.
    case menopause = 3
}

/// Values of the deprecated `audioExposureEvent`.
public enum HKCategoryValueAudioExposureEvent: Int, Sendable, Hashable, Codable, CaseIterable {
    case loudEnvironment = 1
}

/// The legal values of a category type (OBJ-13).
package enum CategoryValueSet: Sendable {
    case notApplicable, appleStandHour, environmentalAudioExposureEvent, headphoneAudioExposureEvent
    case lowCardioFitnessEvent, appleWalkingSteadinessEvent, vaginalBleeding, cervicalMucusQuality, contraceptive
    case ovulationTestResult, pregnancyTestResult, progesteroneTestResult, sleepAnalysis, severity, appetiteChanges
    case presence, audioExposureEvent, menopausalState

    /// The values a sample of such a type may hold.
    package var legalValues: ClosedRange<Int> {
        switch self {
        case .notApplicable: 0...0
        case .appleStandHour, .presence: 0...1
        case .environmentalAudioExposureEvent, .headphoneAudioExposureEvent, .lowCardioFitnessEvent,
            .audioExposureEvent:
            1...1
        case .appleWalkingSteadinessEvent, .ovulationTestResult: 1...4
        case .vaginalBleeding, .cervicalMucusQuality: 1...5
        case .contraceptive: 1...7
        case .pregnancyTestResult, .progesteroneTestResult, .menopausalState: 1...3
        case .sleepAnalysis: 0...5
        case .severity: 0...4
        case .appetiteChanges: 0...3
        }
    }
}

/// How quantities of a type aggregate over time (OBJ-11).
public enum HKQuantityAggregationStyle: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Samples add up over an interval: steps, distance, energy, nutrients.
    case cumulative = 0
    /// Samples are averaged with the arithmetic mean: body mass, blood glucose.
    case discreteArithmetic = 1
    /// Samples are averaged weighted by time: heart rate.
    case discreteTemporallyWeighted = 2
    /// Samples are averaged as sound energy: audio exposure.
    case discreteEquivalentContinuousLevel = 3

    /// The name before iOS 13.
    @available(*, deprecated, renamed: "discreteArithmetic")
    public static let discrete = HKQuantityAggregationStyle.discreteArithmetic
}
