import Anchorage
import AnchorageService
import AnchorageTesting
import Foundation
import NIOCore
import Testing

@Suite("Statistics rows written by hand")
struct StatisticsRowJSONTests {
    @Test(
        "a row's hand-written JSON is byte for byte what JSONEncoder writes, for random values and absences",
        arguments: testSeeds([0x50E])
    )
    func sameBytesAsJSONEncoder(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
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
            // Whole seconds (written by hand) and fractions (through format).
            let start = Date(
                timeIntervalSince1970: Double(Int.random(in: -3_000_000_000...8_000_000_000, using: &random))
            )
            var row = StatisticsRow(
                startDate: start,
                endDate: start.addingTimeInterval(Bool.random(using: &random) ? 1.5 : 900)
            )
            row.values.sum = value()
            row.values.average = value()
            row.values.min = value()
            row.values.max = value()
            row.values.mostRecent = value()
            row.values.duration = value()
            row.values.mostRecentStartDate = Bool.random(using: &random) ? start.addingTimeInterval(0.25) : nil
            if Bool.random(using: &random) {
                // Bundle identifiers and names are anyone's text: quotes, slashes, non-ASCII.
                row.sources = (0..<Int.random(in: 0...3, using: &random)).map { number in
                    var source = StatisticsSourceValues(
                        bundleIdentifier: "com.example.\(number)\"/",
                        name: "Ünïcødé \\ \(number) \u{1}"
                    )
                    source.values.sum = value()
                    source.values.average = value()
                    source.values.mostRecentStartDate = Bool.random(using: &random) ? start : nil
                    return source
                }
            }
            var bytes: [UInt8] = []
            row.appendJSON(to: &bytes)
            let expected = try encoder.encode(row)
            #expect(bytes == Array(expected), "row \(index): \(String(decoding: bytes, as: UTF8.self))")
        }
    }
}

extension StatisticsRowJSONTests {
    @Test(
        "a whole answer, empty buckets written from their bounds alone, is byte for byte what JSONEncoder writes of every bucket's row (ST-38)"
    )
    func wholeAnswerSameBytes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-rows-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = HKHealthStore(directory: directory)
        let start = Date(timeIntervalSince1970: 1_717_200_000)
        let steps = HKQuantityType(.stepCount)
        let heartRate = HKQuantityType(.heartRate)
        let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())
        var samples: [HKObject] = []
        for index in [3, 4, 40, 41, 42, 90] {
            let from = start.addingTimeInterval(Double(index) * 60 + 5)
            samples.append(
                HKQuantitySample(
                    type: steps,
                    quantity: HKQuantity(unit: .count(), doubleValue: Double(index) / 3),
                    start: from,
                    end: from.addingTimeInterval(90)
                )
            )
            samples.append(
                HKQuantitySample(
                    type: heartRate,
                    quantity: HKQuantity(unit: beatsPerMinute, doubleValue: 60 + Double(index) / 7),
                    start: from,
                    end: from
                )
            )
        }
        try await store.save(samples)
        let end = start.addingTimeInterval(2 * 3600 - 1)
        let cases: [(HKQuantityType, HKStatisticsOptions, HKUnit)] = [
            (steps, .cumulativeSum, .count()), (steps, [.cumulativeSum, .duration], .count()),
            (steps, [.cumulativeSum, .mostRecent], .count()),
            (heartRate, [.discreteAverage, .discreteMin, .discreteMax, .mostRecent], beatsPerMinute),
            (heartRate, [.discreteAverage, .duration], beatsPerMinute),
        ]
        for (type, options, unit) in cases {
            let descriptor = HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: type),
                options: options,
                anchorDate: start,
                intervalComponents: DateComponents(minute: 1)
            )
            let collection = try descriptor.computedResult(for: store, from: start, to: end)
            let answer = try StatisticsTable(
                collection,
                from: start,
                to: end,
                unit: unit,
                timeZone: TimeZone(identifier: "UTC")!,
                intervalText: "1min",
                timeZoneText: "UTC"
            ).json(buckets: 120)
            var rows: [StatisticsRow] = []
            collection.enumerateStatistics(from: start, to: end) { statistics, _ in
                rows.append(StatisticsRow(statistics, options: options, unit: unit))
            }
            #expect(rows.count == 120)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let expected = try encoder.encode(
                StatisticsTable.Frame(
                    type: type.identifier,
                    unit: unit.unitString,
                    options: StatisticsTable.names(of: options),
                    interval: "1min",
                    timeZone: "UTC",
                    statistics: rows
                )
            )
            #expect(
                String(decoding: answer.readableBytesView, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                "\(type.identifier) \(options)"
            )
        }
        await store.close()
    }
}
