import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

@Suite("Binary payload codec", .ownThread)
struct CodecTests {
    @Test("random objects of every kind round-trip exactly, field for field", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        var generator = ObjectGenerator(seed: seed)
        var decoder = PayloadDecoder()
        for _ in 0..<2_000 {
            let object = generator.object()
            let bytes = PayloadCodec.encode(object)
            let back = try decoder.decode(bytes)
            #expect(identical(object, back), "\(object.sampleTypeDescription)")
            #expect(PayloadCodec.encode(back) == bytes)
        }
    }

    @Test("the fast paths for plain quantity samples write and read exactly what the general ones do")
    func fastPaths() throws {
        var generator = ObjectGenerator(seed: 13)
        var decoder = PayloadDecoder()
        for _ in 0..<500 {
            let full = generator.quantitySample()
            let plain = try HKQuantitySample.make(
                type: full.quantityType,
                quantity: full.quantity,
                SampleFields(
                    start: full.startDate,
                    end: full.endDate,
                    uuid: full.uuid,
                    sourceRevision: full.sourceRevision,
                    device: nil,
                    metadata: .empty
                )
            )
            let bytes = PayloadCodec.encode(plain)
            #expect(bytes == PayloadCodec.encodeGeneral(plain))
            // Twice: the second decode takes the fast path.
            #expect(identical(try decoder.decode(bytes), plain))
            #expect(identical(try decoder.decode(bytes), plain))
        }
    }

    @Test("OBJ-12: decoded quantity samples are cumulative or discrete by their type's style")
    func concreteClasses() throws {
        var generator = ObjectGenerator(seed: 4)
        let steps = generator.quantitySample(type: .stepCount)
        let weight = generator.quantitySample(type: .bodyMass)
        #expect(try PayloadCodec.decode(PayloadCodec.encode(steps)) is HKCumulativeQuantitySample)
        #expect(try PayloadCodec.decode(PayloadCodec.encode(weight)) is HKDiscreteQuantitySample)
    }

    @Test("PAYLOAD-1: a version this library does not know is refused with a typed error")
    func unknownVersion() throws {
        var generator = ObjectGenerator(seed: 5)
        var bytes = PayloadCodec.encode(generator.quantitySample())
        bytes[0] = 2
        #expect {
            try PayloadCodec.decode(bytes)
        } throws: { error in
            (error as? HKError)?.rule == "PAYLOAD-1"
        }
    }

    @Test("hostile bytes: 200,000 random and mutated payloads give only typed errors or valid objects")
    func fuzz() throws {
        var generator = ObjectGenerator(seed: 6)
        var random = SeededGenerator(seed: 7)
        let valid = (0..<64).map { _ in PayloadCodec.encode(generator.object()) }
        var decoder = PayloadDecoder()
        var rejected = 0
        for round in 0..<200_000 {
            var bytes: [UInt8]
            switch round % 4 {
            case 0:
                bytes = (0..<Int.random(in: 0...200, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            case 1:
                // A valid header, then noise.
                bytes = [1, UInt8.random(in: 1...4, using: &random)]
                bytes += (0..<Int.random(in: 0...120, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            default:
                bytes = valid[Int.random(in: 0..<valid.count, using: &random)]
                for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0...2, using: &random) {
                    case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                    case 1: bytes.removeSubrange(index...)
                    default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                    }
                }
            }
            do {
                let object = try decoder.decode(bytes)
                // Whatever decodes is a valid object that re-encodes and decodes.
                #expect(identical(object, try PayloadCodec.decode(PayloadCodec.encode(object))))
            } catch {
                rejected += 1
                #expect(error.code == .errorInvalidArgument && error.rule != nil)
            }
        }
        #expect(rejected > 150_000)
    }

    @Test("huge declared lengths and counts are refused before allocating")
    func hugeCounts() throws {
        var generator = ObjectGenerator(seed: 8)
        let sample = generator.quantitySample()
        var bytes = PayloadCodec.encode(sample)
        // The revision block length follows version, kind, uuid and flags.
        bytes.replaceSubrange(19..<20, with: [0xFF, 0xFF, 0xFF, 0xFF, 0x0F])
        #expect(throws: HKError.self) { try PayloadCodec.decode(bytes) }
    }

    @Test("payloads of quantity samples are compact")
    func compact() throws {
        let steps = try HKQuantitySample.make(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: 1_200),
            SampleFields(
                start: day,
                end: minutes(10),
                uuid: UUID(),
                sourceRevision: HKSourceRevision(
                    source: HKSource(name: "Health", bundleIdentifier: "com.apple.health"),
                    version: "17"
                ),
                device: nil,
                metadata: .empty
            )
        )
        let bytes = PayloadCodec.encode(steps)
        // header 2, uuid 16, flags 1, revision 1 + (7 + 17 + 1 + 3 + 3), type 2, dates 16, value 8, unit 6.
        #expect(bytes.count == 83, "\(bytes.count) bytes")
    }
}

extension HKObject {
    var sampleTypeDescription: String { (self as? HKSample)?.sampleType.identifier ?? "object" }
}
