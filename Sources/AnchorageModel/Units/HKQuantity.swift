import Foundation

/// An amount in a unit: `72 count/min`, `5.5 mmol<180.16>/L`.
///
/// ```swift
/// let weight = HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 72.5)
/// let pounds = weight.doubleValue(for: .pound())          // 159.83…
/// let grams = try weight.checkedDoubleValue(for: .gram()) // the throwing twin
/// ```
///
/// Any unit is accepted; converting to an incompatible unit is a programmer
/// error in ``doubleValue(for:)`` (as in HealthKit) and a thrown error in
/// ``checkedDoubleValue(for:)`` (UNIT-18).
public struct HKQuantity: Sendable, Hashable, CustomStringConvertible {
    /// The unit the quantity was created with.
    public let unit: HKUnit
    /// The value in ``unit``.
    package let value: Double

    /// Creates a quantity of `value` in `unit`.
    public init(unit: HKUnit, doubleValue value: Double) {
        self.unit = unit
        self.value = value
    }

    /// Whether the quantity can be expressed in `unit`.
    public func `is`(compatibleWith unit: HKUnit) -> Bool {
        self.unit.isCompatible(with: unit)
    }

    /// The value expressed in `unit`; stops the program if the units are
    /// not compatible, as HealthKit does. Use ``checkedDoubleValue(for:)``
    /// for units that come from outside the program.
    public func doubleValue(for unit: HKUnit) -> Double {
        do {
            return try checkedDoubleValue(for: unit)
        } catch {
            programmerError(error)
        }
    }

    /// The value expressed in `unit`.
    ///
    /// - Throws: ``HKError`` (`UNIT-18`) when the units are not compatible.
    public func checkedDoubleValue(for unit: HKUnit) throws(HKError) -> Double {
        guard let converted = self.unit.convert(value, to: unit) else {
            throw .invalid("UNIT-18", "a quantity in \(self.unit.unitString) cannot be expressed in \(unit.unitString)")
        }
        return converted
    }

    /// Orders two quantities after converting `quantity` to this quantity's
    /// unit; stops the program if they are not compatible.
    public func compare(_ quantity: HKQuantity) -> ComparisonResult {
        do {
            return try checkedCompare(quantity)
        } catch {
            programmerError(error)
        }
    }

    /// Orders two quantities after unit conversion.
    ///
    /// - Throws: ``HKError`` (`UNIT-18`) when they are not compatible.
    public func checkedCompare(_ quantity: HKQuantity) throws(HKError) -> ComparisonResult {
        let other = try quantity.checkedDoubleValue(for: unit)
        if value < other { return .orderedAscending }
        if value > other { return .orderedDescending }
        return .orderedSame
    }

    /// The value and unit, as `72 count/min`. Quantities are health data:
    /// do not log them unless a debug switch allows it.
    public var description: String {
        "\(value) \(unit.unitString)"
    }
}
