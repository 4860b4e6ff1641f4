import AnchorageStoreTesting
import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@_spi(Benchmarks) @testable import Anchorage

/// The reference evaluator's sweep and collections limited to the buckets
/// asked for, against the plainest model: every bucket evaluated alone from
/// every sample (ST-20, ST-36..38).
@Suite("Statistics over the buckets asked for", .ownThread)
struct StatisticsRangeTests {
    /// Each bucket of `range` from all of `samples`, one at a time.
    static func bucketByBucket(
        _ samples: StatisticsSamples,
        grid: BucketGrid,
        range: ClosedRange<Int>,
        type: HKQuantityType,
        options: HKStatisticsOptions
    ) -> [Int: HKStatistics] {
        var buckets: [Int: HKStatistics] = [:]
        for index in range {
            let bounds = grid.interval(index)
            let window = StatisticsWindow(
                start: bounds.start.timeIntervalSinceReferenceDate,
                end: bounds.end.timeIntervalSinceReferenceDate,
                closed: false
            )
            let statistics = ReferenceStatistics.statistics(
                samples.samples,
                sources: samples.sources,
                in: window,
                type: type,
                options: options
            )
            if let statistics { buckets[index] = statistics }
        }
        return buckets
    }

    @Test(
        "The sweep, a range of it, and a store query limited to the dates asked for equal bucket-by-bucket evaluation",
        arguments: [UInt64(11), 12, 13]
    )
    func rangesMatchBucketByBucket(seed: UInt64) async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { owner, directory in
            var random = SeededGenerator(seed: seed)
            var apps: [HKHealthStore] = []
            for bundle in StatisticsPropertyTests.bundles { apps.append(try await appStore(directory, bundle)) }
            let engine = try await owner.engine()
            var checked = 0
            for _ in 0..<3 {
                try await StatisticsPropertyTests.history(owner: owner, apps: apps, count: 40, random: &random)
                for _ in 0..<12 {
                    let query = StatisticsPropertyTests.Query(&random)
                    let grid = try BucketGrid(anchor: query.anchor, intervalComponents: query.interval, timeZone: utc)
                    let (samples, _) = try engine.statisticsSamples(
                        of: query.type,
                        predicate: query.predicate,
                        caller: owner.caller
                    )
                    // Dates within the data's three weeks, at most about 1,500 buckets apart.
                    let base = StatisticsPropertyTests.base
                    let from = base.addingTimeInterval(Double(Int.random(in: -86_400..<(22 * 86_400), using: &random)))
                    let first = grid.index(containing: from)
                    let last = first + Int.random(in: -1..<1_500, using: &random)
                    guard last >= first else {
                        let none = try await Self.descriptor(query).result(for: owner, from: from, to: from - 1)
                        #expect(none.buckets.isEmpty, "\(query)")
                        continue
                    }
                    let to = grid.start(of: last)
                    let range = first...last
                    let expected = Self.bucketByBucket(
                        samples,
                        grid: grid,
                        range: range,
                        type: query.type,
                        options: query.options
                    )
                    let full = ReferenceStatistics.collection(
                        samples,
                        grid: grid,
                        type: query.type,
                        options: query.options
                    )
                    let swept = ReferenceStatistics.collection(
                        samples,
                        grid: grid,
                        type: query.type,
                        options: query.options,
                        within: range
                    )
                    #expect(Set(swept.keys) == Set(expected.keys), "\(query) \(range)")
                    #expect(Set(full.keys.filter(range.contains)) == Set(expected.keys), "\(query) \(range)")
                    for (index, statistics) in expected {
                        // The same samples in the same order: equal to the last bit.
                        #expect(swept[index].map { Self.identical($0, statistics) } ?? false, "\(query) \(index)")
                        #expect(full[index].map { Self.identical($0, statistics) } ?? false, "\(query) \(index)")
                    }
                    // Through the store: the views where they may answer, the sweep elsewhere.
                    let limited = try await Self.descriptor(query).result(for: owner, from: from, to: to)
                    #expect(Set(limited.buckets.keys) == Set(expected.keys), "\(query) \(range)")
                    for (index, statistics) in expected {
                        let other = limited.buckets[index]
                        #expect(
                            other.map { StatisticsPropertyTests.agree(statistics, $0) } ?? false,
                            "\(query) \(index)"
                        )
                    }
                    #expect(
                        try Self.descriptor(query).bucketCount(for: owner, from: from, to: to) == range.count,
                        "\(query)"
                    )
                    checked += 1
                }
            }
            #expect(checked >= 20)
            for app in apps { await app.close() }
        }
    }

    @Test(
        "Instants and ends on bucket boundaries, gaps of empty buckets and ranges starting inside a sample (ST-18, ST-20)"
    )
    func boundaries() throws {
        let grid = try BucketGrid(
            anchor: iso("2024-01-01T00:00:00Z"),
            intervalComponents: DateComponents(hour: 1),
            timeZone: utc
        )
        let hour = 3_600.0
        let origin = iso("2024-01-01T00:00:00Z").timeIntervalSinceReferenceDate
        let source = HKSource(name: "Tests", bundleIdentifier: "com.example.tests")
        var builder = StatisticsSamplesBuilder(ranking: SourceRanking())
        func sample(_ start: Double, _ end: Double, _ value: Double, _ seq: UInt64) {
            builder.append(
                start: origin + start,
                end: origin + end,
                value: value,
                seq: seq,
                source: source,
                userEntered: false
            )
        }
        sample(hour, hour, 5, 1)  // an instant on the start of bucket 1
        sample(0, hour, 60, 2)  // ends where bucket 1 starts
        sample(2 * hour, 2 * hour, 7, 3)  // an instant on the start of bucket 2
        sample(30 * hour, 30 * hour + 10, 3, 4)  // after a gap of empty buckets
        sample(-5 * hour, 40 * hour, 450, 5)  // spans everything
        sample(40 * hour, 40 * hour, 1, 6)  // an instant where the long one ends
        let samples = builder.build()
        let type = HKQuantityType(.stepCount)
        for range in [-6...45, 1...1, 2...2, 31...40, 39...41, 100...120] {
            let expected = Self.bucketByBucket(samples, grid: grid, range: range, type: type, options: .cumulativeSum)
            let swept = ReferenceStatistics.collection(
                samples,
                grid: grid,
                type: type,
                options: .cumulativeSum,
                within: range
            )
            #expect(Set(swept.keys) == Set(expected.keys), "\(range)")
            for (index, statistics) in expected {
                #expect(swept[index].map { Self.identical($0, statistics) } ?? false, "\(range) \(index)")
            }
        }
        let all = ReferenceStatistics.collection(samples, grid: grid, type: type, options: .cumulativeSum)
        #expect(all.keys.sorted() == Array(-5...40))
        #expect(close(all[1]?.merged.sum, 5 + 10), "an instant and an hour of 450 over 45 hours")
    }

    @Test(
        "Long samples under many buckets: equal to the last bit to bucket-by-bucket evaluation, and evaluated once per set of samples, not once per bucket (ST-24, ST-36)",
        arguments: [UInt64(21), 22]
    )
    func longSamplesAreEvaluatedOncePerSet(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let grid = try BucketGrid(
            anchor: iso("2024-06-01T00:00:00Z"),
            intervalComponents: DateComponents(second: 1),
            timeZone: utc
        )
        let origin = iso("2024-06-01T00:00:00Z").timeIntervalSinceReferenceDate
        let year = 365 * 86_400.0
        let bundles = ["com.example.a", "com.example.b", "com.example.c"]
        let ranking = SourceRanking(priority: ["com.example.b"], firstSeen: ["com.example.a": 1, "com.example.c": 2])
        let buckets = 100_000
        var builder = StatisticsSamplesBuilder(ranking: ranking)
        var edgesInside = 0
        for seq in 0..<600 {
            // Most span years around the range; some start or end inside it.
            var start = origin - Double.random(in: 1...(5 * year), using: &random)
            var end = origin + Double.random(in: (Double(buckets) + 1)...(5 * year), using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0: start = origin + Double(Int.random(in: 0..<buckets, using: &random)) + 0.25
            case 1: end = origin + Double(Int.random(in: 0..<buckets, using: &random)) + 0.5
            case 2: end = origin + Double(Int.random(in: 0..<buckets, using: &random))
            default: break
            }
            if start > origin || end < origin + Double(buckets) { edgesInside += 1 }
            let bundle = bundles[seq % bundles.count]
            let userEntered = Int.random(in: 0..<50, using: &random) == 0
            builder.append(
                start: start,
                end: end,
                value: Double(Int.random(in: 1...100_000, using: &random)),
                seq: UInt64(seq + 1),
                source: HKSource(name: bundle, bundleIdentifier: bundle),
                userEntered: userEntered
            )
        }
        // A few short samples and instants among them.
        for seq in 600..<620 {
            let start = origin + Double(Int.random(in: 0..<buckets, using: &random))
            let bundle = bundles[seq % bundles.count]
            builder.append(
                start: start,
                end: start + [0, 0.5, 3][seq % 3],
                value: 7,
                seq: UInt64(seq + 1),
                source: HKSource(name: bundle, bundleIdentifier: bundle),
                userEntered: false
            )
            edgesInside += 1
        }
        var samples = builder.build()
        samples.samples.shuffle(using: &random)
        let cases: [(HKQuantityType, HKStatisticsOptions)] = [
            (HKQuantityType(.stepCount), [.cumulativeSum, .separateBySource, .duration, .mostRecent]),
            (HKQuantityType(.heartRate), [.discreteAverage, .discreteMin, .discreteMax, .separateBySource]),
        ]
        for (type, options) in cases {
            let range = 0...(buckets - 1)
            var sweep = ReferenceStatistics.Sweep(samples)
            let swept = sweep.buckets(grid: grid, type: type, options: options, within: range)
            #expect(swept.count == buckets, "every bucket is covered")
            // Each change of the set costs one evaluation where it happens and one after.
            #expect(sweep.evaluated <= 2 * 2 * edgesInside + 2, "\(sweep.evaluated) evaluations, \(edgesInside) edges")
            // Bucket-by-bucket over a sample of buckets, and every bucket near an edge.
            var checked = Set((0..<300).map { _ in Int.random(in: range, using: &random) })
            for sample in samples.samples {
                for time in [sample.start, sample.end] where time >= origin && time < origin + Double(buckets) {
                    let index = grid.index(containing: Date(timeIntervalSinceReferenceDate: time))
                    checked.formUnion((index - 1)...(index + 1))
                }
            }
            for index in checked where range.contains(index) {
                let expected = Self.bucketByBucket(
                    samples,
                    grid: grid,
                    range: index...index,
                    type: type,
                    options: options
                )
                #expect(
                    swept[index].map { other in expected[index].map { Self.identical(other, $0) } ?? false } ?? false,
                    "\(type.identifier) \(index)"
                )
            }
        }
    }

    /// Equal to the last bit: bounds, merged and per-source values.
    static func identical(_ a: HKStatistics, _ b: HKStatistics) -> Bool {
        a.startDate == b.startDate && a.endDate == b.endDate && a.merged == b.merged && a.bySource == b.bySource
    }

    static func descriptor(_ query: StatisticsPropertyTests.Query) -> HKStatisticsCollectionQueryDescriptor {
        var predicate: NSPredicate?
        if case .dateRange(let start, let end, let options) = query.predicate {
            predicate = HKQuery.predicateForSamples(withStart: start, end: end, options: options)
        }
        return HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: query.type, predicate: predicate),
            options: query.options,
            anchorDate: query.anchor,
            intervalComponents: query.interval
        )
    }
}
