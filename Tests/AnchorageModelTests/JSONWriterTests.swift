import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

@Suite("JSON forms: the fast writer", .ownThread)
struct JSONWriterTests {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    @Test(
        "HealthObjectWriter writes every random object byte for byte as JSONEncoder does",
        arguments: [21, 22, 23] as [UInt64]
    )
    func sameBytesAsJSONEncoder(seed: UInt64) throws {
        var generator = ObjectGenerator(seed: seed)
        var writer = HealthObjectWriter()
        for _ in 0..<2_000 {
            let object = generator.object()
            var bytes: [UInt8] = []
            try writer.append(object, to: &bytes)
            let expected = Array(try Self.encoder.encode(HealthObject(object)))
            #expect(bytes == expected, "\(String(decoding: expected, as: UTF8.self).prefix(400))")
        }
    }

    @Test("numbers and dates at the edges are written as JSONEncoder writes them")
    func edges() throws {
        let values: [Double] = [
            0, -0.0, 1, -1, 72, 0.1, 0.5, 72.25, 1234.5678, 1e-5, 1.5e-7, 123456789.125, 1e15, 1e15 + 2, 9.5e15,
            1e16, 1e21, 3.0e22, -2.5e-9, .pi, Double(Int64.max), 0.30000000000000004, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude,
        ]
        let dates: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_718_000_000.25),
            Date(timeIntervalSince1970: -86_400 * 365 * 100 - 0.5), Date(timeIntervalSince1970: 1.0 / 3),
            Date(timeIntervalSinceReferenceDate: 300_000_000_000), Date(timeIntervalSince1970: -62_135_596_800),
        ]
        var writer = HealthObjectWriter()
        for value in values {
            for date in dates {
                let sample = HKQuantitySample(
                    type: HKQuantityType(.bodyMass),
                    quantity: HKQuantity(unit: .gram(), doubleValue: abs(value)),
                    start: date,
                    end: date
                )
                var bytes: [UInt8] = []
                try writer.append(sample, to: &bytes)
                let expected = Array(try Self.encoder.encode(HealthObject(sample)))
                #expect(bytes == expected, "\(value) at \(date): \(String(decoding: expected, as: UTF8.self))")
            }
        }
    }
}
