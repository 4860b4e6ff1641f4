import Foundation
import Synchronization

/// A unit of measure: an atom such as `kg` or `mmHg`, or a product of atoms
/// with integer exponents such as `count/min` or `mL/min·kg`.
///
/// Units come from constructors or from unit strings:
///
/// ```swift
/// let bpm = HKUnit.count().unitDivided(by: .minute())
/// let glucose = HKUnit(from: "mg/dL")
/// let vo2 = try HKUnit.parse("ml/(kg*min)")      // throws on bad input
/// print(vo2.unitString)                           // "mL/min·kg"
/// ```
///
/// Two units are equal when they are made of the same atoms (UNIT-16):
/// `kg` and `g` are different, compatible units.
public struct HKUnit: Sendable, CustomStringConvertible {
    /// The unit's parts, shared by copies so a copy costs one reference.
    package final class Storage: Sendable {
        package let atoms: [UnitAtom]
        package let dimension: UnitDimension
        package let scale: Double
        package let unitString: String
        /// The UTF-8 bytes of `unitString`, for payloads.
        package let utf8: [UInt8]

        package init(atoms: [UnitAtom], dimension: UnitDimension, scale: Double, unitString: String) {
            self.atoms = atoms
            self.dimension = dimension
            self.scale = scale
            self.unitString = unitString
            self.utf8 = Array(unitString.utf8)
        }
    }

    package let storage: Storage

    /// The atoms in canonical order, merged, with non-zero exponents.
    package var atoms: [UnitAtom] { storage.atoms }
    /// The dimension, for compatibility checks (UNIT-17).
    package var dimension: UnitDimension { storage.dimension }
    /// The factor to the SI base, temperatures taken as intervals.
    package var scale: Double { storage.scale }
    /// The canonical unit string (UNIT-15).
    public var unitString: String { storage.unitString }

    /// Builds a unit from atoms, merging equal atoms and dropping zero
    /// exponents.
    package init(atoms raw: [UnitAtom]) {
        var merged: [UnitAtom] = []
        for atom in raw {
            if let index = merged.firstIndex(where: { $0.sameUnit(as: atom) }) {
                merged[index].exponent += atom.exponent
            } else {
                merged.append(atom)
            }
        }
        let atoms = merged.filter { $0.exponent != 0 }.sorted(by: UnitAtom.canonicalOrder)
        var dimension = UnitDimension.none
        var scale = 1.0
        for atom in atoms {
            dimension = dimension + atom.base.dimension.raised(to: atom.exponent)
            scale *= Self.power(atom.unitFactor, atom.exponent)
        }
        self.storage = Storage(atoms: atoms, dimension: dimension, scale: scale, unitString: Self.render(atoms))
    }

    /// The unit of the single atom `base`, built once per base and prefix:
    /// `HKUnit.count()` and friends are called for every sample.
    package init(_ base: BaseUnit, prefix: HKMetricPrefix = .none) {
        let key = Int(base.rawValue) << 8 | (prefix.rawValue & 0xFF)
        if let known = Self.singleAtomUnits.withLock({ $0[key] }) {
            self = known
            return
        }
        self.init(atoms: [UnitAtom(base, prefix: prefix)])
        let built = self
        Self.singleAtomUnits.withLock { $0[key] = built }
    }

    /// Single-atom units built so far (at most bases × prefixes).
    private static let singleAtomUnits = Mutex<[Int: HKUnit]>([:])

    public var description: String { unitString }

    /// Whether the unit's atoms cancel out dimensionally and none of them is
    /// `count` or `%`, as in `L/L` or `dL/L` (UNIT-14). `count` is not null.
    public func isNull() -> Bool {
        dimension.isDimensionless && !atoms.contains { $0.base == .count || $0.base == .percent }
    }

    /// `x` raised to an integer power, exactly for small exponents.
    package static func power(_ x: Double, _ exponent: Int) -> Double {
        switch exponent {
        case 1: x
        case -1: 1 / x
        case 0: 1
        default: exponent > 0 ? Foundation.pow(x, Double(exponent)) : 1 / Foundation.pow(x, Double(-exponent))
        }
    }

    /// The canonical string: numerator atoms, then `/` and the denominator
    /// atoms, joined with `·`. A unit with no numerator is written with
    /// negative exponents; a unit with no atoms as `count/count`.
    package static func render(_ atoms: [UnitAtom]) -> String {
        guard !atoms.isEmpty else { return "count/count" }
        let numerator = atoms.filter { $0.exponent > 0 }
        let denominator = atoms.filter { $0.exponent < 0 }
        if numerator.isEmpty {
            return denominator.map { $0.written(exponent: $0.exponent) }.joined(separator: "·")
        }
        var text = numerator.map { $0.written(exponent: $0.exponent) }.joined(separator: "·")
        if !denominator.isEmpty {
            text += "/" + denominator.map { $0.written(exponent: -$0.exponent) }.joined(separator: "·")
        }
        return text
    }

    /// The largest exponent an atom may have.
    package static let maximumExponent = 32
}

extension HKUnit: Hashable {
    public static func == (lhs: HKUnit, rhs: HKUnit) -> Bool {
        lhs.storage === rhs.storage || lhs.atoms == rhs.atoms
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(atoms)
    }
}

/// The molar mass of glucose, for blood-glucose units (UNIT-6).
///
/// ```swift
/// let mmolPerL = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())
/// ```
public let HKUnitMolarMassBloodGlucose: Double = 180.15588000005408
