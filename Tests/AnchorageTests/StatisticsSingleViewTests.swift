import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@_spi(Benchmarks) @testable import Anchorage

/// HKStatisticsQuery answered from the statistics views against the
/// reference evaluator (ST-6, ST-21, ST-24).
@Suite("Statistics queries from the views")
struct StatisticsSingleViewTests {
    /// A random statistics query: type, combinable options, predicate.
    struct Query: CustomStringConvertible {
        var type: HKQuantityType
        var options: HKStatisticsOptions
        var predicate: ObjectPredicate?

        init(_ random: inout SeededGenerator) {
            type = StatisticsPropertyTests.types.randomElement(using: &random)!
            var options: HKStatisticsOptions =
                type == stepType
                ? [.cumulativeSum]
                : [[.discreteMin], [.discreteMax], [.discreteMin, .discreteMax]]
                    .randomElement(using: &random)!
            for extra in [HKStatisticsOptions.separateBySource, .duration] where Bool.random(using: &random) {
                options.insert(extra)
            }
            self.options = options
            let base = StatisticsPropertyTests.base
            // Ranges on quarter hours, on any second, open at one end or both.
            func date() -> Date {
                let quarter = Bool.random(using: &random)
                let seconds = Int.random(in: -86_400...(22 * 86_400), using: &random)
                return base.addingTimeInterval(Double(quarter ? seconds / 900 * 900 : seconds))
            }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: predicate = nil
            case 1: predicate = .dateRange(start: date(), end: nil, options: [])
            case 2: predicate = .dateRange(start: nil, end: date(), options: [])
            default:
                let (a, b) = (date(), date())
                predicate = .dateRange(start: min(a, b), end: max(a, b), options: [])
            }
        }

        var description: String { "\(type.identifier) \(options.rawValue) \(String(describing: predicate))" }
    }

    @Test(
        "ST-21: statistics queries from the views and from the reference evaluator equal an independent oracle's, full samples counted once; the views answer a third or more",
        arguments: testSeeds([4, 5, 6])
    )
    func viewsMatchOracle(seed: UInt64) async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { owner, directory in
            var random = SeededGenerator(seed: seed)
            // Every other seed saves samples of several quantities too
            // (SERIES-6): the reference evaluator answers those types.
            let withSeries = seed % 2 == 0
            var apps: [HKHealthStore] = []
            for bundle in StatisticsPropertyTests.bundles { apps.append(try await appStore(directory, bundle)) }
            let engine = try await owner.engine()
            var sources = StatisticsPropertyTests.FirstSaves()
            var asked = 0
            let servedBefore = engine.counters.statisticsFromViews
            for _ in 0..<3 {
                try await StatisticsPropertyTests.history(
                    owner: owner,
                    apps: apps,
                    count: 30,
                    random: &random,
                    sources: &sources,
                    series: withSeries
                )
                for _ in 0..<40 {
                    let query = Query(&random)
                    asked += 1
                    let oracle = try await StatisticsPropertyTests.oracle(
                        owner,
                        type: query.type,
                        predicate: query.predicate,
                        sources: sources
                    )
                    let expected = oracle.single(options: query.options)
                    let reference = try engine.referenceStatistics(
                        of: query.type,
                        predicate: query.predicate,
                        options: query.options,
                        caller: owner.caller
                    )
                    let answered = try engine.statistics(
                        of: query.type,
                        predicate: query.predicate,
                        options: query.options,
                        caller: owner.caller
                    )
                    for (what, statistics) in [("reference", reference), ("answer", answered)] {
                        switch (expected, statistics) {
                        case (nil, nil): break
                        case (let expected?, let statistics?):
                            #expect(
                                expected.matches(statistics, unit: query.type.canonicalUnit),
                                "\(what): \(query): \(expected)"
                            )
                        default:
                            Issue.record("\(what): one is empty, the other not: \(query)")
                        }
                    }
                }
            }
            // Long samples reaching the range are added to the rows, so the
            // views answer all but the queries whose range holds no whole
            // quarter hour: 118 of 120 with this seed.
            let served = engine.counters.statisticsFromViews - servedBefore
            #expect(withSeries || served * 10 >= asked * 9, "the views answered \(served) of \(asked) queries")
            for app in apps { await app.close() }
        }
    }

    @Test("ST-21: a long sample across the range's edge is counted in full, and a year of minutes reads few samples")
    func fullSamplesAndCost() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            let base = StatisticsPropertyTests.base
            // Ten days of one-minute step samples, and one 3-hour sample
            // across the range's start.
            var batch: [HKQuantitySample] = []
            for minute in 0..<(10 * 1_440) where minute % 3 == 0 {
                let start = base.addingTimeInterval(Double(minute * 60))
                batch.append(steps(30, from: start, to: start.addingTimeInterval(60)))
            }
            let long = steps(
                900,
                from: base.addingTimeInterval(86_400 - 5_400),
                to: base.addingTimeInterval(86_400 + 5_400)
            )
            try await store.save(batch + [long])
            let engine = try await store.engine()
            let range = ObjectPredicate.dateRange(
                start: base.addingTimeInterval(86_400),
                end: base.addingTimeInterval(9 * 86_400 + 123),
                options: []
            )
            let servedBefore = engine.counters.statisticsFromViews
            let viewed = try #require(
                try engine.statistics(of: stepType, predicate: range, options: .cumulativeSum, caller: store.caller)
            )
            #expect(engine.counters.statisticsFromViews == servedBefore + 1, "the views answered")
            let reference = try #require(
                try engine.referenceStatistics(
                    of: stepType,
                    predicate: range,
                    options: .cumulativeSum,
                    caller: store.caller
                )
            )
            #expect(StatisticsPropertyTests.agree(viewed, reference))
            // 8 days of samples (160 per day × 30) plus the long one, whole.
            let expected = Double((8 * 1_440 + 3) / 3) * 30 + 900
            #expect(abs((viewed.sumQuantity()?.doubleValue(for: .count()) ?? 0) - expected) < 1e-6)
            #expect(viewed.startDate == long.startDate, "the long sample starts the interval")
        }
    }
}
