import Anchorage
import Foundation

extension ExportObjects {
    /// An `Audiogram` element with its `SensitivityPoint` children
    /// (`frequencyValue="250" frequencyUnit="Hz" leftEarValue="35.0459"
    /// leftEarUnit="dBHL" rightEarValue= rightEarUnit=`; either ear may be
    /// absent) as an ``HKAudiogramSample``: each ear's value an unmasked
    /// air-conduction test, points sorted by frequency.
    mutating func audiogram(_ element: ExportElement) throws(Rejection) -> HKAudiogramSample {
        let (start, end) = try interval(element)
        var points: [HKAudiogramSensitivityPoint] = []
        do {
            for child in element.children(.sensitivityPoint) {
                guard let frequency = try quantity(child, .frequencyValue, unitKey: .frequencyUnit, defaultUnit: "Hz"),
                    frequency.is(compatibleWith: .hertz())
                else { throw Rejection(reason: "an audiogram point without a frequency in hertz (AUD-1)") }
                var tests: [HKAudiogramSensitivityTest] = []
                for (side, value, unit) in [
                    (HKAudiogramSensitivityTestSide.left, ExportName.leftEarValue, ExportName.leftEarUnit),
                    (.right, .rightEarValue, .rightEarUnit),
                ] {
                    guard let level = try quantity(child, value, unitKey: unit, defaultUnit: "dBHL") else { continue }
                    guard level.is(compatibleWith: .decibelHearingLevel()) else {
                        throw Rejection(reason: "an audiogram sensitivity not in dBHL (AUD-1)")
                    }
                    tests.append(
                        try HKAudiogramSensitivityTest(
                            level: level.doubleValue(for: .decibelHearingLevel()),
                            type: .air,
                            masked: false,
                            side: side,
                            clampingRange: nil
                        )
                    )
                }
                points.append(
                    try HKAudiogramSensitivityPoint(hertz: frequency.doubleValue(for: .hertz()), tests: tests)
                )
            }
            points.sort { $0.hertz < $1.hertz }
            let fields = try SampleFields.given(
                start,
                end,
                identifier(of: element, numbered: true),
                source(element),
                device(element),
                Self.metadata(element)
            )
            return try HKAudiogramSample.make(points: points, fields)
        } catch let rejection as Rejection {
            throw rejection
        } catch {
            throw Rejection(reason: Self.reason(error))
        }
    }
}
