import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import LMDB
import Testing

@_spi(Benchmarks) @testable import Anchorage

/// The statistics views against the reference evaluator over random
/// histories and random queries (ST-16..39).
@Suite("Statistics properties")
struct StatisticsPropertyTests {
    static let base = iso("2026-03-01T00:00:00Z")  // New York springs forward on March 8
    static let zones = ["America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham", "UTC"]
    static let intervals: [DateComponents] = [
        DateComponents(minute: 1), DateComponents(minute: 15), DateComponents(minute: 45), DateComponents(hour: 1),
        DateComponents(hour: 6), DateComponents(day: 1), DateComponents(day: 7), DateComponents(weekOfYear: 1),
        DateComponents(month: 1), DateComponents(year: 1), DateComponents(hour: 1, minute: 30),
    ]
    static let bundles = ["com.example.watch", "com.example.phone", "com.example.scale"]
    static let massType = HKQuantityType(.bodyMass)
    static let types = [stepType, heartRateType, massType]

    /// A random quantity sample of `type` within three weeks of `base`.
    static func sample(
        _ type: HKQuantityType,
        _ random: inout SeededGenerator,
        sync: (String, Int)? = nil
    ) -> HKQuantitySample {
        let start = base.addingTimeInterval(Double(Int.random(in: 0..<(21 * 86_400), using: &random)))
        let shape = Int.random(in: 0..<50, using: &random)
        // Instants, intervals up to 6 hours, and a few around a day and up
        // to 10 days (those over a day are kept out of the views' rows).
        let length =
            switch shape {
            case 0..<10: 0.0
            case 10: Double(Int.random(in: (86_400 - 2)...(10 * 86_400), using: &random))
            default: Double(Int.random(in: 1...(6 * 3_600), using: &random))
            }
        var metadata: [String: Any] = [:]
        if let sync {
            metadata[HKMetadataKeySyncIdentifier] = sync.0
            metadata[HKMetadataKeySyncVersion] = sync.1
        }
        if Int.random(in: 0..<10, using: &random) == 0 { metadata[HKMetadataKeyWasUserEntered] = true }
        let value =
            switch type {
            case stepType: HKQuantity(unit: .count(), doubleValue: Double(Int.random(in: 1...2_000, using: &random)))
            case heartRateType:
                HKQuantity(unit: beatsPerMinute, doubleValue: Double.random(in: 40...180, using: &random))
            default: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: Double.random(in: 40...120, using: &random))
            }
        return HKQuantitySample(
            type: type,
            quantity: value,
            start: start,
            end: start.addingTimeInterval(length),
            metadata: metadata.isEmpty ? nil : metadata
        )
    }

    /// Random saves, deletes, sync identifier replacements and priority
    /// changes, from the owner and three apps.
    static func history(
        owner: HKHealthStore,
        apps: [HKHealthStore],
        count: Int,
        random: inout SeededGenerator
    ) async throws {
        var alive: [(store: HKHealthStore, id: UUID)] = []
        for _ in 0..<count {
            let store = ([owner] + apps).randomElement(using: &random)!
            let roll = Int.random(in: 0..<20, using: &random)
            if roll < 12 || alive.isEmpty {
                let batch = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                    sample(types.randomElement(using: &random)!, &random)
                }
                try await store.save(batch)
                alive += batch.map { (store, $0.uuid) }
            } else if roll < 16 {
                let position = Int.random(in: 0..<alive.count, using: &random)
                let victim = alive.remove(at: position)
                try await victim.store.delete([HKQuantitySample(uuidOnly: victim.id)])
            } else if roll < 19 {
                let identifier = "sync-\(Int.random(in: 0..<3, using: &random))"
                let replacement = sample(stepType, &random, sync: (identifier, Int.random(in: 0..<5, using: &random)))
                try await store.save(replacement)
                alive.append((store, replacement.uuid))
            } else {
                let order = bundles.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))
                try await owner.setSourcePriority(Array(order), for: types.randomElement(using: &random)!)
            }
        }
    }

    /// A random collection query: type, options, anchor, interval, zone and predicate.
    struct Query: CustomStringConvertible {
        var type: HKQuantityType
        var options: HKStatisticsOptions
        var anchor: Date
        var interval: DateComponents
        var predicate: ObjectPredicate?

        init(_ random: inout SeededGenerator) {
            type = StatisticsPropertyTests.types.randomElement(using: &random)!
            var options: HKStatisticsOptions =
                type == stepType ? [.cumulativeSum] : [.discreteAverage, .discreteMin, .discreteMax]
            for extra in [HKStatisticsOptions.separateBySource, .mostRecent, .duration]
            where Bool.random(using: &random) {
                options.insert(extra)
            }
            self.options = options
            // Often on a quarter hour, where the views answer; sometimes on any minute.
            let minutes =
                Bool.random(using: &random)
                ? 15 * Int.random(in: 0..<4, using: &random) : Int.random(in: 0..<60, using: &random)
            anchor = StatisticsPropertyTests.base.addingTimeInterval(
                Double(
                    Int.random(in: -400...400, using: &random) * 86_400 + Int.random(in: 0..<24, using: &random) * 3_600
                        + minutes * 60
                )
            )
            var interval = StatisticsPropertyTests.intervals.randomElement(using: &random)!
            interval.timeZone = TimeZone(identifier: StatisticsPropertyTests.zones.randomElement(using: &random)!)!
            self.interval = interval
            switch Int.random(in: 0..<3, using: &random) {
            case 0: predicate = nil
            default:
                let start = StatisticsPropertyTests.base.addingTimeInterval(
                    Double(Int.random(in: 0..<(10 * 96), using: &random) * 900)
                )
                let end = start.addingTimeInterval(Double(Int.random(in: 1..<(12 * 96), using: &random) * 900))
                predicate = .dateRange(start: start, end: end, options: [])
            }
        }

        var description: String {
            "\(type.identifier) \(options.rawValue) anchor \(anchor) every \(interval) \(String(describing: predicate))"
        }
    }

    /// Whether two statistics agree: sums within 1e-9 relative, the rest likewise.
    static func agree(_ a: HKStatistics, _ b: HKStatistics) -> Bool {
        func same(_ x: StatisticsValues, _ y: StatisticsValues) -> Bool {
            close(x.sum, y.sum) && close(x.average, y.average) && x.minimum == y.minimum && x.maximum == y.maximum
                && close(x.duration, y.duration, tolerance: 1e-9) && x.mostRecent?.start == y.mostRecent?.start
                && x.mostRecent?.end == y.mostRecent?.end && x.mostRecent?.value == y.mostRecent?.value
        }
        guard a.startDate == b.startDate, a.endDate == b.endDate, same(a.merged, b.merged) else { return false }
        guard Set(a.bySource.keys) == Set(b.bySource.keys) else { return false }
        return a.bySource.allSatisfy { same($0.value, b.bySource[$0.key]!) }
    }

    @Test(
        "The views and the reference evaluator agree on random histories and queries; rebuilt views are byte-identical",
        arguments: [UInt64(1), 2, 3]
    )
    func viewsMatchReference(seed: UInt64) async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { owner, directory in
            var random = SeededGenerator(seed: seed)
            var apps: [HKHealthStore] = []
            for bundle in Self.bundles { apps.append(try await appStore(directory, bundle)) }
            let engine = try await owner.engine()
            var served = 0
            var asked = 0
            for _ in 0..<4 {
                try await Self.history(owner: owner, apps: apps, count: 40, random: &random)
                for _ in 0..<25 {
                    let query = Query(&random)
                    let grid = try BucketGrid(anchor: query.anchor, intervalComponents: query.interval, timeZone: utc)
                    let (samples, _) = try engine.statisticsSamples(
                        of: query.type,
                        predicate: query.predicate,
                        caller: owner.caller
                    )
                    let expected = ReferenceStatistics.collection(
                        samples,
                        grid: grid,
                        type: query.type,
                        options: query.options
                    )
                    asked += 1
                    guard
                        let (viewed, _) = try engine.viewCollection(
                            of: query.type,
                            predicate: query.predicate,
                            options: query.options,
                            grid: grid,
                            caller: owner.caller
                        )
                    else { continue }
                    served += 1
                    #expect(Set(viewed.buckets.keys) == Set(expected.keys), "\(query)")
                    for (index, statistics) in expected {
                        guard let other = viewed.buckets[index] else { continue }
                        #expect(Self.agree(statistics, other), "\(query) bucket \(index)")
                    }
                }
            }
            #expect(served * 5 >= asked, "the views answered \(served) of \(asked) queries")
            let before = try viewDump(owner)
            try await owner.rebuildIndices()
            #expect(try viewDump(owner) == before, "rebuilt views differ")
            for app in apps { await app.close() }
        }
    }
}

