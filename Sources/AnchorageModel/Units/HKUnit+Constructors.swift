extension HKUnit {
    // MARK: Mass

    /// Grams, optionally with a prefix: `.gramUnit(with: .kilo)` is `kg`.
    public static func gramUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.gram, prefix: prefix) }
    /// Grams (`g`).
    public static func gram() -> HKUnit { HKUnit(.gram) }
    /// Ounces (`oz`), 28.349523125 g.
    public static func ounce() -> HKUnit { HKUnit(.ounce) }
    /// Pounds (`lb`), 453.59237 g.
    public static func pound() -> HKUnit { HKUnit(.pound) }
    /// Stones (`st`), 14 lb.
    public static func stone() -> HKUnit { HKUnit(.stone) }
    /// Moles of a substance of `molarMass` grams per mole (`mol<M>`), a mass unit.
    ///
    /// ```swift
    /// let mmol = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose)
    /// ```
    public static func moleUnit(with prefix: HKMetricPrefix, molarMass: Double) -> HKUnit {
        precondition(molarMass.isFinite && molarMass > 0, "a molar mass must be a positive number (UNIT-10)")
        return HKUnit(atoms: [UnitAtom(.mole, prefix: prefix, molarMass: molarMass)])
    }
    /// Moles of a substance of `molarMass` grams per mole.
    public static func moleUnit(withMolarMass molarMass: Double) -> HKUnit {
        moleUnit(with: .none, molarMass: molarMass)
    }

    // MARK: Length

    /// Metres, optionally with a prefix.
    public static func meterUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.meter, prefix: prefix) }
    /// Metres (`m`).
    public static func meter() -> HKUnit { HKUnit(.meter) }
    /// Inches (`in`).
    public static func inch() -> HKUnit { HKUnit(.inch) }
    /// Feet (`ft`).
    public static func foot() -> HKUnit { HKUnit(.foot) }
    /// Yards (`yd`).
    public static func yard() -> HKUnit { HKUnit(.yard) }
    /// Miles (`mi`).
    public static func mile() -> HKUnit { HKUnit(.mile) }

    // MARK: Volume

    /// Litres, optionally with a prefix.
    public static func literUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.liter, prefix: prefix) }
    /// Litres (`L`).
    public static func liter() -> HKUnit { HKUnit(.liter) }
    /// US fluid ounces (`fl_oz_us`).
    public static func fluidOunceUS() -> HKUnit { HKUnit(.fluidOunceUS) }
    /// Imperial fluid ounces (`fl_oz_imp`).
    public static func fluidOunceImperial() -> HKUnit { HKUnit(.fluidOunceImperial) }
    /// US pints (`pt_us`).
    public static func pintUS() -> HKUnit { HKUnit(.pintUS) }
    /// Imperial pints (`pt_imp`).
    public static func pintImperial() -> HKUnit { HKUnit(.pintImperial) }
    /// US cups (`cup_us`).
    public static func cupUS() -> HKUnit { HKUnit(.cupUS) }
    /// Imperial cups (`cup_imp`).
    public static func cupImperial() -> HKUnit { HKUnit(.cupImperial) }

    // MARK: Pressure

    /// Pascals, optionally with a prefix.
    public static func pascalUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.pascal, prefix: prefix) }
    /// Pascals (`Pa`).
    public static func pascal() -> HKUnit { HKUnit(.pascal) }
    /// Millimetres of mercury (`mmHg`), 133.3224 Pa.
    public static func millimeterOfMercury() -> HKUnit { HKUnit(.millimeterOfMercury) }
    /// Centimetres of water (`cmAq`), 98.0665 Pa.
    public static func centimeterOfWater() -> HKUnit { HKUnit(.centimeterOfWater) }
    /// Atmospheres (`atm`), 101325 Pa.
    public static func atmosphere() -> HKUnit { HKUnit(.atmosphere) }
    /// Inches of mercury (`inHg`), 3386.38816 Pa.
    public static func inchesOfMercury() -> HKUnit { HKUnit(.inchesOfMercury) }
    /// A-weighted sound pressure level in decibels (`dBASPL`), logarithmic (UNIT-9).
    public static func decibelAWeightedSoundPressureLevel() -> HKUnit {
        HKUnit(.decibelAWeightedSoundPressureLevel)
    }

    // MARK: Time

    /// Seconds, optionally with a prefix.
    public static func secondUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.second, prefix: prefix) }
    /// Seconds (`s`).
    public static func second() -> HKUnit { HKUnit(.second) }
    /// Minutes (`min`).
    public static func minute() -> HKUnit { HKUnit(.minute) }
    /// Hours (`hr`).
    public static func hour() -> HKUnit { HKUnit(.hour) }
    /// Days (`d`).
    public static func day() -> HKUnit { HKUnit(.day) }

    // MARK: Energy

    /// Joules, optionally with a prefix.
    public static func jouleUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.joule, prefix: prefix) }
    /// Joules (`J`).
    public static func joule() -> HKUnit { HKUnit(.joule) }
    /// Kilocalories (`kcal`), 4184 J.
    public static func kilocalorie() -> HKUnit { HKUnit(.kilocalorie) }
    /// Small calories (`cal`), 4.184 J.
    public static func smallCalorie() -> HKUnit { HKUnit(.smallCalorie) }
    /// Large (food) calories (`Cal`), 4184 J.
    public static func largeCalorie() -> HKUnit { HKUnit(.largeCalorie) }
    /// Small calories (`cal`).
    @available(*, deprecated, message: "use smallCalorie() or largeCalorie()")
    public static func calorie() -> HKUnit { HKUnit(.smallCalorie) }

    // MARK: Temperature

    /// Degrees Celsius (`degC`).
    public static func degreeCelsius() -> HKUnit { HKUnit(.degreeCelsius) }
    /// Degrees Fahrenheit (`degF`).
    public static func degreeFahrenheit() -> HKUnit { HKUnit(.degreeFahrenheit) }
    /// Kelvin (`K`).
    public static func kelvin() -> HKUnit { HKUnit(.kelvin) }

    // MARK: Electricity, frequency, power, angle

    /// Siemens, optionally with a prefix.
    public static func siemenUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.siemens, prefix: prefix) }
    /// Siemens (`S`).
    public static func siemen() -> HKUnit { HKUnit(.siemens) }
    /// Hertz, optionally with a prefix.
    public static func hertzUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.hertz, prefix: prefix) }
    /// Hertz (`Hz`).
    public static func hertz() -> HKUnit { HKUnit(.hertz) }
    /// Volts, optionally with a prefix.
    public static func voltUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.volt, prefix: prefix) }
    /// Volts (`V`).
    public static func volt() -> HKUnit { HKUnit(.volt) }
    /// Watts, optionally with a prefix.
    public static func wattUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.watt, prefix: prefix) }
    /// Watts (`W`).
    public static func watt() -> HKUnit { HKUnit(.watt) }
    /// Radians, optionally with a prefix.
    public static func radianAngleUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.radian, prefix: prefix) }
    /// Radians (`rad`).
    public static func radianAngle() -> HKUnit { HKUnit(.radian) }
    /// Degrees of angle (`deg`).
    public static func degreeAngle() -> HKUnit { HKUnit(.degreeAngle) }

    // MARK: Scalars and special units

    /// A count (`count`), the dimensionless scalar.
    public static func count() -> HKUnit { HKUnit(.count) }
    /// Percent (`%`), 1/100 of `count`; HealthKit stores 25 % as 0.25 (UNIT-12).
    public static func percent() -> HKUnit { HKUnit(.percent) }
    /// International units (`IU`), convertible only to themselves.
    public static func internationalUnit() -> HKUnit { HKUnit(.internationalUnit) }
    /// Decibels of hearing level (`dBHL`), convertible only to themselves.
    public static func decibelHearingLevel() -> HKUnit { HKUnit(.decibelHearingLevel) }
    /// Apple's workout effort score (`appleEffortScore`).
    public static func appleEffortScore() -> HKUnit { HKUnit(.appleEffortScore) }

    // MARK: Light and lenses

    /// Lux (`lx`), illuminance: one lumen per square metre.
    public static func lux() -> HKUnit { HKUnit(.lux) }
    /// Lux, optionally with a prefix: `.luxUnit(with: .kilo)` is `klx`.
    public static func luxUnit(with prefix: HKMetricPrefix) -> HKUnit { HKUnit(.lux, prefix: prefix) }
    /// Diopters (`D`), a lens's optical power; convertible only to diopters.
    public static func diopter() -> HKUnit { HKUnit(.diopter) }
    /// Prism diopters (`pD`), a lens's prismatic deviation; convertible only to themselves.
    public static func prismDiopter() -> HKUnit { HKUnit(.prismDiopter) }
}

