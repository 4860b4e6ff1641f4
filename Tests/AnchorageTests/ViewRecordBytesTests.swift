import AnchorageModel
import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// The bytes of a view bucket's record (``ViewRecord/withBytes(merged:style:_:)``):
/// every statistic a type's style allows reads back exactly, and bytes that
/// are not a record read as none.
@Suite("Statistics views: the bytes of a bucket's record")
struct ViewRecordBytesTests {
    static let styles: [HKQuantityAggregationStyle] = [
        .cumulative, .discreteArithmetic, .discreteTemporallyWeighted, .discreteEquivalentContinuousLevel,
    ]

    /// The options HealthKit allows for a style, each alone and all at once.
    static func options(for style: HKQuantityAggregationStyle) -> [HKStatisticsOptions] {
        let own: [HKStatisticsOptions] =
            style == .cumulative ? [.cumulativeSum] : [.discreteAverage, .discreteMin, .discreteMax]
        let all = own + [.mostRecent, .duration]
        return all + [all.reduce(into: []) { $0.formUnion($1) }]
    }

    /// Random samples around a window, of one source or several.
    static func samples(_ random: inout SeededGenerator, window: StatisticsWindow) -> [StatisticsSample] {
        let sources = UInt32.random(in: 1...3, using: &random)
        return (0..<Int.random(in: 1...6, using: &random)).map { position in
            let start = window.start + Double(Int.random(in: -600...800, using: &random))
            let span = Bool.random(using: &random) ? 0 : Double(Int.random(in: 1...1_200, using: &random))
            return StatisticsSample(
                start: start,
                end: start + span,
                value: Bool.random(using: &random) ? 72 : Double.random(in: 0...200, using: &random),
                seq: UInt64(position + 1),
                source: UInt32.random(in: 1...sources, using: &random),
                rank: 0
            )
        }
    }

    @Test(
        "ST-10, ST-11, ST-14, ST-20, ST-24: records of random samples and their combinations read back with every statistic their style allows, merged and by source"
    )
    func roundTrip() throws {
        var random = SeededGenerator(seed: 51)
        var checked = 0
        var sizes: [Int] = []
        for round in 0..<2_000 {
            let style = Self.styles[round % Self.styles.count]
            let windows = (0..<3).map { ViewLevel.window(level: 0, bucket: 40 + Int64($0)) }
            var pieces: [ViewRecord?] = []
            for window in windows {
                let samples = Self.samples(&random, window: window)
                pieces.append(
                    ViewRecord(samples, in: window, mergedSum: ReferenceStatistics.mergedSum(samples, in: window))
                )
            }
            // A fine bucket's record, or a roll-up's (the combination of its children).
            let record = round % 3 == 0 ? pieces[0] : ViewRecord.combine(pieces)
            guard let record else { continue }
            for merged in [true, false] {
                let source = merged ? StatisticsViews.merged : record.sole == 0 ? 2 : record.sole
                let read = try #require(
                    record.withBytes(merged: merged, style: style) { bytes in
                        sizes.append(bytes.count)
                        return ViewRecord(bytes, source: source)
                    }
                )
                #expect(read.presence == record.presence)
                if merged { #expect(read.sole == record.sole) } else { #expect(read.sole == source) }
                for options in Self.options(for: style) {
                    let expected = record.values(style: style, options: options)
                    let values = read.values(style: style, options: options)
                    #expect(
                        values == expected || (values.average?.isNaN == true && expected.average?.isNaN == true),
                        "\(style) \(options): \(values) ≠ \(expected)"
                    )
                    if merged && record.sole != 0 && style == .cumulative {
                        // One source: the all-sources record is that source's, plain sum and all.
                        #expect(
                            read.asSource.values(style: style, options: options)
                                == record.asSource.values(style: style, options: options)
                        )
                    }
                    checked += 1
                }
                // The same bytes again: rebuilt views are byte-identical.
                let again = read.withBytes(merged: merged, style: style) { Array($0) }
                #expect(again == record.withBytes(merged: merged, style: style) { Array($0) })
            }
        }
        #expect(checked > 10_000)
        // A bucket of one sample is small; none takes more than the fixed layout did.
        #expect(sizes.min()! <= 40 && sizes.max()! <= ViewRecord.maximumSize)
    }

    @Test(
        "Bytes that are not a record (truncated, too long, unknown fields, random) read as none, without crashing",
        .ownThread
    )
    func hostileBytes() throws {
        var random = SeededGenerator(seed: 7)
        let samples = [StatisticsSample(start: 36_000, end: 36_300, value: 12, seq: 4, source: 2, rank: 0)]
        let record = try #require(ViewRecord(samples, in: ViewLevel.window(level: 0, bucket: 40)))
        let bytes = record.withBytes(merged: true, style: .cumulative) { Array($0) }
        #expect(bytes.withUnsafeBytes { ViewRecord($0, source: 0) } != nil)
        for cut in 0..<bytes.count {
            #expect(bytes.prefix(cut).withUnsafeBytes { ViewRecord($0, source: 0) } == nil, "cut at \(cut)")
        }
        #expect((bytes + [0]).withUnsafeBytes { ViewRecord($0, source: 0) } == nil)
        var unknown = bytes
        unknown[0] |= 0x10  // bit 28
        #expect(unknown.withUnsafeBytes { ViewRecord($0, source: 0) } == nil)
        // A source's row never holds the all-sources fields (here its sole source, 2).
        #expect(bytes.withUnsafeBytes { ViewRecord($0, source: 3) } == nil)
        var decoded = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...80, using: &random)
            let noise = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            if noise.withUnsafeBytes({ ViewRecord($0, source: 0) }) != nil { decoded += 1 }
        }
        // Random bytes are rarely a record; those that are read without trapping.
        #expect(decoded < 20_000)
    }
}
