import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// The change feed (`ChangeFeedDescriptor`): samples, deletions and
/// activity summaries since an anchor, in one anchor order (issue 15).
@Suite("Change feed")
struct ChangeFeedTests {
    let calendar = Calendar(identifier: .gregorian)

    func summary(day: Int, energy: Double) throws -> HKActivitySummary {
        let summary = try HKActivitySummary(
            dateComponents: DateComponents(calendar: calendar, year: 2026, month: 1, day: day)
        )
        summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: energy)
        return summary
    }

    func dayNumber(_ summary: HKActivitySummary) -> Int { summary.dateComponents(for: calendar).day ?? 0 }

    func energy(_ summary: HKActivitySummary) -> Double { summary.activeEnergyBurned.doubleValue(for: .kilocalorie()) }

    /// What a consumer keeps: one summary per day, the live samples.
    struct Consumer {
        var days: [Int: Double] = [:]
        var samples: Set<UUID> = []
        var anchor: HKQueryAnchor?
        var pages = 0
    }

    /// Pages from the consumer's anchor until a page is empty.
    func catchUp(
        _ consumer: inout Consumer,
        store: HKHealthStore,
        limit: Int?,
        types: [HKSampleType] = [stepType]
    ) async throws {
        while true {
            let page = try await ChangeFeedDescriptor(
                predicates: types.map { .sample(type: $0) },
                activitySummaries: true,
                anchor: consumer.anchor,
                limit: limit
            ).result(for: store)
            for object in page.deletedObjects { consumer.samples.remove(object.uuid) }
            for sample in page.addedSamples { consumer.samples.insert(sample.uuid) }
            for summary in page.activitySummaries { consumer.days[dayNumber(summary)] = energy(summary) }
            consumer.anchor = page.newAnchor
            consumer.pages += 1
            if page.count == 0 { return }
        }
    }

    /// The store's state as a consumer would hold it.
    func state(of store: HKHealthStore) async throws -> (days: [Int: Double], samples: Set<UUID>) {
        let summaries = try await HKActivitySummaryQueryDescriptor(predicate: nil).result(for: store)
        var days: [Int: Double] = [:]
        for summary in summaries { days[dayNumber(summary)] = energy(summary) }
        let live = try await samples(in: store, of: stepType)
        return (days, Set(live.map(\.uuid)))
    }

    @Test("ACT, AQ-9, AQ-10: each changed day once, with its summary now, at its latest change, beside samples")
    func summariesInTheFeed() async throws {
        try await withTemporaryStore { store, _ in
            try await store.saveActivitySummaries([try summary(day: 3, energy: 300), try summary(day: 4, energy: 400)])
            try await store.save(steps(10, atMinute: 1))
            let first = try await ChangeFeedDescriptor(
                predicates: [.sample(type: stepType)],
                activitySummaries: true,
                anchor: nil
            )
            .result(for: store)
            #expect(first.activitySummaries.map(dayNumber) == [3, 4])
            #expect(first.addedSamples.count == 1)

            try await store.saveActivitySummaries([try summary(day: 3, energy: 333)])
            try await store.saveActivitySummaries([try summary(day: 5, energy: 500)])
            try await store.saveActivitySummaries([try summary(day: 3, energy: 350)])
            let next = try await ChangeFeedDescriptor(
                predicates: [.sample(type: stepType)],
                activitySummaries: true,
                anchor: first.newAnchor
            ).result(for: store)
            #expect(next.activitySummaries.map(dayNumber) == [5, 3], "in anchor order, day 3 once at its last change")
            #expect(next.activitySummaries.map(energy) == [500, 350])
            #expect(next.addedSamples.isEmpty)

            let everything = try await ChangeFeedDescriptor(predicates: [], activitySummaries: true, anchor: nil)
                .result(for: store)
            #expect(everything.activitySummaries.map(dayNumber) == [4, 5, 3])
            #expect(everything.activitySummaries.map(energy) == [400, 500, 350])

            let withoutSummaries = try await ChangeFeedDescriptor(predicates: [.sample(type: stepType)], anchor: nil)
                .result(for: store)
            #expect(withoutSummaries.activitySummaries.isEmpty)
            #expect(withoutSummaries.addedSamples.count == 1)

            // Pages of one: every change once, in the same order.
            var anchor: HKQueryAnchor?
            var paged: [Int] = []
            while true {
                let page = try await ChangeFeedDescriptor(
                    predicates: [.sample(type: stepType)],
                    activitySummaries: true,
                    anchor: anchor,
                    limit: 1
                ).result(for: store)
                guard page.count > 0 else { break }
                #expect(page.count == 1)
                paged += page.activitySummaries.map(dayNumber) + page.addedSamples.map { _ in 0 }
                anchor = page.newAnchor
            }
            #expect(paged == [4, 0, 5, 3], "the step sample (0) between the summaries, by anchor")
            #expect(try await store.eventLog().checkProjections() == nil, "the index equals a replay of the log")
        }
    }

    @Test("AUTH-4, AUTH-7: an app sees summaries only with a read grant; a never-asked app is told so")
    func authorization() async throws {
        try await withTemporaryStore { store, directory in
            try await store.saveActivitySummaries([try summary(day: 9, energy: 700)])
            let app = HKSource(name: "App", bundleIdentifier: "com.example.rings")
            let appStore = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            let feed = ChangeFeedDescriptor(predicates: [], activitySummaries: true, anchor: nil)
            await expectCode(.errorAuthorizationNotDetermined) { try await feed.result(for: appStore) }
            try await store.setAuthorization(for: app, read: [HKObjectType.activitySummaryType()], granted: false)
            #expect(try await feed.result(for: appStore).count == 0, "denied reads look empty")
            try await store.setAuthorization(for: app, read: [HKObjectType.activitySummaryType()], granted: true)
            #expect(try await feed.result(for: appStore).activitySummaries.map(energy) == [700])
            await appStore.close()
        }
    }

    @Test("AQ-20: the long-running feed delivers summaries saved after it started")
    func following() async throws {
        try await withTemporaryStore { store, _ in
            try await store.saveActivitySummaries([try summary(day: 1, energy: 10)])
            let received = Collector<[Double]>()
            let task = Task {
                let feed = ChangeFeedDescriptor(
                    predicates: [.sample(type: stepType)],
                    activitySummaries: true,
                    anchor: nil
                )
                for try await update in feed.results(for: store) {
                    received.append(update.activitySummaries.map(energy))
                }
            }
            try await waitUntil("received.count == 1") { received.count == 1 }
            try await store.save(steps(5))
            try await store.saveActivitySummaries([try summary(day: 1, energy: 20), try summary(day: 2, energy: 30)])
            try await waitUntil("received.all.flatMap { $0 }.count == 3") { received.all.flatMap { $0 }.count == 3 }
            task.cancel()
            #expect(received.all.flatMap { $0 } == [10, 20, 30])
        }
    }

    @Test("ACT, AQ-9: random histories on two replicating peers; consumers paging at random end equal to the store")
    func generatedHistories() async throws {
        for seed in UInt64(1)...12 {
            var random = SeededGenerator(seed: seed)
            try await withTemporaryStore { a, _ in
                try await withTemporaryStore { b, _ in
                    var consumerA = Consumer()
                    var consumerB = Consumer()
                    var live: [ObjectIdentifier: [HKSample]] = [:]
                    for step in 0..<60 {
                        let store = Bool.random(using: &random) ? a : b
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0..<4:
                            let days = (1...Int.random(in: 1...3, using: &random)).map { _ in
                                Int.random(in: 1...8, using: &random)
                            }
                            let summaries = try Set(days).sorted().map { day in
                                try summary(day: day, energy: Double(Int.random(in: 1...999, using: &random)))
                            }
                            try await store.saveActivitySummaries(summaries)
                        case 4..<7:
                            let sample = steps(Double(step), atMinute: Double(step))
                            try await store.save(sample)
                            live[ObjectIdentifier(store), default: []].append(sample)
                        case 7:
                            if let victim = live[ObjectIdentifier(store)]?.popLast() { try await store.delete(victim) }
                        default:
                            // Replicate some of one peer's log to the other, in one direction.
                            let (from, to) = Bool.random(using: &random) ? (a, b) : (b, a)
                            let entries = try from.eventLog().entries(after: nil, limit: 10_000).entries
                            let count = Int.random(in: 0...entries.count, using: &random)
                            _ = try await to.eventLog().apply(Array(entries.prefix(count)))
                        }
                        if Int.random(in: 0..<4, using: &random) == 0 {
                            try await catchUp(&consumerA, store: a, limit: Int.random(in: 1...4, using: &random))
                        }
                        if Int.random(in: 0..<4, using: &random) == 0 {
                            try await catchUp(&consumerB, store: b, limit: nil)
                        }
                    }
                    // Full exchange: both peers converge.
                    _ = try await b.eventLog().apply(try a.eventLog().entries(after: nil, limit: 10_000).entries)
                    _ = try await a.eventLog().apply(try b.eventLog().entries(after: nil, limit: 10_000).entries)
                    try await catchUp(&consumerA, store: a, limit: Int.random(in: 1...4, using: &random))
                    try await catchUp(&consumerB, store: b, limit: nil)
                    let stateA = try await state(of: a)
                    let stateB = try await state(of: b)
                    #expect(consumerA.days == stateA.days, "seed \(seed): the feed's days equal the store's")
                    #expect(consumerA.samples == stateA.samples, "seed \(seed)")
                    #expect(consumerB.days == stateB.days, "seed \(seed)")
                    #expect(consumerB.samples == stateB.samples, "seed \(seed)")
                    #expect(stateA.days == stateB.days, "seed \(seed): the peers converged")
                    #expect(try a.stateDigest() == b.stateDigest(), "seed \(seed)")
                    #expect(try await a.eventLog().checkProjections() == nil, "seed \(seed)")
                    #expect(try await b.eventLog().checkProjections() == nil, "seed \(seed)")
                }
            }
        }
    }
}
