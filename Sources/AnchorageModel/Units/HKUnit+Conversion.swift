import Foundation

extension HKUnit {
    /// How values of a unit convert, beyond a plain factor.
    package enum ConversionKind {
        /// value × scale is the SI value.
        case linear
        /// A bare temperature: K = value × scale + offset (UNIT-7).
        case temperature(offset: Double)
        /// A bare `dBASPL`: Pa = 2e-5 × 10^(dB/20) (UNIT-9).
        case soundPressureLevel
        /// A compound containing `dBASPL`: converts only to itself (UNIT-9).
        case soundPressureCompound
    }

    package var conversionKind: ConversionKind {
        if atoms.count == 1, atoms[0].exponent == 1 {
            let atom = atoms[0]
            if atom.base.isTemperature { return .temperature(offset: atom.base.kelvinOffset) }
            if atom.base == .decibelAWeightedSoundPressureLevel { return .soundPressureLevel }
            return .linear
        }
        if atoms.contains(where: { $0.base == .decibelAWeightedSoundPressureLevel }) { return .soundPressureCompound }
        return .linear
    }

    /// Whether the unit is a single pressure atom with exponent 1 (`Pa`, `kPa`, `mmHg`…).
    package var isBarePressure: Bool {
        atoms.count == 1 && atoms[0].exponent == 1 && atoms[0].base.dimension == BaseUnit.pascal.dimension
            && atoms[0].base != .decibelAWeightedSoundPressureLevel
    }

    /// Whether values of this unit convert to `other` (UNIT-14, UNIT-17).
    ///
    /// ```swift
    /// HKUnit(from: "mg/dL").isCompatible(with: HKUnit(from: "mmol<180.16>/L"))   // true
    /// ```
    public func isCompatible(with other: HKUnit) -> Bool {
        if self == other { return true }
        switch (conversionKind, other.conversionKind) {
        case (.soundPressureCompound, _), (_, .soundPressureCompound):
            return false
        case (.soundPressureLevel, _):
            return other.isBarePressure
        case (_, .soundPressureLevel):
            return isBarePressure
        default:
            break
        }
        guard dimension == other.dimension else { return false }
        // A null unit converts only to null units and to count (UNIT-14).
        let selfNull = isNull()
        let otherNull = other.isNull()
        if selfNull != otherNull {
            let nonNull = selfNull ? other : self
            return nonNull.atoms.count == 1 && nonNull.atoms[0].base == .count && nonNull.atoms[0].exponent == 1
        }
        return true
    }

    /// Converts `value` from this unit to `target`, or returns `nil` when the
    /// units are not compatible.
    package func convert(_ value: Double, to target: HKUnit) -> Double? {
        if self == target { return value }
        guard isCompatible(with: target) else { return nil }
        switch (conversionKind, target.conversionKind) {
        case (.temperature(let fromOffset), .temperature(let toOffset)):
            let kelvin = value * scale + fromOffset
            return (kelvin - toOffset) / target.scale
        case (.soundPressureLevel, _):
            let pascals = 2.0e-5 * Foundation.pow(10, value / 20)
            return pascals * 1e3 / target.scale
        case (_, .soundPressureLevel):
            let pascals = value * scale / 1e3
            return 20 * Foundation.log10(pascals / 2.0e-5)
        default:
            return value * (scale / target.scale)
        }
    }
}
