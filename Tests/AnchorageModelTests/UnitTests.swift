import AnchorageModel
import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

/// `a` and `b` agree to a relative tolerance (UNIT-5 uses 1e-12).
func close(_ a: Double, _ b: Double, relative: Double = 1e-12) -> Bool {
    a == b || abs(a - b) <= relative * max(abs(a), abs(b))
}

@Suite("Units and quantities (spec §2)")
struct UnitTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let value: Double
        let from: String
        let to: String
        let expected: Double
        let tolerance: Double
        var testDescription: String { "\(value) \(from) → \(to)" }
    }

    /// Every worked vector of spec §2.8 that converts.
    static let vectors: [Vector] = [
        Vector(value: 20, from: "g", to: "kg", expected: 0.02, tolerance: 1e-12),
        Vector(value: 1, from: "lb", to: "kg", expected: 0.45359237, tolerance: 1e-12),
        Vector(value: 1, from: "st", to: "lb", expected: 14, tolerance: 1e-12),
        Vector(value: 1, from: "mi", to: "m", expected: 1609.344, tolerance: 1e-12),
        Vector(value: 8, from: "fl_oz_us", to: "cup_us", expected: 1, tolerance: 1e-12),
        Vector(value: 1, from: "kcal", to: "kJ", expected: 4.184, tolerance: 1e-12),
        Vector(value: 1, from: "Cal", to: "kcal", expected: 1, tolerance: 1e-12),
        Vector(value: 98.6, from: "degF", to: "degC", expected: 37.0, tolerance: 1e-12),
        Vector(value: 0, from: "degC", to: "degF", expected: 32, tolerance: 1e-12),
        Vector(value: 120, from: "mmHg", to: "kPa", expected: 15.998688, tolerance: 1e-12),
        Vector(value: 1, from: "atm", to: "mmHg", expected: 759.99982, tolerance: 1e-7),
        Vector(value: 1, from: "inHg", to: "mmHg", expected: 25.399994, tolerance: 1e-7),
        Vector(value: 100, from: "mg/dL", to: "mmol<180.15588000005408>/L", expected: 5.5507486, tolerance: 1e-7),
        Vector(value: 72, from: "count/min", to: "Hz", expected: 1.2, tolerance: 1e-12),
    ]

    @Test("§2.8 conversion vectors (UNIT-5, UNIT-7, UNIT-10, UNIT-17)", arguments: vectors)
    func conversionVector(vector: Vector) throws {
        let quantity = HKQuantity(unit: try HKUnit.parse(vector.from), doubleValue: vector.value)
        let converted = try quantity.checkedDoubleValue(for: try HKUnit.parse(vector.to))
        #expect(close(converted, vector.expected, relative: vector.tolerance), "\(converted)")
    }

    @Test("UNIT-1: HealthKit's prefixed constructors build the units apps write, e.g. mg/dL for blood glucose")
    func prefixedConstructors() throws {
        let glucose = HKUnit.gramUnit(with: .milli).unitDivided(by: .literUnit(with: .deci))
        #expect(glucose.unitString == "mg/dL")
        #expect(glucose == HKUnit(from: "mg/dL"))
        let pairs: [(HKUnit, String)] = [
            (.meterUnit(with: .centi), "cm"), (.secondUnit(with: .milli), "ms"), (.jouleUnit(with: .kilo), "kJ"),
            (.pascalUnit(with: .kilo), "kPa"), (.siemenUnit(with: .micro), "mcS"), (.hertzUnit(with: .kilo), "kHz"),
            (.voltUnit(with: .milli), "mV"), (.wattUnit(with: .kilo), "kW"), (.radianAngleUnit(with: .milli), "mrad"),
        ]
        for (unit, text) in pairs {
            #expect(unit.unitString == text)
        }
    }

    @Test("§2.8: 1 g → m is an incompatible-unit error (UNIT-18)")
    func incompatibleVector() throws {
        let grams = HKQuantity(unit: .gram(), doubleValue: 1)
        #expect(!grams.is(compatibleWith: .meter()))
        #expect {
            try grams.checkedDoubleValue(for: .meter())
        } throws: { error in
            (error as? HKError)?.rule == "UNIT-18" && (error as? HKError)?.code == .errorInvalidArgument
        }
        #expect(throws: HKError.self) { try grams.checkedCompare(HKQuantity(unit: .second(), doubleValue: 1)) }
    }

    @Test("UNIT-1: multiplication binds tighter than division; parentheses; ., * and · multiply")
    func grammar() throws {
        #expect(try HKUnit.parse("kg/m.s^2") == HKUnit.parse("kg.m^-1.s^-2"))
        #expect(try HKUnit.parse("ml/(kg*min)") == HKUnit.parse("mL/min·kg"))
        #expect(try HKUnit.parse("kg*m") == HKUnit.parse("kg.m"))
        #expect(try HKUnit.parse("kg·m") == HKUnit.parse("m.kg"))
        #expect(try HKUnit.parse("s^-2") == HKUnit.second().unitRaised(toPower: -2))
    }

    @Test(
        "UNIT-1: invalid strings are typed errors naming the problem",
        arguments: [
            "", "kg/m/s", "kgg", "kg m", " kg", "kg^", "kg^x", "kg^99", "(kg", "kg)", "mol", "mol<0>", "mol<-3>",
            "mol<abc>", "mol<180", "mmol<nan>/L", "^2", "/s", "kg/", "kg..m", "µg", "ug", "h", "k",
            "((((((((((kg))))))))))",
            String(repeating: "kg.", count: 100) + "kg",
        ]
    )
    func invalidStrings(string: String) {
        #expect {
            try HKUnit.parse(string)
        } throws: { error in
            guard let error = error as? HKError else { return false }
            return error.code == .errorInvalidArgument && error.rule == "UNIT-1" && error.message.contains("not a unit")
        }
    }

    @Test(
        "UNIT-2: non-SI tokens win, then the longest prefix",
        arguments: [
            ("mm", "m", 1e-3), ("mg", "g", 1e-3), ("mcg", "g", 1e-6), ("dL", "L", 1e-1), ("d", "s", 86400),
            ("min", "s", 60), ("mcS", "S", 1e-6), ("kJ", "J", 1e3), ("ms", "s", 1e-3), ("dam", "m", 10),
            ("fg", "g", 1e-15), ("ng", "g", 1e-9), ("pg", "g", 1e-12), ("cm", "m", 1e-2), ("hPa", "Pa", 1e2),
            ("MJ", "J", 1e6), ("GHz", "Hz", 1e9), ("TW", "W", 1e12), ("mV", "V", 1e-3), ("mrad", "rad", 1e-3),
        ] as [(String, String, Double)]
    )
    func tokenResolution(token: String, base: String, factor: Double) throws {
        let value = try HKQuantity(unit: HKUnit.parse(token), doubleValue: 1).checkedDoubleValue(
            for: HKUnit.parse(base)
        )
        #expect(close(value, factor), "\(token) = \(value) \(base)")
    }

    @Test("UNIT-3: L and l are both litre; the canonical form is L")
    func litre() throws {
        #expect(try HKUnit.parse("ml") == HKUnit.parse("mL"))
        #expect(try HKUnit.parse("dl").unitString == "dL")
        #expect(HKUnit.literUnit(with: .milli).unitString == "mL")
    }

    @Test("UNIT-6, UNIT-10, UNIT-11: blood-glucose molar mass, mole as mass, 16 significant digits")
    func moles() throws {
        #expect(HKUnitMolarMassBloodGlucose == 180.15588000005408)
        let mmolPerL = HKUnit.moleUnit(with: .milli, molarMass: HKUnitMolarMassBloodGlucose).unitDivided(by: .liter())
        #expect(mmolPerL.unitString == "mmol<180.1558800000541>/L")
        #expect(try HKUnit.parse(mmolPerL.unitString) == mmolPerL)
        let glucose = HKQuantity(unit: mmolPerL, doubleValue: 5.5)
        #expect(close(glucose.doubleValue(for: HKUnit(from: "mg/dL")), 99.0857, relative: 1e-6))
        // Two molar masses are two mass units, convertible through grams.
        let a = HKQuantity(unit: .moleUnit(withMolarMass: 2), doubleValue: 3)
        #expect(close(try a.checkedDoubleValue(for: .moleUnit(withMolarMass: 4)), 1.5))
        #expect(close(try a.checkedDoubleValue(for: .gram()), 6))
    }

    @Test("UNIT-7, UNIT-8: temperature offsets apply to bare temperatures only")
    func temperatures() throws {
        let fever = HKQuantity(unit: .degreeFahrenheit(), doubleValue: 98.6)
        #expect(close(fever.doubleValue(for: .degreeCelsius()), 37.0))
        #expect(close(fever.doubleValue(for: .kelvin()), 310.15))
        #expect(close(HKQuantity(unit: .kelvin(), doubleValue: 0).doubleValue(for: .degreeFahrenheit()), -459.67))
        // A rate of temperature change converts as an interval: 1 degC/hr = 1 K/hr = 1.8 degF/hr.
        let rate = HKQuantity(unit: try HKUnit.parse("degC/hr"), doubleValue: 1)
        #expect(close(try rate.checkedDoubleValue(for: HKUnit.parse("K/hr")), 1))
        #expect(close(try rate.checkedDoubleValue(for: HKUnit.parse("degF/hr")), 1.8))
        #expect(
            close(
                try HKQuantity(unit: HKUnit.parse("K^2"), doubleValue: 1).checkedDoubleValue(
                    for: HKUnit.parse("degF^2")
                ),
                3.24
            )
        )
    }

    @Test("UNIT-9: dBASPL converts logarithmically to bare pressures only")
    func soundPressure() throws {
        let level = HKQuantity(unit: .decibelAWeightedSoundPressureLevel(), doubleValue: 94)
        #expect(close(level.doubleValue(for: .pascal()), 1.0023744672545445, relative: 1e-9))
        let back = HKQuantity(unit: .pascal(), doubleValue: 1.0023744672545445).doubleValue(
            for: .decibelAWeightedSoundPressureLevel()
        )
        #expect(close(back, 94, relative: 1e-9))
        #expect(level.is(compatibleWith: .millimeterOfMercury()))
        #expect(close(level.doubleValue(for: .pascalUnit(with: .milli)), 1002.3744672545445, relative: 1e-9))
        let compound = try HKUnit.parse("dBASPL/s")
        #expect(!compound.isCompatible(with: try HKUnit.parse("Pa/s")))
        #expect(compound.isCompatible(with: compound))
        #expect(!HKUnit.decibelAWeightedSoundPressureLevel().isCompatible(with: try HKUnit.parse("Pa^2")))
    }

    @Test("UNIT-12: percent converts by its factor; the fraction convention is documentation")
    func percent() throws {
        let quarter = HKQuantity(unit: .percent(), doubleValue: 0.25)
        #expect(close(quarter.doubleValue(for: .count()), 0.0025))
        #expect(HKUnit.percent().unitString == "%")
    }

    @Test("UNIT-13: products, quotients, powers and reciprocals merge atoms")
    func unitMath() throws {
        let m = HKUnit.meter()
        #expect(m.unitMultiplied(by: m) == HKUnit(from: "m^2"))
        #expect(m.unitMultiplied(by: m).unitString == "m^2")
        #expect(m.unitDivided(by: m).isNull())
        #expect(HKUnit.second().reciprocal().unitString == "s^-1")
        #expect(try HKUnit.parse("s^-1") == HKUnit.second().reciprocal())
        #expect(HKUnit.count().unitDivided(by: .minute()).unitString == "count/min")
        #expect(m.unitRaised(toPower: 3).unitDivided(by: .second()).unitString == "m^3/s")
        #expect(HKUnit(from: "kg/m^2").unitRaised(toPower: 2).unitString == "kg^2/m^4")
    }

    @Test("UNIT-14: null units (L/L, dL/L) convert only to null units and count, keeping their factor")
    func nullUnits() throws {
        let litres = try HKUnit.parse("L/L")
        let decilitres = try HKUnit.parse("dL/L")
        #expect(litres.isNull() && decilitres.isNull())
        #expect(!HKUnit.count().isNull() && !HKUnit.percent().isNull())
        #expect(close(HKQuantity(unit: decilitres, doubleValue: 1).doubleValue(for: .count()), 0.1))
        #expect(close(HKQuantity(unit: decilitres, doubleValue: 1).doubleValue(for: litres), 0.1))
        #expect(decilitres.isCompatible(with: litres))
        #expect(!decilitres.isCompatible(with: .percent()))
        #expect(!HKUnit.percent().isCompatible(with: litres))
        #expect(HKUnit.count().isCompatible(with: .percent()))
    }

    @Test(
        "UNIT-15: known canonical strings, and every unit string round-trips",
        arguments: [
            ("count/min", "count/min"), ("kcal", "kcal"), ("Cal", "Cal"), ("m/s", "m/s"), ("mg/dL", "mg/dL"),
            ("mmHg", "mmHg"), ("degC", "degC"), ("degF", "degF"), ("%", "%"), ("ms", "ms"), ("mcS", "mcS"),
            ("ml", "mL"), ("ml/(kg*min)", "mL/min·kg"), ("kcal/(kg*hr)", "kcal/hr·kg"), ("count/s", "count/s"),
            ("mmol<180.15588000005408>/L", "mmol<180.1558800000541>/L"), ("L/min", "L/min"), ("IU", "IU"),
            ("dBHL", "dBHL"), ("dBASPL", "dBASPL"), ("W", "W"), ("appleEffortScore", "appleEffortScore"),
        ] as [(String, String)]
    )
    func canonicalStrings(input: String, expected: String) throws {
        let unit = try HKUnit.parse(input)
        #expect(unit.unitString == expected)
        #expect(try HKUnit.parse(unit.unitString) == unit)
    }

    @Test("UNIT-15: generated compound units round-trip through their strings", arguments: testSeeds([0x0415]))
    func roundTripGenerated(seed: UInt64) throws {
        let atoms: [HKUnit] = [
            .gramUnit(with: .kilo), .meter(), .literUnit(with: .milli), .second(), .minute(), .kilocalorie(), .count(),
            .percent(), .millimeterOfMercury(), .degreeCelsius(), .siemenUnit(with: .micro), .hertz(),
            .internationalUnit(),
            .moleUnit(with: .milli, molarMass: 180.16), .fluidOunceUS(), .radianAngle(), .degreeAngle(), .volt(),
        ]
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<2_000 {
            var unit = atoms.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let next = atoms.randomElement(using: &generator)!.unitRaised(
                    toPower: Int.random(in: -3...3, using: &generator)
                )
                unit = Bool.random(using: &generator) ? unit.unitMultiplied(by: next) : unit.unitDivided(by: next)
            }
            let reparsed = try HKUnit.parse(unit.unitString)
            #expect(reparsed == unit, "\(unit.unitString)")
            #expect(reparsed.unitString == unit.unitString)
        }
    }

    @Test("UNIT-16: equality is by atoms; kg and 1000 g are compatible, not equal")
    func equality() throws {
        #expect(HKUnit.gramUnit(with: .kilo) != HKUnit.gram())
        #expect(HKUnit.gramUnit(with: .kilo).isCompatible(with: .gram()))
        #expect(HKUnit(from: "kg") == HKUnit.gramUnit(with: .kilo))
        #expect(Set([HKUnit(from: "kg"), HKUnit.gramUnit(with: .kilo)]).count == 1)
    }

    @Test("UNIT-17: compatibility by dimension; volume is length cubed; count/min, Hz and 1/s agree")
    func compatibility() throws {
        #expect(HKUnit.liter().isCompatible(with: HKUnit(from: "m^3")))
        #expect(close(HKQuantity(unit: .liter(), doubleValue: 1).doubleValue(for: HKUnit(from: "m^3")), 0.001))
        #expect(HKUnit(from: "count/min").isCompatible(with: .hertz()))
        #expect(HKUnit.hertz().isCompatible(with: HKUnit(from: "s^-1")))
        #expect(!HKUnit.internationalUnit().isCompatible(with: .count()))
        #expect(!HKUnit.decibelHearingLevel().isCompatible(with: .count()))
        #expect(HKUnit(from: "mg/dL").isCompatible(with: HKUnit(from: "mmol<180.16>/L")))
        #expect(HKUnit.joule().isCompatible(with: HKUnit(from: "W.s")))
        #expect(
            close(HKQuantity(unit: HKUnit(from: "kW.hr"), doubleValue: 1).doubleValue(for: HKUnit(from: "MJ")), 3.6)
        )
        #expect(
            HKUnit(from: "V").unitMultiplied(by: HKUnit(from: "S")).unitMultiplied(by: HKUnit(from: "V")).isCompatible(
                with: .watt()
            )
        )
    }

    @Test("UNIT-18: HKQuantity accepts any unit; compare orders after conversion")
    func quantityCompare() throws {
        let kilo = HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 1)
        let grams = HKQuantity(unit: .gram(), doubleValue: 999)
        #expect(kilo.compare(grams) == .orderedDescending)
        #expect(grams.compare(kilo) == .orderedAscending)
        #expect(kilo.compare(HKQuantity(unit: .gram(), doubleValue: 1000)) == .orderedSame)
        #expect(HKQuantity(unit: .internationalUnit(), doubleValue: 3).is(compatibleWith: .internationalUnit()))
    }

    @Test("constructors produce the documented unit strings")
    func constructors() {
        let expected: [(HKUnit, String)] = [
            (.gramUnit(with: .kilo), "kg"), (.count(), "count"), (.meter(), "m"), (.kilocalorie(), "kcal"),
            (.count().unitDivided(by: .minute()), "count/min"), (.millimeterOfMercury(), "mmHg"),
            (.degreeCelsius(), "degC"), (.pound(), "lb"), (.stone(), "st"), (.ounce(), "oz"), (.inch(), "in"),
            (.foot(), "ft"), (.yard(), "yd"), (.mile(), "mi"), (.fluidOunceImperial(), "fl_oz_imp"),
            (.pintUS(), "pt_us"), (.pintImperial(), "pt_imp"), (.cupUS(), "cup_us"), (.cupImperial(), "cup_imp"),
            (.centimeterOfWater(), "cmAq"), (.atmosphere(), "atm"), (.inchesOfMercury(), "inHg"), (.hour(), "hr"),
            (.day(), "d"), (.jouleUnit(with: .kilo), "kJ"), (.smallCalorie(), "cal"), (.largeCalorie(), "Cal"),
            (.kelvin(), "K"), (.siemenUnit(with: .micro), "mcS"), (.secondUnit(with: .milli), "ms"),
            (.pascalUnit(with: .kilo), "kPa"), (.decibelAWeightedSoundPressureLevel(), "dBASPL"),
            (.decibelHearingLevel(), "dBHL"), (.internationalUnit(), "IU"), (.percent(), "%"),
            (.hertz(), "Hz"), (.volt(), "V"), (.watt(), "W"), (.radianAngle(), "rad"), (.degreeAngle(), "deg"),
            (.literUnit(with: .deci), "dL"), (.meterUnit(with: .femto), "fm"),
        ]
        for (unit, string) in expected {
            #expect(unit.unitString == string)
        }
    }
}

@Suite("HealthKit's doors stop the program on programmer errors (UNIT-4, UNIT-18)")
struct UnitTrapTests {
    @Test("UNIT-4: HKUnit(from:) with an invalid string stops the program", .startsProcesses())
    func invalidStringTraps() async {
        await #expect(processExitsWith: .failure) { _ = HKUnit(from: "kg//m") }
    }

    @Test("UNIT-18: doubleValue(for:) and compare(_:) with incompatible units stop the program", .startsProcesses())
    func incompatibleTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = HKQuantity(unit: .gram(), doubleValue: 1).doubleValue(for: .meter())
        }
        await #expect(processExitsWith: .failure) {
            _ = HKQuantity(unit: .gram(), doubleValue: 1).compare(HKQuantity(unit: .second(), doubleValue: 1))
        }
    }
}
