import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageModel

@Suite("JSON forms", .ownThread)
struct JSONTests {
    @Test("random objects of every kind round-trip through JSON exactly", arguments: [11, 12] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        var generator = ObjectGenerator(seed: seed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for _ in 0..<500 {
            let object = generator.object()
            let json = try encoder.encode(HealthObject(object))
            let back = try JSONDecoder().decode(HealthObject.self, from: json).object
            #expect(identical(object, back), "\(String(decoding: json, as: UTF8.self).prefix(300))")
            #expect(try encoder.encode(HealthObject(back)) == json)
        }
    }

    @Test("the documented shape of a quantity sample")
    func shape() throws {
        let sample = try HKQuantitySample.make(
            type: HKQuantityType(.heartRate),
            quantity: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 72),
            SampleFields(
                start: day,
                end: day.addingTimeInterval(0.25),
                uuid: UUID(uuidString: "6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B")!,
                sourceRevision: HKSourceRevision(
                    source: HKSource(name: "Watch", bundleIdentifier: "com.example.watch"),
                    version: "9"
                ),
                device: nil,
                metadata: HKMetadata(values: [HKMetadataKeyHeartRateMotionContext: .integer(1)])
            )
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(HealthObject(sample)), as: UTF8.self)
        let expected =
            #"{"endDate":"2026-03-10T00:00:00.25Z","kind":"quantitySample","metadata":{"HKMetadataKeyHeartRateMotionContext":{"integer":1}},"#
            + #""quantity":{"unit":"count\/min","value":72},"sourceRevision":{"operatingSystemVersion":"0.0.0","source":{"bundleIdentifier":"com.example.watch","name":"Watch"},"version":"9"},"#
            + #""startDate":"2026-03-10T00:00:00Z","type":"HKQuantityTypeIdentifierHeartRate","uuid":"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B"}"#
        #expect(json == expected)
    }

