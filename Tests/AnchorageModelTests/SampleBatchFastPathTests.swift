import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

/// `SampleBatch(json:)` reads the common batch with its own reader and
/// falls back to Foundation's `JSONDecoder` for everything else; the two
/// must agree wherever the fast one answers.
@Suite("A sample batch's fast reader agrees with JSONDecoder", .ownThread)
struct SampleBatchFastPathTests {
    /// A sample in the documented JSON form, written field by field, with
    /// its device and metadata when it has them.
    static func json(_ sample: HKSample) -> String {
        let revision = sample.sourceRevision
        var source =
            #""source":{"name":"\#(revision.source.name)","bundleIdentifier":"\#(revision.source.bundleIdentifier)"}"#
        if let version = revision.version { source += #","version":"\#(version)""# }
        if let productType = revision.productType { source += #","productType":"\#(productType)""# }
        let os = revision.operatingSystemVersion
        source += #","operatingSystemVersion":"\#(os.majorVersion).\#(os.minorVersion).\#(os.patchVersion)""#
        let common =
            #""uuid":"\#(sample.uuid.uuidString)","type":"\#(sample.sampleType.identifier)","#
            + #""startDate":"\#(ISO8601.format(sample.startDate))","endDate":"\#(ISO8601.format(sample.endDate))","#
            + #""sourceRevision":{\#(source)}"# + extras(sample)
        switch sample {
        case let quantity as HKQuantitySample:
            let value = quantity.quantity.doubleValue(for: quantity.quantity.unit)
            return
                #"{"kind":"quantitySample",\#(common),"quantity":{"value":\#(value),"unit":"\#(quantity.quantity.unit.unitString)"}}"#
        case let category as HKCategorySample:
            return #"{"kind":"categorySample",\#(common),"value":\#(category.value)}"#
        default:
            preconditionFailure("only quantity and category samples")
        }
    }

    /// `,"device":{…}` and `,"metadata":{…}`, each when the sample has one,
    /// every metadata value tagged with its kind.
    static func extras(_ sample: HKSample) -> String {
        var text = ""
        if let device = sample.device {
            let fields = zip(HKDevice.jsonFields, device.properties).compactMap { name, value in
                value.map { #""\#(name)":"\#($0)""# }
            }
            text += #","device":{\#(fields.joined(separator: ","))}"#
        }
        let metadata = sample.typedMetadata.values
        if !metadata.isEmpty {
            let fields = metadata.sorted { $0.key < $1.key }.map { key, value in
                let tagged: String =
                    switch value {
                    case .string(let text): #"{"string":"\#(text)"}"#
                    case .integer(let number): #"{"integer":\#(number)}"#
                    case .double(let number): #"{"double":\#(number)}"#
                    case .bool(let flag): #"{"bool":\#(flag)}"#
                    case .date(let date): #"{"date":"\#(ISO8601.format(date))"}"#
                    case .quantity(let quantity):
                        #"{"quantity":{"value":\#(quantity.value),"unit":"\#(quantity.unit.unitString)"}}"#
                    }
                return #""\#(key)":\#(tagged)"#
            }
            text += #","metadata":{\#(fields.joined(separator: ","))}"#
        }
        return text
    }

    /// Objects in a comparable form: their canonical JSON.
    static func canonical(_ objects: [HKObject]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(objects.map(HealthObject.init)), as: UTF8.self)
    }

    static func batches(seed: UInt64, count: Int) -> [String] {
        var generator = ObjectGenerator(seed: seed)
        return (0..<count).map { _ in
            let samples: [HKSample] = (0..<generator.int(1...6)).map { _ in
                generator.bool() ? generator.quantitySample() : generator.categorySample()
            }
            return "[" + samples.map(json).joined(separator: generator.bool() ? "," : " ,\n ") + "]"
        }
    }

    /// `text` cut, or with a byte removed, added or changed (to one that
    /// matters to JSON or to UTF-8).
    static func damaged(_ text: String, using random: inout SeededGenerator) -> [UInt8] {
        let significant = Array(#"{}[]:,"\ -.0123456789eEnulltruefalse"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF]
        var bytes = Array(text.utf8)
        let position = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0...3, using: &random) {
        case 0: bytes.removeSubrange(position...)
        case 1: bytes.remove(at: position)
        case 2: bytes.insert(significant.randomElement(using: &random)!, at: position)
        default: bytes[position] = significant.randomElement(using: &random)!
        }
        return bytes
    }

    @Test(
        "generated batches of quantity and category samples, with devices and metadata of every kind: the fast reader answers, with JSONDecoder's objects"
    )
    func agreesOnGenerated() throws {
        for text in Self.batches(seed: 34, count: 300) {
            let data = Data(text.utf8)
            let fast = try #require(data.withUnsafeBytes { SampleBatch.fast($0) }, "declined: \(text.prefix(300))")
            let reference = try SampleBatch.reference(json: data)
            #expect(try Self.canonical(fast) == Self.canonical(reference.objects))
            #expect(try Self.canonical(SampleBatch(json: data).objects) == Self.canonical(reference.objects))
        }
    }

    @Test(
        "damaged batches (cut, bytes removed, added or changed): wherever the fast reader answers, JSONDecoder answers the same; nothing crashes"
    )
    func agreesOnDamaged() throws {
        var random = SeededGenerator(seed: 3_434)
        var answered = 0
        for text in Self.batches(seed: 35, count: 200) {
            for _ in 0..<10 {
                let bytes = Self.damaged(text, using: &random)
                let data = Data(bytes)
                guard let fast = data.withUnsafeBytes({ SampleBatch.fast($0) }) else { continue }
                answered += 1
                let reference = try #require(
                    try? SampleBatch.reference(json: data),
                    "JSONDecoder refuses what the fast reader read: \(Data(bytes).base64EncodedString())"
                )
                #expect(
                    try Self.canonical(fast) == Self.canonical(reference.objects),
                    "\(String(decoding: bytes, as: UTF8.self).prefix(300))"
                )
            }
        }
        #expect(answered > 0, "some damage leaves a valid batch (a digit changed)")
    }

