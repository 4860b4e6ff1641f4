/// The physical dimension of a unit: exponents of the base quantities.
///
/// Mass is in grams, so a mole unit is mass (UNIT-10); volume is length³;
/// `count` and `%` are dimensionless (UNIT-17). Units that convert to
/// nothing but themselves (`IU`, `dBHL`, `appleEffortScore`) get a dimension
/// of their own.
package struct UnitDimension: Hashable, Sendable {
    package var mass: Int8 = 0
    package var length: Int8 = 0
    package var time: Int8 = 0
    package var temperature: Int8 = 0
    package var current: Int8 = 0
    package var angle: Int8 = 0
    package var internationalUnit: Int8 = 0
    package var hearingLevel: Int8 = 0
    package var effortScore: Int8 = 0
    package var luminousIntensity: Int8 = 0
    package var opticalPower: Int8 = 0
    package var prismaticDeviation: Int8 = 0

    package static let none = UnitDimension()

    package var isDimensionless: Bool { self == .none }

    /// The dimension raised to `power`.
    package func raised(to power: Int) -> UnitDimension {
        let p = Int8(clamping: power)
        return UnitDimension(
            mass: mass &* p,
            length: length &* p,
            time: time &* p,
            temperature: temperature &* p,
            current: current &* p,
            angle: angle &* p,
            internationalUnit: internationalUnit &* p,
            hearingLevel: hearingLevel &* p,
            effortScore: effortScore &* p,
            luminousIntensity: luminousIntensity &* p,
            opticalPower: opticalPower &* p,
            prismaticDeviation: prismaticDeviation &* p
        )
    }

    package static func + (lhs: UnitDimension, rhs: UnitDimension) -> UnitDimension {
        UnitDimension(
            mass: lhs.mass &+ rhs.mass,
            length: lhs.length &+ rhs.length,
            time: lhs.time &+ rhs.time,
            temperature: lhs.temperature &+ rhs.temperature,
            current: lhs.current &+ rhs.current,
            angle: lhs.angle &+ rhs.angle,
            internationalUnit: lhs.internationalUnit &+ rhs.internationalUnit,
            hearingLevel: lhs.hearingLevel &+ rhs.hearingLevel,
            effortScore: lhs.effortScore &+ rhs.effortScore,
            luminousIntensity: lhs.luminousIntensity &+ rhs.luminousIntensity,
            opticalPower: lhs.opticalPower &+ rhs.opticalPower,
            prismaticDeviation: lhs.prismaticDeviation &+ rhs.prismaticDeviation
        )
    }
}