extension HKUnit {
    /// The product of two units, atoms merged (UNIT-13).
    ///
    /// ```swift
    /// let kgm = HKUnit.gramUnit(with: .kilo).unitMultiplied(by: .meter())   // "kg·m" — written "m·kg"
    /// ```
    public func unitMultiplied(by unit: HKUnit) -> HKUnit {
        checked(HKUnit(atoms: atoms + unit.atoms))
    }

    /// The quotient of two units.
    ///
    /// ```swift
    /// let bpm = HKUnit.count().unitDivided(by: .minute())   // "count/min"
    /// ```
    public func unitDivided(by unit: HKUnit) -> HKUnit {
        checked(HKUnit(atoms: atoms + unit.reciprocal().atoms))
    }

    /// The unit raised to an integer power.
    public func unitRaised(toPower power: Int) -> HKUnit {
        precondition(
            abs(power) <= HKUnit.maximumExponent,
            "a unit power must be within ±\(HKUnit.maximumExponent) (UNIT-13)"
        )
        return checked(
            HKUnit(
                atoms: atoms.map { atom in
                    var raised = atom
                    raised.exponent *= power
                    return raised
                }
            )
        )
    }

    /// The reciprocal of the unit (`s` → `s^-1`).
    public func reciprocal() -> HKUnit {
        HKUnit(
            atoms: atoms.map { atom in
                var inverted = atom
                inverted.exponent = -atom.exponent
                return inverted
            }
        )
    }

    /// Stops the program when a computed unit's exponents overflow.
    private func checked(_ unit: HKUnit) -> HKUnit {
        if unit.atoms.contains(where: { abs($0.exponent) > HKUnit.maximumExponent }) {
            programmerError(
                .invalid("UNIT-13", "the unit \(unit.unitString) has an exponent beyond ±\(HKUnit.maximumExponent)")
            )
        }
        return unit
    }
}