    @Test(
        "what the fast reader leaves to JSONDecoder still decodes: the {samples} form, unknown device fields, untagged or doubly tagged metadata, escapes, nulls, a repeated key; and errors are JSONDecoder's"
    )
    func declinesTheRest() throws {
        let step =
            #"{"kind":"quantitySample","uuid":"1D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B12","type":"HKQuantityTypeIdentifierStepCount","startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:10:00Z","quantity":{"value":120,"unit":"count"}"#
        let declined = [
            #"{"samples":[\#(step)}]}"#,
            #"[\#(step),"device":{"name":"Watch","colour":"red"}}]"#,
            #"[\#(step),"metadata":{"com.example.note":{"string":"x","colour":"red"}}}]"#,
            #"[\#(step),"sourceRevision":{"source":{"name":"A \"quoted\" app","bundleIdentifier":"com.example.a"}}}]"#,
            #"[\#(step),"sourceRevision":null}]"#,
            #"[\#(step),"uuid":"1D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B13"}]"#,
        ]
        for text in declined {
            let data = Data(text.utf8)
            #expect(data.withUnsafeBytes { SampleBatch.fast($0) } == nil, "\(text)")
            let batch = try SampleBatch(json: data)
            #expect(batch.objects.count == 1)
        }
        let broken = Data(
            "[\(step.replacingOccurrences(of: "1D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B12", with: "not a uuid"))}]".utf8
        )
        #expect(broken.withUnsafeBytes { SampleBatch.fast($0) } == nil)
        #expect(throws: (any Error).self) { try SampleBatch(json: broken) }
        for text in [
            #"[\#(step),"metadata":{"com.example.note":{"string":"x","integer":1}}}]"#,
            #"[\#(step),"metadata":{"com.example.note":{"integer":1.5}}}]"#,
            #"[\#(step),"metadata":{"com.example.note":{"double":1e999}}}]"#,
            #"[\#(step),"metadata":{"com.example.note":{}}}]"#,
        ] {
            let data = Data(text.utf8)
            #expect(data.withUnsafeBytes { SampleBatch.fast($0) } == nil, "\(text)")
            #expect(throws: (any Error).self, "\(text)") { try SampleBatch(json: data) }
        }
        let plain = Data("[\(step)}]".utf8)
        #expect(plain.withUnsafeBytes { SampleBatch.fast($0) }?.count == 1, "the common shape is read fast")
        let watch = Data(
            #"[\#(step),"device":{"name":"Watch"},"metadata":{"HKMetadataKeyHeartRateMotionContext":{"integer":1},"done":{"bool":false}}}]"#
                .utf8
        )
        let read = try #require(watch.withUnsafeBytes { SampleBatch.fast($0) }, "a watch's sample is read fast")
        #expect(try Self.canonical(read) == Self.canonical(SampleBatch.reference(json: watch).objects))
    }

    /// The fields of a sample without its kind and value, for the cases below.
    static let fields =
        #""uuid":"1D7C0C4B-8F57-4E43-9A55-5E0A8E1F4B12","startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:10:00Z""#

    /// A step sample whose quantity's value is written `value`.
    static func steps(_ value: String) -> String {
        #"{"kind":"quantitySample",\#(fields),"type":"HKQuantityTypeIdentifierStepCount","quantity":{"value":\#(value),"unit":"count"}}"#
    }

    /// A mindful session whose value is written `value`.
    static func mindful(_ value: String) -> String {
        #"{"kind":"categorySample",\#(fields),"type":"HKCategoryTypeIdentifierMindfulSession","value":\#(value)}"#
    }

