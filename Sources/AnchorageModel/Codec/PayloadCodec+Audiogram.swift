extension PayloadCodec {
    /// An audiogram after its common fields (kind 8): its points, each a
    /// frequency and its tests.
    package static func writeAudiogram(_ audiogram: HKAudiogramSample, into writer: inout PayloadWriter) {
        writer.varint(UInt64(audiogram.sensitivityPoints.count))
        for point in audiogram.sensitivityPoints {
            writer.double(point.hertz)
            writer.varint(UInt64(point.tests.count))
            for test in point.tests {
                writer.double(test.level)
                writer.byte(UInt8(test.type.rawValue))
                writer.byte(test.masked ? 1 : 0)
                writer.byte(UInt8(test.side.rawValue))
                let range = test.clampingRange
                writer.byte((range?.lower == nil ? 0 : 1) | (range?.upper == nil ? 0 : 2))
                if let lower = range?.lower { writer.double(lower) }
                if let upper = range?.upper { writer.double(upper) }
            }
        }
    }
}

extension PayloadDecoder {
    /// An audiogram after its common fields (kind 8).
    mutating func readAudiogram(
        _ reader: inout PayloadReader,
        _ fields: consuming SampleFields
    ) throws(HKError)
        -> HKAudiogramSample
    {
        let count = try reader.count("the number of sensitivity points", limit: HKAudiogramSample.maximumPoints)
        var points: [HKAudiogramSensitivityPoint] = []
        for _ in 0..<count {
            let hertz = try reader.double("a frequency")
            let testCount = try reader.count("the number of tests", limit: 16)
            var tests: [HKAudiogramSensitivityTest] = []
            for _ in 0..<testCount {
                let level = try reader.double("a sensitivity")
                guard let type = HKAudiogramConductionType(rawValue: Int(try reader.byte("a conduction type"))),
                    case let masked = try reader.byte("a masked flag"), masked <= 1,
                    let side = HKAudiogramSensitivityTestSide(rawValue: Int(try reader.byte("a side")))
                else { throw .invalid("PAYLOAD-2", "a hearing test's conduction type, masking or side is unknown") }
                let flags = try reader.byte("a clamping range's flags")
                guard flags & ~3 == 0 else { throw .invalid("PAYLOAD-2", "a clamping range's flags are not valid") }
                let lower = flags & 1 != 0 ? try reader.double("a lower bound") : nil
                let upper = flags & 2 != 0 ? try reader.double("an upper bound") : nil
                let range = flags == 0 ? nil : try HKAudiogramSensitivityPointClampingRange(lower: lower, upper: upper)
                tests.append(
                    try HKAudiogramSensitivityTest(
                        level: level,
                        type: type,
                        masked: masked == 1,
                        side: side,
                        clampingRange: range
                    )
                )
            }
            points.append(try HKAudiogramSensitivityPoint(hertz: hertz, tests: tests))
        }
        return try HKAudiogramSample.make(points: points, fields)
    }
}