extension StatisticsPropertyTests {
    @Test(
        "A running collection query's updates equal a fresh query after every batch (ST-40..43)",
        arguments: [
            (DateComponents(day: 1), "America/New_York", false), (DateComponents(minute: 37), "UTC", false),
            (DateComponents(hour: 1), "Asia/Kolkata", true),
        ]
    )
    func updatesMatchFreshQueries(interval: DateComponents, zone: String, ranged: Bool) async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { owner, directory in
            var random = SeededGenerator(seed: 77)
            let app = try await appStore(directory, "com.example.watch")
            var components = interval
            components.timeZone = TimeZone(identifier: zone)!
            let range = HKQuery.predicateForSamples(
                withStart: Self.base.addingTimeInterval(86_400),
                end: Self.base.addingTimeInterval(15 * 86_400)
            )
            let descriptor = HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: stepType, predicate: ranged ? range : nil),
                options: [.cumulativeSum, .separateBySource, .duration],
                anchorDate: Self.base,
                intervalComponents: components
            )
            var alive: [(store: HKHealthStore, id: UUID)] = []
            func inRange(_ random: inout SeededGenerator) -> HKQuantitySample {
                var sample = Self.sample(stepType, &random)
                while ranged
                    && (sample.endDate < Self.base.addingTimeInterval(86_400)
                        || sample.startDate >= Self.base.addingTimeInterval(15 * 86_400))
                {
                    sample = Self.sample(stepType, &random)
                }
                return sample
            }
            for _ in 0..<10 {
                let store = Bool.random(using: &random) ? owner : app
                let sample = inRange(&random)
                try await store.save(sample)
                alive.append((store, sample.uuid))
            }
            var updates = descriptor.results(for: owner).makeAsyncIterator()
            _ = try await updates.next()
            for step in 0..<15 {
                if step % 3 == 2, !alive.isEmpty {
                    let victim = alive.remove(at: Int.random(in: 0..<alive.count, using: &random))
                    try await victim.store.delete([HKQuantitySample(uuidOnly: victim.id)])
                } else {
                    let batch = (0..<Int.random(in: 1...3, using: &random)).map { _ in inRange(&random) }
                    let store = Bool.random(using: &random) ? owner : app
                    try await store.save(batch)
                    alive += batch.map { (store, $0.uuid) }
                }
                let update = try #require(try await updates.next())
                let fresh = try await descriptor.result(for: owner)
                #expect(Set(update.statisticsCollection.buckets.keys) == Set(fresh.buckets.keys), "step \(step)")
                for (index, statistics) in fresh.buckets {
                    guard let delivered = update.statisticsCollection.buckets[index] else { continue }
                    #expect(Self.agree(statistics, delivered), "step \(step), bucket \(index)")
                }
                #expect(update.updatedStatistics?.isEmpty == false, "step \(step)")
            }
            await app.close()
        }
    }

    @Test("A store opened without its views rebuilds them when they return")
    func viewsReturn() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-views-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SeededGenerator(seed: 9)
        var without = statisticsConfiguration()
        without.maintainsStatisticsViews = false
        let first = HKHealthStore(directory: directory, configuration: statisticsConfiguration())
        try await first.save((0..<20).map { _ in Self.sample(stepType, &random) })
        await first.close()
        let bare = HKHealthStore(directory: directory, configuration: without)
        try await bare.save((0..<20).map { _ in Self.sample(stepType, &random) })
        await bare.close()
        let again = HKHealthStore(directory: directory, configuration: statisticsConfiguration())
        let reopened = try viewDump(again)
        try await again.rebuildIndices()
        #expect(try viewDump(again) == reopened)
        let engine = try await again.engine()
        let grid = try BucketGrid(anchor: Self.base, intervalComponents: DateComponents(day: 1), timeZone: utc)
        let viewed = try #require(
            try engine.viewCollection(
                of: stepType,
                predicate: nil,
                options: [.cumulativeSum, .separateBySource],
                grid: grid,
                caller: again.caller
            )
        )
        // Per source, nothing is merged away: the buckets add up to every sample.
        let total = viewed.collection.statistics().flatMap { statistics in
            (statistics.sources ?? []).compactMap { statistics.sumQuantity(for: $0)?.doubleValue(for: .count()) }
        }.reduce(0, +)
        let samples = try engine.statisticsSamples(of: stepType, predicate: nil, caller: again.caller).samples
        #expect(close(total, samples.map(\.value).reduce(0, +)))
        #expect(samples.count == 40)
        await again.close()
    }
}
