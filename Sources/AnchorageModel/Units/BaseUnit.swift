import Foundation

/// The atoms unit strings are made of (spec §2.2 and §2.4): their symbol,
/// dimension, factor to the SI base (grams, metres, seconds, kelvin,
/// amperes) and whether metric prefixes apply.
package enum BaseUnit: UInt8, Sendable, Hashable, CaseIterable {
    // SI, prefixable.
    case gram, meter, liter, pascal, second, joule, kelvin, siemens, hertz, volt, watt, radian, mole
    // Scalars.
    case count, percent
    // Mass.
    case ounce, pound, stone
    // Length.
    case inch, foot, yard, mile
    // Volume.
    case fluidOunceUS, fluidOunceImperial, pintUS, pintImperial, cupUS, cupImperial
    // Pressure.
    case millimeterOfMercury, centimeterOfWater, atmosphere, inchesOfMercury
    // Time.
    case minute, hour, day
    // Energy.
    case smallCalorie, kilocalorie, largeCalorie
    // Temperature.
    case degreeCelsius, degreeFahrenheit
    // Angle.
    case degreeAngle
    // Units that convert only to themselves, and the logarithmic sound level.
    case internationalUnit, decibelHearingLevel, decibelAWeightedSoundPressureLevel, appleEffortScore
    // Illuminance (SI, prefixable) and a lens's optical power and prismatic
    // deviation; added last so earlier atoms keep their order.
    case lux, diopter, prismDiopter

    /// The symbol in unit strings (`mol` is written `mol<M>`).
    package var symbol: String {
        switch self {
        case .gram: "g"
        case .meter: "m"
        case .liter: "L"
        case .pascal: "Pa"
        case .second: "s"
        case .joule: "J"
        case .kelvin: "K"
        case .siemens: "S"
        case .hertz: "Hz"
        case .volt: "V"
        case .watt: "W"
        case .radian: "rad"
        case .mole: "mol"
        case .count: "count"
        case .percent: "%"
        case .ounce: "oz"
        case .pound: "lb"
        case .stone: "st"
        case .inch: "in"
        case .foot: "ft"
        case .yard: "yd"
        case .mile: "mi"
        case .fluidOunceUS: "fl_oz_us"
        case .fluidOunceImperial: "fl_oz_imp"
        case .pintUS: "pt_us"
        case .pintImperial: "pt_imp"
        case .cupUS: "cup_us"
        case .cupImperial: "cup_imp"
        case .millimeterOfMercury: "mmHg"
        case .centimeterOfWater: "cmAq"
        case .atmosphere: "atm"
        case .inchesOfMercury: "inHg"
        case .minute: "min"
        case .hour: "hr"
        case .day: "d"
        case .smallCalorie: "cal"
        case .kilocalorie: "kcal"
        case .largeCalorie: "Cal"
        case .degreeCelsius: "degC"
        case .degreeFahrenheit: "degF"
        case .degreeAngle: "deg"
        case .internationalUnit: "IU"
        case .decibelHearingLevel: "dBHL"
        case .decibelAWeightedSoundPressureLevel: "dBASPL"
        case .appleEffortScore: "appleEffortScore"
        case .lux: "lx"
        case .diopter: "D"
        case .prismDiopter: "pD"
        }
    }

    /// Whether metric prefixes apply (SI units only).
    package var isPrefixable: Bool {
        rawValue <= BaseUnit.mole.rawValue || self == .lux
    }

    private static let massDimension = UnitDimension(mass: 1)
    private static let lengthDimension = UnitDimension(length: 1)
    private static let volumeDimension = UnitDimension(length: 3)
    private static let timeDimension = UnitDimension(time: 1)
    private static let energyDimension = UnitDimension(mass: 1, length: 2, time: -2)
    private static let pressureDimension = UnitDimension(mass: 1, length: -1, time: -2)

    /// The dimension of one of this atom.
    package var dimension: UnitDimension {
        switch self {
        case .gram, .mole, .ounce, .pound, .stone: Self.massDimension
        case .meter, .inch, .foot, .yard, .mile: Self.lengthDimension
        case .liter, .fluidOunceUS, .fluidOunceImperial, .pintUS, .pintImperial, .cupUS, .cupImperial:
            Self.volumeDimension
        case .pascal, .millimeterOfMercury, .centimeterOfWater, .atmosphere, .inchesOfMercury,
            .decibelAWeightedSoundPressureLevel:
            Self.pressureDimension
        case .second, .minute, .hour, .day: Self.timeDimension
        case .joule, .smallCalorie, .kilocalorie, .largeCalorie: Self.energyDimension
        case .kelvin, .degreeCelsius, .degreeFahrenheit: UnitDimension(temperature: 1)
        case .siemens: UnitDimension(mass: -1, length: -2, time: 3, current: 2)
        case .hertz: UnitDimension(time: -1)
        case .volt: UnitDimension(mass: 1, length: 2, time: -3, current: -1)
        case .watt: UnitDimension(mass: 1, length: 2, time: -3)
        case .radian, .degreeAngle: UnitDimension(angle: 1)
        case .count, .percent: .none
        case .internationalUnit: UnitDimension(internationalUnit: 1)
        case .decibelHearingLevel: UnitDimension(hearingLevel: 1)
        case .appleEffortScore: UnitDimension(effortScore: 1)
        case .lux: UnitDimension(length: -2, luminousIntensity: 1)
        case .diopter: UnitDimension(opticalPower: 1)
        case .prismDiopter: UnitDimension(prismaticDeviation: 1)
        }
    }

    /// The factor to the SI base of the dimension (grams, metres, cubic
    /// metres, seconds…), without prefix. Temperatures are intervals here;
    /// the offsets of degC and degF apply only to bare temperatures (UNIT-8).
    /// The mole's factor is its molar mass, supplied by the atom.
    package var factor: Double {
        switch self {
        case .gram, .meter, .second, .kelvin, .hertz, .radian, .mole, .count, .internationalUnit,
            .decibelHearingLevel, .appleEffortScore, .degreeCelsius, .lux, .diopter, .prismDiopter:
            1
        case .liter: 1e-3
        case .pascal, .joule, .volt, .watt: 1e3
        case .siemens: 1e-3
        case .percent: 0.01
        case .ounce: 28.349523125
        case .pound: 453.59237
        case .stone: 6350.29318
        case .inch: 0.0254
        case .foot: 0.3048
        case .yard: 0.9144
        case .mile: 1609.344
        case .fluidOunceUS: 0.0295735295625e-3
        case .fluidOunceImperial: 0.0284130625e-3
        case .pintUS: 0.473176473e-3
        case .pintImperial: 0.56826125e-3
        case .cupUS: 0.2365882365e-3
        case .cupImperial: 0.284130625e-3
        case .millimeterOfMercury: 133.3224e3
        case .centimeterOfWater: 98.0665e3
        case .atmosphere: 101325e3
        case .inchesOfMercury: 3386.38816e3
        case .decibelAWeightedSoundPressureLevel: 1e3
        case .minute: 60
        case .hour: 3600
        case .day: 86400
        case .smallCalorie: 4.184e3
        case .kilocalorie, .largeCalorie: 4184e3
        case .degreeFahrenheit: 5.0 / 9.0
        case .degreeAngle: Double.pi / 180
        }
    }

    /// The position of the atom's group in canonical unit strings (UNIT-15):
    /// volume, energy, length, count, time, mass, then the rest.
    package var canonicalRank: Int {
        switch self {
        case .liter, .fluidOunceUS, .fluidOunceImperial, .pintUS, .pintImperial, .cupUS, .cupImperial: 0
        case .joule, .smallCalorie, .kilocalorie, .largeCalorie: 1
        case .meter, .inch, .foot, .yard, .mile: 2
        case .count: 3
        case .second, .minute, .hour, .day: 4
        case .gram, .mole, .ounce, .pound, .stone: 5
        case .pascal, .millimeterOfMercury, .centimeterOfWater, .atmosphere, .inchesOfMercury: 6
        case .kelvin, .degreeCelsius, .degreeFahrenheit: 7
        case .siemens: 8
        case .hertz: 9
        case .volt: 10
        case .watt: 11
        case .radian, .degreeAngle: 12
        case .percent: 13
        case .internationalUnit: 14
        case .decibelHearingLevel: 15
        case .decibelAWeightedSoundPressureLevel: 16
        case .appleEffortScore: 17
        case .lux: 18
        case .diopter: 19
        case .prismDiopter: 20
        }
    }

    /// Whether this is a temperature atom (kelvin, degC, degF).
    package var isTemperature: Bool {
        self == .kelvin || self == .degreeCelsius || self == .degreeFahrenheit
    }

    /// The offset to add, after scaling, to reach kelvin for a bare
    /// temperature: K = value × factor + offset (UNIT-7).
    package var kelvinOffset: Double {
        switch self {
        case .degreeCelsius: 273.15
        case .degreeFahrenheit: 459.67 * 5.0 / 9.0
        default: 0
        }
    }

    /// Non-SI atoms by symbol; tried before prefix + SI unit (UNIT-2).
    package static let nonSIBySymbol: [String: BaseUnit] = {
        var table: [String: BaseUnit] = [:]
        for unit in allCases where !unit.isPrefixable {
            table[unit.symbol] = unit
        }
        return table
    }()

    /// SI atoms by symbol (`l` is litre too, UNIT-3); `mol` is parsed apart.
    package static let siBySymbol: [String: BaseUnit] = {
        var table: [String: BaseUnit] = [:]
        for unit in allCases where unit.isPrefixable && unit != .mole {
            table[unit.symbol] = unit
        }
        table["l"] = .liter
        return table
    }()
}