    @Test(
        "bad JSON is a thrown error naming the rule, never a stopped program",
        arguments: [
            (
                "{\"kind\":\"quantitySample\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKQuantityTypeIdentifierStepCount\",\"startDate\":\"2026-03-10T01:00:00Z\",\"endDate\":\"2026-03-10T00:00:00Z\",\"quantity\":{\"value\":1,\"unit\":\"count\"}}",
                "OBJ-7"
            ),
            (
                "{\"kind\":\"quantitySample\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKQuantityTypeIdentifierStepCount\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T00:00:00Z\",\"quantity\":{\"value\":1,\"unit\":\"kg\"}}",
                "OBJ-10"
            ),
            (
                "{\"kind\":\"quantitySample\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKQuantityTypeIdentifierNope\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T00:00:00Z\",\"quantity\":{\"value\":1,\"unit\":\"count\"}}",
                "OBJ-11"
            ),
            (
                "{\"kind\":\"quantitySample\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKQuantityTypeIdentifierStepCount\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T00:00:00Z\",\"quantity\":{\"value\":1,\"unit\":\"cnt\"}}",
                "UNIT-1"
            ),
            (
                "{\"kind\":\"categorySample\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKCategoryTypeIdentifierSleepAnalysis\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T00:00:00Z\",\"value\":9}",
                "OBJ-13"
            ),
            (
                "{\"kind\":\"categorySample\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKCategoryTypeIdentifierSleepAnalysis\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T00:00:00Z\",\"value\":1,\"metadata\":{\"HKNope\":{\"bool\":true}}}",
                "OBJ-6"
            ),
            (
                "{\"kind\":\"categorySample\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKCategoryTypeIdentifierSleepAnalysis\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T00:00:00Z\",\"value\":1,\"metadata\":{\"k\":{\"bool\":true,\"string\":\"x\"}}}",
                "OBJ-4"
            ),
            (
                "{\"kind\":\"correlation\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKCorrelationTypeIdentifierFood\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T00:00:00Z\",\"objects\":[{\"kind\":\"correlation\"}]}",
                "OBJ-18"
            ),
            (
                "{\"kind\":\"correlation\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKCorrelationTypeIdentifierBloodPressure\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T00:00:00Z\",\"objects\":[]}",
                "OBJ-16"
            ),
            (
                "{\"kind\":\"workout\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKWorkoutTypeIdentifier\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T01:00:00Z\",\"workoutActivityType\":37,\"workoutEvents\":[{\"type\":2,\"start\":\"2026-03-10T00:10:00Z\",\"end\":\"2026-03-10T00:10:00Z\"}]}",
                "OBJ-23"
            ),
            (
                "{\"kind\":\"workout\",\"uuid\":\"6A0E5C2B-1F0B-4C5E-9A52-8C5D1F2E3A4B\",\"type\":\"HKWorkoutTypeIdentifier\",\"startDate\":\"2026-03-10T00:00:00Z\",\"endDate\":\"2026-03-10T01:00:00Z\",\"workoutActivityType\":37,\"totalDistance\":{\"value\":1,\"unit\":\"kcal\"}}",
                "OBJ-21"
            ),
        ]
    )
    func badObjects(json: String, rule: String) {
        #expect {
            try JSONDecoder().decode(HealthObject.self, from: Data(json.utf8))
        } throws: { error in
            (error as? HKError)?.rule == rule
        }
    }

    @Test("structurally broken JSON is a DecodingError")
    func brokenJSON() {
        for json in [
            "", "[", "{\"kind\":\"blob\"}", "{\"kind\":\"quantitySample\"}",
            "{\"kind\":\"quantitySample\",\"uuid\":\"x\"}",
        ] {
            #expect(throws: (any Error).self) { try JSONDecoder().decode(HealthObject.self, from: Data(json.utf8)) }
        }
    }

    @Test("ISO 8601 dates: exact round trips over a wide range, offsets and fractions parse, junk does not")
    func dates() {
        var random = SeededGenerator(seed: 9)
        for _ in 0..<20_000 {
            let date = Date(
                timeIntervalSinceReferenceDate: Double.random(in: -60_000_000_000...200_000_000_000, using: &random)
            )
            let text = ISO8601.format(date)
            #expect(ISO8601.parse(text) == date, "\(text)")
        }
        // Appending writes what format does: whole seconds by hand, the rest through format.
        let edges: [Double] = [
            0, -1, 1e15, -1e15, 1e16, -63_114_076_800, -63_114_076_801, 252_423_993_599, 252_423_993_600,
        ]
        for seconds in edges
            + (0..<20_000).map({ index in
                let value = Double.random(in: -80_000_000_000...260_000_000_000, using: &random)
                return index.isMultiple(of: 2) ? value.rounded(.down) : value
            })
        {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            ISO8601.append(date, to: &bytes)
            #expect(bytes == Array(("[" + ISO8601.format(date)).utf8), "\(seconds)")
        }
        #expect(ISO8601.parse("2001-01-01T00:00:00Z") == Date(timeIntervalSinceReferenceDate: 0))
        #expect(ISO8601.format(Date(timeIntervalSinceReferenceDate: 0)) == "2001-01-01T00:00:00Z")
        #expect(ISO8601.parse("2026-03-10T01:00:00+01:00") == day)
        #expect(ISO8601.parse("2026-03-09T23:30:00-00:30") == day)
        #expect(ISO8601.parse("2024-02-29T12:00:00.5Z") == Date(timeIntervalSince1970: 1_709_208_000.5))
        for junk in [
            "", "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-03-10 00:00:00Z", "2026-03-10T24:00:00Z",
            "2026-03-10T00:00:00", "2026-03-10T00:00:00.Z", "2026-03-10T00:00:00+1:00", "２０２６-03-10T00:00:00Z",
        ] {
            #expect(ISO8601.parse(junk) == nil, "\(junk)")
        }
    }
}
