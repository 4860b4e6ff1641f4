import Foundation
import Testing

@testable import AnchorageServer

@Suite("Statistics rows written by hand")
struct StatisticsRowJSONTests {
    @Test("a row's hand-written JSON is byte for byte what JSONEncoder writes, for random values and absences")
    func sameBytesAsJSONEncoder() throws {
        var random = SystemRandomNumberGenerator()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let special: [Double] = [
            0, -0.0, 1, 900, 1e15, 1e16, 1e-5, 33.333333333333336, -2.5, 1e300, .leastNonzeroMagnitude, 123_456_789.125,
        ]
        func value() -> Double? {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: nil
            case 1: special.randomElement(using: &random)!
            case 2: Double(Int.random(in: -100_000...100_000, using: &random))
            default: Double.random(in: -1e6...1e6, using: &random)
            }
        }
        for index in 0..<2_000 {
            var row = StatisticsRoutes.Row(
                startDate: "2024-06-01T08:00:00Z",
                endDate: "2024-06-01T08:00:01.5Z"
            )
            row.sum = value()
            row.average = value()
            row.min = value()
            row.max = value()
            row.mostRecent = value()
            row.duration = value()
            row.mostRecentStartDate = Bool.random(using: &random) ? "2023-12-31T23:59:59Z" : nil
            var bytes: [UInt8] = []
            row.appendJSON(to: &bytes)
            let expected = try encoder.encode(row)
            #expect(bytes == Array(expected), "row \(index): \(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
