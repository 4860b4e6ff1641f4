import AnchorageLog
import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

/// Statistics queries: the worked examples and the rules of section 4.
@Suite("Statistics")
struct StatisticsTests {
    let hour = DateComponents(hour: 1)
    let oneDay = DateComponents(day: 1)

    @Test(
        "EX-1: cumulative samples are prorated across hourly buckets; the predicate selects, it does not clip (ST-15..17)"
    )
    func proration() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            try await store.save([
                steps(80, from: iso("2024-05-01T13:24:00Z"), to: iso("2024-05-01T14:36:00Z")),
                steps(100, from: iso("2024-05-01T13:57:00Z"), to: iso("2024-05-01T14:02:00Z")),
                steps(200, from: iso("2024-05-01T14:30:00Z"), to: iso("2024-05-01T14:42:00Z")),
                steps(120, from: iso("2024-05-01T14:55:00Z"), to: iso("2024-05-01T15:07:00Z")),
                steps(36, from: iso("2024-05-01T15:44:00Z"), to: iso("2024-05-01T15:51:00Z")),
            ])
            let range = HKQuery.predicateForSamples(
                withStart: iso("2024-05-01T14:00:00Z"),
                end: iso("2024-05-01T15:00:00Z")
            )
            let collection = try await collectionResult(
                in: store,
                of: stepType,
                predicate: range,
                options: .cumulativeSum,
                anchor: iso("2024-05-01T00:00:00Z"),
                interval: hour
            )
            let buckets = collection.statistics()
            #expect(buckets.map(\.startDate) == ["13", "14", "15"].map { iso("2024-05-01T\($0):00:00Z") })
            #expect(close(buckets[0].count, 100))
            #expect(close(buckets[1].count, 330))
            #expect(close(buckets[2].count, 70))
            #expect(buckets[1].endDate == iso("2024-05-01T15:00:00Z"))
        }
    }

    @Test("EX-2: sources merge by priority; per-source sums are not merged (ST-9, ST-22, ST-24)")
    func sourceMerge() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { owner, directory in
            let watch = try await appStore(directory, "com.example.watch")
            let phone = try await appStore(directory, "com.example.phone")
            try await owner.setSourcePriority(["com.example.watch", "com.example.phone"], for: stepType)
            try await watch.save(steps(600, from: iso("2024-05-01T10:00:00Z"), to: iso("2024-05-01T10:10:00Z")))
            try await phone.save(steps(300, from: iso("2024-05-01T10:05:00Z"), to: iso("2024-05-01T10:15:00Z")))
            let collection = try await collectionResult(
                in: owner,
                of: stepType,
                options: [.cumulativeSum, .separateBySource],
                anchor: iso("2024-05-01T00:00:00Z"),
                interval: oneDay
            )
            let bucket = try #require(collection.statistics().first)
            let watchSource = HKSource(name: "", bundleIdentifier: "com.example.watch")
            let phoneSource = HKSource(name: "", bundleIdentifier: "com.example.phone")
            #expect(close(bucket.count, 750))
            #expect(close(bucket.sumQuantity(for: watchSource)?.doubleValue(for: .count()), 600))
            #expect(close(bucket.sumQuantity(for: phoneSource)?.doubleValue(for: .count()), 300))
            #expect(Set(bucket.sources ?? []) == [watchSource, phoneSource])
            #expect(collection.sources() == [watchSource, phoneSource])

            // The other order: the phone's 300 count in full, the watch fills 10:00–10:05.
            try await owner.setSourcePriority(["com.example.phone", "com.example.watch"], for: stepType)
            #expect(try owner.sourcePriority(for: stepType) == ["com.example.phone", "com.example.watch"])
            let swapped = try await statisticsResult(in: owner, of: stepType, options: .cumulativeSum)
            #expect(close(swapped.count, 600))
            await watch.close()
            await phone.close()
        }
    }

    @Test("EX-3: a sample across midnight splits between the days (ST-16)")
    func midnightSplit() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            try await store.save(steps(120, from: iso("2024-05-01T23:30:00Z"), to: iso("2024-05-02T00:30:00Z")))
            let collection = try await collectionResult(
                in: store,
                of: stepType,
                options: .cumulativeSum,
                anchor: iso("2024-01-01T00:00:00Z"),
                interval: oneDay
            )
            #expect(collection.statistics().map(\.count) == [60, 60])
        }
    }

    @Test("EX-4: options that do not suit the type are errors, not crashes (ST-1)")
    func optionMisuse() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            try await store.save(steps(10, atMinute: 0))
            await expectCode(.errorInvalidArgument) {
                try await statisticsResult(in: store, of: stepType, options: .discreteAverage)
            }
            await expectCode(.errorInvalidArgument) {
                try await statisticsResult(in: store, of: heartRateType, options: .cumulativeSum)
            }
            await expectCode(.errorInvalidArgument) {
                try await collectionResult(
                    in: store,
                    of: stepType,
                    options: [.cumulativeSum, .discreteMax],
                    anchor: day,
                    interval: oneDay
                )
            }
            await expectCode(.errorInvalidArgument) {
                try await HKStatisticsQueryDescriptor(
                    predicate: .quantitySample(type: heartRateType),
                    options: .cumulativeSum
                ).result(for: store)
            }
            await expectCode(.errorInvalidArgument) {
                try await statisticsResult(in: store, of: stepType, options: HKStatisticsOptions(rawValue: 1 << 9))
            }
            // Combinations that are fine: several discrete options, and the any-style ones (ST-1).
            try await store.save(heartRate(70, atMinute: 0))
            let fine = try await statisticsResult(
                in: store,
                of: heartRateType,
                options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .duration, .separateBySource]
            )
            #expect(fine.averageQuantity()?.doubleValue(for: beatsPerMinute) == 70)
        }
    }

    @Test("EX-5: enumerating days yields empty statistics for days without data (ST-38)")
    func emptyDays() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            try await store.save(steps(500, from: iso("2024-05-02T08:00:00Z"), to: iso("2024-05-02T09:00:00Z")))
            let collection = try await collectionResult(
                in: store,
                of: stepType,
                options: .cumulativeSum,
                anchor: iso("2024-01-01T00:00:00Z"),
                interval: oneDay
            )
            var visited: [HKStatistics] = []
            collection.enumerateStatistics(from: iso("2024-05-01T00:00:00Z"), to: iso("2024-05-03T12:00:00Z")) {
                statistics,
                _ in
                visited.append(statistics)
            }
            #expect(visited.map(\.startDate) == ["01", "02", "03"].map { iso("2024-05-\($0)T00:00:00Z") })
            #expect(visited.map(\.count) == [nil, 500, nil])
            // `to` at exactly midnight takes in the next day's bucket too.
            var atMidnight = 0
            collection.enumerateStatistics(from: iso("2024-05-01T00:00:00Z"), to: iso("2024-05-03T00:00:00Z")) {
                _,
                _ in
                atMidnight += 1
            }
            #expect(atMidnight == 3)
            // The block can stop early.
            var stopped = 0
            collection.enumerateStatistics(from: iso("2024-05-01T00:00:00Z"), to: iso("2024-05-03T00:00:00Z")) {
                _,
                stop in
                stopped += 1
                stop.pointee = true
            }
            #expect(stopped == 1)
        }
    }

    @Test("A statistics query spans its samples, counts them in full, and reports errorNoData for none (ST-6, ST-21)")
    func wholeQuery() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            await expectCode(.errorNoData) {
                try await statisticsResult(in: store, of: stepType, options: .cumulativeSum)
            }
            #expect(
                try await HKStatisticsQueryDescriptor(
                    predicate: .quantitySample(type: stepType),
                    options: .cumulativeSum
                )
                .result(for: store) == nil
            )
            try await store.save([
                steps(100, from: iso("2024-05-01T09:30:00Z"), to: iso("2024-05-01T10:30:00Z")),
                steps(50, from: iso("2024-05-01T12:00:00Z"), to: iso("2024-05-01T12:00:00Z")),
            ])
            let range = HKQuery.predicateForSamples(
                withStart: iso("2024-05-01T10:00:00Z"),
                end: iso("2024-05-01T13:00:00Z")
            )
            let statistics = try await statisticsResult(
                in: store,
                of: stepType,
                predicate: range,
                options: .cumulativeSum
            )
            #expect(statistics.count == 150, "not clipped to the predicate (ST-21)")
            #expect(statistics.startDate == iso("2024-05-01T09:30:00Z"))
            #expect(statistics.endDate == iso("2024-05-01T12:00:00Z"))
            #expect(statistics.sources == nil, "ST-7")
            #expect(statistics.averageQuantity() == nil, "ST-3: not requested")
            let empty = try await statisticsResult(in: store, of: stepType, options: [])
            #expect(empty.sumQuantity() == nil && empty.duration() == nil, "ST-4")
        }
    }

    @Test(
        "Discrete statistics: min, max, the three averages, most recent; no splitting, no merging (ST-11, ST-13, ST-14, ST-19, ST-25)"
    )
    func discrete() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { owner, directory in
            let watch = try await appStore(directory, "com.example.watch")
            // 60 bpm for 50 minutes, 120 bpm for 10 minutes: weighted 70, arithmetic 90.
            try await watch.save(quantity(heartRateType, 60, beatsPerMinute, from: minutes(0), to: minutes(50)))
            try await owner.save(quantity(heartRateType, 120, beatsPerMinute, from: minutes(50), to: minutes(60)))
            let options: HKStatisticsOptions = [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]
            let whole = try await statisticsResult(in: owner, of: heartRateType, options: options)
            #expect(close(whole.averageQuantity()?.doubleValue(for: beatsPerMinute), 70))
            #expect(whole.minimumQuantity()?.doubleValue(for: beatsPerMinute) == 60)
            #expect(whole.maximumQuantity()?.doubleValue(for: beatsPerMinute) == 120, "ST-25: both sources count")
            #expect(whole.mostRecentQuantity()?.doubleValue(for: beatsPerMinute) == 120)
            #expect(whole.mostRecentQuantityDateInterval() == DateInterval(start: minutes(50), end: minutes(60)))

            // Half-hour buckets: the 60 bpm sample counts whole in both (ST-19).
            let halves = try await collectionResult(
                in: owner,
                of: heartRateType,
                options: options,
                anchor: day,
                interval: DateComponents(minute: 30)
            )
            let second = try #require(halves.statistics().last)
            #expect(second.minimumQuantity()?.doubleValue(for: beatsPerMinute) == 60)
            // weights in the second half: 20 min at 60, 10 min at 120 → 80
            #expect(close(second.averageQuantity()?.doubleValue(for: beatsPerMinute), 80))

            let mass = HKQuantityType(.bodyMass)
            try await owner.save([
                quantity(mass, 70, .gramUnit(with: .kilo), from: minutes(0), to: minutes(0)),
                quantity(mass, 72, .gramUnit(with: .kilo), from: minutes(10), to: minutes(40)),
            ])
            let weights = try await statisticsResult(in: owner, of: mass, options: .discreteAverage)
            #expect(close(weights.averageQuantity()?.doubleValue(for: .gramUnit(with: .kilo)), 71), "arithmetic")

            // Equivalent continuous level: 10·log10(mean of 10^(L/10)), equal weights.
            let audio = HKQuantityType(.environmentalAudioExposure)
            let decibels = HKUnit.decibelAWeightedSoundPressureLevel()
            try await owner.save([
                quantity(audio, 60, decibels, from: minutes(0), to: minutes(10)),
                quantity(audio, 80, decibels, from: minutes(10), to: minutes(20)),
            ])
            let level = try await statisticsResult(in: owner, of: audio, options: .discreteAverage)
            let expected = 10 * log10((pow(10, 6.0) + pow(10, 8.0)) / 2)
            #expect(close(level.averageQuantity()?.doubleValue(for: decibels), expected))

            // Only instants: the time-weighted average falls back to the plain mean.
            try await owner.save([heartRate(50, atMinute: 100), heartRate(70, atMinute: 101)])
            let instants = try await statisticsResult(
                in: owner,
                of: heartRateType,
                predicate: HKQuery.predicateForSamples(withStart: minutes(99), end: minutes(102)),
                options: .discreteAverage
            )
            #expect(instants.averageQuantity()?.doubleValue(for: beatsPerMinute) == 60)
            await watch.close()
        }
    }

    @Test("Most recent: latest start, then latest end, then latest anchor (ST-11)")
    func mostRecentTies() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            try await store.save(quantity(heartRateType, 61, beatsPerMinute, from: minutes(5), to: minutes(6)))
            try await store.save(quantity(heartRateType, 62, beatsPerMinute, from: minutes(5), to: minutes(7)))
            try await store.save(quantity(heartRateType, 63, beatsPerMinute, from: minutes(1), to: minutes(9)))
            var recent = try await statisticsResult(in: store, of: heartRateType, options: .mostRecent)
            #expect(close(recent.mostRecentQuantity()?.doubleValue(for: beatsPerMinute), 62))
            try await store.save(quantity(heartRateType, 64, beatsPerMinute, from: minutes(5), to: minutes(7)))
            recent = try await statisticsResult(in: store, of: heartRateType, options: .mostRecent)
            #expect(
                close(recent.mostRecentQuantity()?.doubleValue(for: beatsPerMinute), 64),
                "same interval: later anchor"
            )
        }
    }

    @Test("Duration is the union of the samples' intervals, across sources, clipped to the bucket (ST-10, ST-26)")
    func duration() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { owner, directory in
            let watch = try await appStore(directory, "com.example.watch")
            try await owner.save(steps(10, from: minutes(0), to: minutes(30)))
            try await watch.save(steps(10, from: minutes(20), to: minutes(40)))
            try await owner.save(steps(10, from: minutes(50), to: minutes(50)))
            try await owner.save(steps(10, from: minutes(55), to: minutes(70)))
            let hourly = try await collectionResult(
                in: owner,
                of: stepType,
                options: [.duration, .separateBySource],
                anchor: day,
                interval: hour
            )
            let first = try #require(hourly.statistics().first)
            #expect(close(first.duration()?.doubleValue(for: .second()), 45 * 60))
            let mine = HKSource.default()
            #expect(close(first.duration(for: mine)?.doubleValue(for: .second()), 35 * 60))
            #expect(close(hourly.statistics().last?.duration()?.doubleValue(for: .second()), 10 * 60))
            await watch.close()
        }
    }

    @Test(
        "Merging: instants under a higher source do not count; hand-entered samples rank first; unlisted sources newest first (ST-24, ST-27)"
    )
    func mergeRanks() async throws {
        // Entries stamped by a clock a step later at each save: the new source
        // is newer than the old one, however fast the machine.
        let clock = SteppingWallClock()
        var configuration = statisticsConfiguration()
        configuration.log.clock = .continuous.telling { clock.now() }
        try await withTemporaryStore(configuration: configuration) { owner, directory in
            let old = try await appStore(directory, "com.example.old", configuration: configuration)
            try await old.save(steps(100, from: minutes(0), to: minutes(10)))
            let new = try await appStore(directory, "com.example.new", configuration: configuration)
            try await new.save(steps(50, from: minutes(0), to: minutes(10)))
            try await new.save(steps(7, from: minutes(5), to: minutes(5)))
            try await old.save(steps(3, from: minutes(5), to: minutes(5)))
            // Unlisted: the newer source wins the overlap; its instant counts, the older one's does not.
            var total = try await statisticsResult(in: owner, of: stepType, options: .cumulativeSum)
            #expect(close(total.count, 57))
            // Listed sources outrank unlisted ones.
            try await owner.setSourcePriority(["com.example.old"], for: stepType)
            total = try await statisticsResult(in: owner, of: stepType, options: .cumulativeSum)
            #expect(close(total.count, 103))
            // Entered by hand: first of all.
            try await new.save(
                steps(20, from: minutes(0), to: minutes(10), metadata: [HKMetadataKeyWasUserEntered: true])
            )
            total = try await statisticsResult(in: owner, of: stepType, options: .cumulativeSum)
            #expect(close(total.count, 20))
            // A higher source covering only part: the rest is filled by the next one (ST-24.3).
            let morning = try await collectionResult(
                in: owner,
                of: stepType,
                predicate: HKQuery.predicateForSamples(withStart: minutes(0), end: minutes(10)),
                options: .cumulativeSum,
                anchor: day,
                interval: DateComponents(minute: 5)
            )
            #expect(morning.statistics().map { close($0.count, 10) } == [true, true])
            await old.close()
            await new.close()
        }
    }

    @Test("A result asked for an incompatible unit gives a typed error through checkedDoubleValue (UNIT-18)")
    func incompatibleUnit() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            try await store.save(steps(10, atMinute: 0))
            let statistics = try await statisticsResult(in: store, of: stepType, options: .cumulativeSum)
            let sum = try #require(statistics.sumQuantity())
            #expect(throws: HKError.self) { try sum.checkedDoubleValue(for: .gram()) }
            #expect(try sum.checkedDoubleValue(for: .count()) == 10)
        }
    }

    @Test("Source priorities: owner only, checked, kept in the log (ST-27)")
    func priorities() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { owner, directory in
            let app = try await appStore(directory, "com.example.app")
            await expectCode(.errorAuthorizationDenied) { try await app.setSourcePriority(["a"], for: stepType) }
            await expectCode(.errorInvalidArgument) { try await owner.setSourcePriority(["a", "a"], for: stepType) }
            await expectCode(.errorInvalidArgument) { try await owner.setSourcePriority([""], for: stepType) }
            #expect(try owner.sourcePriority(for: stepType).isEmpty)
            try await owner.setSourcePriority(["a", "b"], for: stepType)
            try await owner.setSourcePriority(["c"], for: heartRateType)
            #expect(try owner.sourcePriority(for: stepType) == ["a", "b"])
            #expect(try owner.sourcePriority(for: heartRateType) == ["c"])
            await app.close()
        }
    }

    @Test("An app that may not read a type gets statistics of its own samples only (AUTH-4)")
    func hiddenReadDenial() async throws {
        var configuration = statisticsConfiguration()
        configuration.authorizationPolicy = .ownerDecides
        try await withTemporaryStore(configuration: configuration) { owner, directory in
            let app = try await appStore(directory, "com.example.app", configuration: configuration)
            try await owner.setAuthorization(
                for: HKSource(name: "", bundleIdentifier: "com.example.app"),
                toShare: [stepType],
                granted: true
            )
            try await owner.save(steps(1_000, atMinute: 0))
            try await app.save(steps(5, atMinute: 1))
            let seen = try await statisticsResult(in: app, of: stepType, options: .cumulativeSum)
            #expect(seen.count == 5)
            let all = try await statisticsResult(in: owner, of: stepType, options: .cumulativeSum)
            #expect(all.count == 1_005)
            await app.close()
        }
    }
}
