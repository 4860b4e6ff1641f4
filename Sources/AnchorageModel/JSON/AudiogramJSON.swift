import Foundation

/// An audiogram's points in JSON (docs/json-format.md): frequencies in
/// hertz, sensitivities and clamping bounds in decibels hearing level.
///
/// ```json
/// {"frequency": 1000, "tests": [{"sensitivity": 20, "type": 0, "masked": false, "side": 0,
///                                "clampingRange": {"lowerBound": -10, "upperBound": 120}}]}
/// ```
package struct SensitivityPointJSON: Codable, Sendable {
    package struct Test: Codable, Sendable {
        var sensitivity: Double
        var type: Int
        var masked: Bool
        var side: Int
        var clampingRange: Range?
    }

    package struct Range: Codable, Sendable {
        var lowerBound: Double?
        var upperBound: Double?
    }

    var frequency: Double
    var tests: [Test]

    package init(_ point: HKAudiogramSensitivityPoint) {
        frequency = point.hertz
        tests = point.tests.map { test in
            Test(
                sensitivity: test.level,
                type: test.type.rawValue,
                masked: test.masked,
                side: test.side.rawValue,
                clampingRange: test.clampingRange.map { Range(lowerBound: $0.lower, upperBound: $0.upper) }
            )
        }
    }

    package func point() throws -> HKAudiogramSensitivityPoint {
        guard tests.count <= 16 else { throw HKError.invalid("AUD-1", "a sensitivity point holds 1 to 16 tests") }
        let made = try tests.map { test throws(HKError) -> HKAudiogramSensitivityTest in
            guard let type = HKAudiogramConductionType(rawValue: test.type),
                let side = HKAudiogramSensitivityTestSide(rawValue: test.side)
            else { throw .invalid("AUD-1", "a hearing test's conduction type or side is unknown") }
            return try HKAudiogramSensitivityTest(
                level: test.sensitivity,
                type: type,
                masked: test.masked,
                side: side,
                clampingRange: try test.clampingRange.map { range throws(HKError) in
                    try HKAudiogramSensitivityPointClampingRange(lower: range.lowerBound, upper: range.upperBound)
                }
            )
        }
        return try HKAudiogramSensitivityPoint(hertz: frequency, tests: made)
    }
}
