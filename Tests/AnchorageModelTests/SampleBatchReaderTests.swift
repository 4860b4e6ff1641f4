import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

/// `SampleBatch.Reader` decodes a body as it arrives; whatever the chunks,
/// it must answer exactly as `SampleBatch(json:)` answers for the whole body.
@Suite("A sample batch read as it arrives answers as the whole body does", .ownThread)
struct SampleBatchReaderTests {
    /// `bytes` cut into chunks of random sizes (1 to `largest` bytes).
    static func chunks(_ bytes: [UInt8], largest: Int, using random: inout SeededGenerator) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int.random(in: 1...largest, using: &random))
            chunks.append(Array(bytes[start..<end]))
            start = end
        }
        return chunks
    }

    static func read(_ chunks: [[UInt8]]) -> SampleBatch.Reader {
        var reader = SampleBatch.Reader()
        for chunk in chunks { chunk.withUnsafeBytes { reader.append($0) } }
        return reader
    }

    /// The outcome in a comparable form: the canonical JSON of the objects,
    /// or the error's type and words.
    static func outcome(_ decode: () throws -> SampleBatch) -> String {
        do {
            return try SampleBatchFastPathTests.canonical(decode().objects)
        } catch {
            return "\(type(of: error)): \(error)"
        }
    }

    @Test(
        "generated batches in random chunks: every sample is decoded before the end, the same objects as the whole body"
    )
    func generatedInChunks() throws {
        var random = SeededGenerator(seed: 3_401)
        for text in SampleBatchFastPathTests.batches(seed: 36, count: 200) {
            let bytes = Array(text.utf8)
            let whole = try SampleBatch(json: Data(bytes))
            for largest in [1, 7, 64, bytes.count] {
                let reader = Self.read(Self.chunks(bytes, largest: largest, using: &random))
                #expect(reader.samplesRead == whole.objects.count, "decoded while arriving: \(text.prefix(200))")
                #expect(reader.count == bytes.count)
                #expect(
                    try SampleBatchFastPathTests.canonical(reader.finish().objects)
                        == SampleBatchFastPathTests.canonical(whole.objects)
                )
            }
        }
    }

    @Test("a sample is decoded as soon as its closing brace arrives, not before")
    func decodedOnArrival() throws {
        let text = try #require(SampleBatchFastPathTests.batches(seed: 37, count: 20).first { $0.count > 600 })
        let bytes = Array(text.utf8)
        let whole = try SampleBatch(json: Data(bytes))
        var reader = SampleBatch.Reader()
        var closed = 0  // samples whose bytes are complete
        var depth = 0
        for byte in bytes {
            [byte].withUnsafeBytes { reader.append($0) }
            // The fast form has no braces inside strings.
            if byte == UInt8(ascii: "{") { depth += 1 }
            if byte == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { closed += 1 }
            }
            #expect(reader.samplesRead == closed)
        }
        #expect(closed == whole.objects.count)
    }

    @Test("damaged batches in random chunks: the same objects or the same error as the whole body; nothing crashes")
    func damagedInChunks() {
        var random = SeededGenerator(seed: 3_402)
        for text in SampleBatchFastPathTests.batches(seed: 38, count: 150) {
            for _ in 0..<8 {
                let bytes = SampleBatchFastPathTests.damaged(text, using: &random)
                let expected = Self.outcome { try SampleBatch(json: Data(bytes)) }
                let reader = Self.read(Self.chunks(bytes, largest: 40, using: &random))
                #expect(
                    Self.outcome { try reader.finish() } == expected,
                    "\(String(decoding: bytes, as: UTF8.self).prefix(300))"
                )
            }
        }
    }

    @Test(
        "the forms left to JSONDecoder answer as the whole body: {samples}, escapes, empty, trailing bytes, deep nesting"
    )
    func otherForms() {
        let step =
            #"{"kind":"quantitySample","uuid":"1D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B12","type":"HKQuantityTypeIdentifierStepCount","startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:10:00Z","quantity":{"value":120,"unit":"count"}}"#
        let escaped = step.replacingOccurrences(of: #""kind""#, with: #""\u006bind""#)
        let bodies = [
            #"{"samples":[\#(step)]}"#, "[\(escaped)]", "[]", " [ ] ", "", "[\(step)] x", "[\(step)]]", "[\(step),]",
            "[\(step)", "[\(step) \(step)]", "  [\n\(step)\n]\n",
            "[" + String(repeating: "[", count: 100_000), "[{\"kind\":" + String(repeating: "[", count: 100_000),
            "[" + String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000) + "]",
            // A number out of its field's range, and a broken one.
            "[\(step.replacingOccurrences(of: "120", with: "1e400"))]",
            "[\(step),\(step.replacingOccurrences(of: "120", with: "1e-400"))]",
            "[\(step.replacingOccurrences(of: "120", with: "1e"))]",
        ]
        var random = SeededGenerator(seed: 3_403)
        for body in bodies {
            let bytes = Array(body.utf8)
            let expected = Self.outcome { try SampleBatch(json: Data(bytes)) }
            let reader = Self.read(Self.chunks(bytes, largest: 16, using: &random))
            #expect(Self.outcome { try reader.finish() } == expected, "\(body.prefix(120))")
        }
    }
}
