public import Foundation

/// Category value enumerations that make predicates for samples of their
/// values, as HealthKit's Swift overlay declares them.
///
/// ```swift
/// let deep = HKCategoryValueSleepAnalysis.predicateForSamples(equalTo: [.asleepDeep, .asleepREM])
/// ```
public protocol HKCategoryValuePredicateProviding: Hashable, RawRepresentable where RawValue == Int {}

extension HKCategoryValuePredicateProviding {
    /// Category samples whose value compares with `value` by `operatorType`.
    public static func predicateForSamples(_ operatorType: ComparisonOperator, value: Self) -> NSPredicate {
        HKQueryPredicate(.categoryValueCompare(operator: operatorType, value: value.rawValue))
    }

    /// Category samples whose value is one of `values`.
    public static func predicateForSamples(equalTo values: Set<Self>) -> NSPredicate {
        HKQueryPredicate(.categoryValueIn(Set(values.map(\.rawValue))))
    }
}

extension HKCategoryValue: HKCategoryValuePredicateProviding {}
extension HKCategoryValueAppetiteChanges: HKCategoryValuePredicateProviding {}
extension HKCategoryValueAppleStandHour: HKCategoryValuePredicateProviding {}
extension HKCategoryValueAppleWalkingSteadinessEvent: HKCategoryValuePredicateProviding {}
extension HKCategoryValueCervicalMucusQuality: HKCategoryValuePredicateProviding {}
extension HKCategoryValueContraceptive: HKCategoryValuePredicateProviding {}
extension HKCategoryValueEnvironmentalAudioExposureEvent: HKCategoryValuePredicateProviding {}
extension HKCategoryValueHeadphoneAudioExposureEvent: HKCategoryValuePredicateProviding {}
extension HKCategoryValueLowCardioFitnessEvent: HKCategoryValuePredicateProviding {}
extension HKCategoryValueMenstrualFlow: HKCategoryValuePredicateProviding {}
extension HKCategoryValueOvulationTestResult: HKCategoryValuePredicateProviding {}
extension HKCategoryValuePregnancyTestResult: HKCategoryValuePredicateProviding {}
extension HKCategoryValuePresence: HKCategoryValuePredicateProviding {}
extension HKCategoryValueProgesteroneTestResult: HKCategoryValuePredicateProviding {}
extension HKCategoryValueSeverity: HKCategoryValuePredicateProviding {}
extension HKCategoryValueSleepAnalysis: HKCategoryValuePredicateProviding {}
extension HKCategoryValueVaginalBleeding: HKCategoryValuePredicateProviding {}
extension HKCategoryValueMenopausalState: HKCategoryValuePredicateProviding {}

extension HKCategoryValueSleepAnalysis {
    /// Every value that means asleep: unspecified, core, deep and REM.
    ///
    /// ```swift
    /// let asleep = HKCategoryValueSleepAnalysis.predicateForSamples(equalTo: .allAsleepValues)
    /// ```
    public static var allAsleepValues: Set<HKCategoryValueSleepAnalysis> {
        [.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM]
    }
}

/// How steady a person's walking is, from an `appleWalkingSteadiness`
/// percentage: OK from 40 %, low from 20 %, very low below.
///
/// ```swift
/// let level = try HKAppleWalkingSteadinessClassification(for: HKQuantity(unit: .percent(), doubleValue: 0.35))  // .low
/// ```
public enum HKAppleWalkingSteadinessClassification: Int, Sendable, Hashable, Codable, CaseIterable {
    case ok = 1
    case low = 2
    case veryLow = 3

    /// The classification of a walking steadiness percentage.
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` for a quantity that is
    ///   not a percentage between 0 and 100 %.
    public init(for appleWalkingSteadiness: HKQuantity) throws {
        guard appleWalkingSteadiness.is(compatibleWith: .percent()) else {
            throw HKError(.errorInvalidArgument, rule: "UNIT-18", "walking steadiness is a percentage")
        }
        let value = appleWalkingSteadiness.doubleValue(for: .percent())
        guard value >= 0, value <= 1 else {
            throw HKError(.errorInvalidArgument, "walking steadiness is between 0 and 100 %")
        }
        self = value >= 0.4 ? .ok : value >= 0.2 ? .low : .veryLow
    }

    /// The least percentage of the classification.
    public var minimum: HKQuantity {
        HKQuantity(unit: .percent(), doubleValue: self == .ok ? 0.4 : self == .low ? 0.2 : 0)
    }

    /// The greatest percentage of the classification.
    public var maximum: HKQuantity {
        HKQuantity(unit: .percent(), doubleValue: self == .ok ? 1 : self == .low ? 0.4 : 0.2)
    }
}

/// Whether breathing disturbances during sleep are elevated, from an
/// `appleSleepingBreathingDisturbances` count. Apple does not publish its
/// threshold; Anchorage classifies 5 or more as elevated.
public enum HKAppleSleepingBreathingDisturbancesClassification: Int, Sendable, Hashable, Codable, CaseIterable {
    case notElevated = 0
    case elevated = 1

    /// The classification of a breathing disturbances count; `nil` for a
    /// quantity that is not a non-negative count.
    public init?(classifying appleSleepingBreathingDisturbances: HKQuantity) {
        guard appleSleepingBreathingDisturbances.is(compatibleWith: .count()) else { return nil }
        let value = appleSleepingBreathingDisturbances.doubleValue(for: .count())
        guard value >= 0, value.isFinite else { return nil }
        self = value >= 5 ? .elevated : .notElevated
    }

    /// The least count of the classification.
    public var minimum: HKQuantity {
        HKQuantity(unit: .count(), doubleValue: self == .elevated ? 5 : 0)
    }
}
