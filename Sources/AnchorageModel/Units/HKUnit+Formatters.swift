public import Foundation

/// Foundation's formatter units and HealthKit's, both ways, as HealthKit
/// converts them: a unit the formatter cannot show stops the program
/// (HealthKit raises an exception).
///
/// ```swift
/// let kg = HKUnit(from: MassFormatter.Unit.kilogram)        // kg
/// let unit = HKUnit.massFormatterUnit(from: .pound())       // .pound
/// ```
extension HKUnit {
    /// The unit a mass formatter unit names.
    public init(from massFormatterUnit: MassFormatter.Unit) {
        switch massFormatterUnit {
        case .gram: self = .gram()
        case .kilogram: self = .gramUnit(with: .kilo)
        case .ounce: self = .ounce()
        case .pound: self = .pound()
        case .stone: self = .stone()
        @unknown default:
            programmerError(
                .invalid("UNIT-4", "mass formatter unit \(massFormatterUnit.rawValue) has no HealthKit unit")
            )
        }
    }

    /// The mass formatter unit for a mass unit.
    public static func massFormatterUnit(from unit: HKUnit) -> MassFormatter.Unit {
        switch unit.unitString {
        case "g": .gram
        case "kg": .kilogram
        case "oz": .ounce
        case "lb": .pound
        case "st": .stone
        default: programmerError(.invalid("UNIT-4", "\(unit.unitString) is not a unit a mass formatter shows"))
        }
    }

    /// The unit a length formatter unit names.
    public init(from lengthFormatterUnit: LengthFormatter.Unit) {
        switch lengthFormatterUnit {
        case .millimeter: self = .meterUnit(with: .milli)
        case .centimeter: self = .meterUnit(with: .centi)
        case .meter: self = .meter()
        case .kilometer: self = .meterUnit(with: .kilo)
        case .inch: self = .inch()
        case .foot: self = .foot()
        case .yard: self = .yard()
        case .mile: self = .mile()
        @unknown default:
            programmerError(
                .invalid("UNIT-4", "length formatter unit \(lengthFormatterUnit.rawValue) has no HealthKit unit")
            )
        }
    }

    /// The length formatter unit for a length unit.
    public static func lengthFormatterUnit(from unit: HKUnit) -> LengthFormatter.Unit {
        switch unit.unitString {
        case "mm": .millimeter
        case "cm": .centimeter
        case "m": .meter
        case "km": .kilometer
        case "in": .inch
        case "ft": .foot
        case "yd": .yard
        case "mi": .mile
        default: programmerError(.invalid("UNIT-4", "\(unit.unitString) is not a unit a length formatter shows"))
        }
    }

    /// The unit an energy formatter unit names; the formatter's calorie is
    /// the small calorie (`cal`), its kilocalorie `kcal`.
    public init(from energyFormatterUnit: EnergyFormatter.Unit) {
        switch energyFormatterUnit {
        case .joule: self = .joule()
        case .kilojoule: self = .jouleUnit(with: .kilo)
        case .calorie: self = .smallCalorie()
        case .kilocalorie: self = .kilocalorie()
        @unknown default:
            programmerError(
                .invalid("UNIT-4", "energy formatter unit \(energyFormatterUnit.rawValue) has no HealthKit unit")
            )
        }
    }

    /// The energy formatter unit for an energy unit (`Cal`, the food
    /// calorie, is the formatter's kilocalorie).
    public static func energyFormatterUnit(from unit: HKUnit) -> EnergyFormatter.Unit {
        switch unit.unitString {
        case "J": .joule
        case "kJ": .kilojoule
        case "cal": .calorie
        case "kcal", "Cal": .kilocalorie
        default: programmerError(.invalid("UNIT-4", "\(unit.unitString) is not a unit an energy formatter shows"))
        }
    }
}
