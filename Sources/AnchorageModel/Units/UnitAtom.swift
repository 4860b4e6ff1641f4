import Foundation

/// One factor of a unit: a base unit with its prefix, molar mass (moles
/// only) and integer exponent.
package struct UnitAtom: Hashable, Sendable {
    package var base: BaseUnit
    package var prefix: HKMetricPrefix
    /// Grams per mole, for `mol<M>`; 0 otherwise.
    package var molarMass: Double
    package var exponent: Int

    package init(_ base: BaseUnit, prefix: HKMetricPrefix = .none, molarMass: Double = 0, exponent: Int = 1) {
        self.base = base
        self.prefix = prefix
        self.molarMass = base == .mole ? Self.canonicalMolarMass(molarMass) : 0
        self.exponent = exponent
    }

    /// The molar mass as its 16-digit string reads back, so that a unit
    /// and the unit parsed from its string are equal (UNIT-11, UNIT-15).
    package static func canonicalMolarMass(_ value: Double) -> Double {
        Double(formatMolarMass(value)) ?? value
    }

    /// Whether two atoms are the same unit apart from the exponent, so they
    /// merge (UNIT-13, UNIT-16: prefixes and molar masses must agree).
    package func sameUnit(as other: UnitAtom) -> Bool {
        base == other.base && prefix == other.prefix && molarMass == other.molarMass
    }

    /// The factor of one of this atom (exponent 1) to the SI base.
    package var unitFactor: Double {
        prefix.factor * (base == .mole ? molarMass : base.factor)
    }

    /// The atom as written, with its exponent (when it is not 1) but
    /// without sign handling; see ``HKUnit/unitString``.
    package func written(exponent: Int) -> String {
        var text = prefix.symbol
        if base == .mole {
            text += "mol<" + Self.formatMolarMass(molarMass) + ">"
        } else {
            text += base.symbol
        }
        if exponent != 1 { text += "^\(exponent)" }
        return text
    }

    /// A molar mass with 16 significant digits (UNIT-11).
    package static func formatMolarMass(_ value: Double) -> String {
        String(format: "%.16g", value)
    }

    /// The canonical order: by group (UNIT-15), then base, prefix and molar mass.
    package static func canonicalOrder(_ a: UnitAtom, _ b: UnitAtom) -> Bool {
        if a.base.canonicalRank != b.base.canonicalRank { return a.base.canonicalRank < b.base.canonicalRank }
        if a.base != b.base { return a.base.rawValue < b.base.rawValue }
        if a.prefix != b.prefix { return a.prefix.factor < b.prefix.factor }
        return a.molarMass < b.molarMass
    }
}