    @Test(
        "a number that is JSON but does not fit its field is JSONNumberOutOfRange naming the field and what it takes, never the number, from the fast reader's fallback and from JSONDecoder alike; a broken number stays broken JSON"
    )
    func numbersOutOfRange() throws {
        let double = "a number of at most 1.7976931348623157e+308 in magnitude, and 0 or at least 5e-324 in magnitude"
        let int = "a whole number from -9223372036854775808 to 9223372036854775807"
        let cases: [(body: String, path: String, accepted: String)] = [
            ("[\(Self.steps("1e400"))]", "[0].quantity.value", double),
            ("[\(Self.steps("-1E+400"))]", "[0].quantity.value", double),
            ("[\(Self.steps("1e-400"))]", "[0].quantity.value", double),
            ("[\(Self.steps("12")),\(Self.steps("1e400"))]", "[1].quantity.value", double),
            (#"{"samples":[\#(Self.steps("1e400"))]}"#, "samples[0].quantity.value", double),
            ("[\(Self.mindful("99999999999999999999"))]", "[0].value", int),
            ("[\(Self.mindful("1.5"))]", "[0].value", int),
            ("[\(Self.mindful("-9223372036854775809"))]", "[0].value", int),
            (
                #"[{"kind":"workout",\#(Self.fields),"type":"HKWorkoutTypeIdentifier","workoutActivityType":-1}]"#,
                "[0].workoutActivityType", "a whole number from 0 to 18446744073709551615"
            ),
            (
                #"[\#(Self.steps("1").dropLast()),"metadata":{"com.example.note":{"integer":1e19}}}]"#,
                "[0].metadata.com.example.note.integer", int
            ),
            (
                #"[\#(Self.steps("1").dropLast()),"metadata":{"com.example.note":{"double":1e999}}}]"#,
                "[0].metadata.com.example.note.double", double
            ),
        ]
        for (body, path, accepted) in cases {
            let data = Data(body.utf8)
            #expect(data.withUnsafeBytes { SampleBatch.fast($0) } == nil, "\(body)")
            for decode: () throws -> SampleBatch in [
                { try SampleBatch(json: data) }, { try SampleBatch.reference(json: data) },
                {
                    var reader = SampleBatch.Reader()
                    data.withUnsafeBytes { reader.append($0) }
                    return try reader.finish()
                },
            ] {
                let error = try #require(throws: JSONNumberOutOfRange.self, "\(body)") { try decode() }
                #expect(error == JSONNumberOutOfRange(path: path, accepted: accepted), "\(body)")
                #expect(error.message == "the number at \(path) is out of range: the field takes \(accepted)")
            }
        }
        // Numbers that do not parse are broken JSON, whichever field they are in.
        for number in ["1e", "1.", "-", "01", "1e+", ".5", "+1", "0x10", "1e400x", "NaN", "Infinity"] {
            for body in ["[\(Self.steps(number))]", "[\(Self.mindful(number))]"] {
                let data = Data(body.utf8)
                #expect(data.withUnsafeBytes { SampleBatch.fast($0) } == nil, "\(body)")
                let error = try #require(throws: DecodingError.self, "\(body)") { try SampleBatch(json: data) }
                #expect(DecodingErrorWords.describe(error) == "the body is not valid JSON", "\(body)")
            }
        }
        // A number out of range beside broken JSON elsewhere: broken JSON.
        let both = Data("[\(Self.steps("1e400")),\(Self.steps("1e"))]".utf8)
        #expect(throws: DecodingError.self) { try SampleBatch(json: both) }
        // At a double's edges, in a quantity and in metadata: wherever the fast
        // reader answers, JSONDecoder answers the same; where JSONDecoder refuses,
        // the fast reader declines.
        let edges = [
            "1.7976931348623157e308", "-1.7976931348623157e308", "1.7976931348623159e308", "5e-324", "2.5e-324",
            "2e-324", "1e-400", "-1e-400", "0e400", "0.000e-999", "-0", "0.0", "1e-310",
            "123456789012345678901234567890",
        ]
        var answered = 0
        for value in edges {
            for body in [
                "[\(Self.steps(value))]",
                #"[\#(Self.steps("1").dropLast()),"metadata":{"note":{"double":\#(value)}}}]"#,
            ] {
                let data = Data(body.utf8)
                let fast = data.withUnsafeBytes { SampleBatch.fast($0) }
                switch Result(catching: { try SampleBatch.reference(json: data) }) {
                case .success(let reference):
                    if let fast {
                        answered += 1
                        #expect(try Self.canonical(fast) == Self.canonical(reference.objects), "\(body)")
                    }
                case .failure(let error):
                    #expect(fast == nil, "the fast reader reads what JSONDecoder refuses (\(error)): \(body)")
                }
            }
        }
        #expect(answered >= 10)
    }
}
