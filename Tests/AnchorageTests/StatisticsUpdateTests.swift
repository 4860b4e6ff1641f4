import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Long-running collection queries (ST-40..44).
@Suite("Statistics updates")
struct StatisticsUpdateTests {
    @Test(
        "The update handler reports saves and deletes with the changed bucket and the whole collection (ST-40, ST-42, ST-43)"
    )
    func updates() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            let first = steps(100, atMinute: 10)
            try await store.save(first)
            let query = HKStatisticsCollectionQuery(
                quantityType: stepType,
                quantitySamplePredicate: nil,
                options: .cumulativeSum,
                anchorDate: day,
                intervalComponents: DateComponents(hour: 1)
            )
            let initial = Collector<Double?>()
            let updates = Collector<(Date?, [Double?])>()
            query.initialResultsHandler = { _, collection, _ in
                initial.append(collection?.statistics().first?.count)
            }
            query.statisticsUpdateHandler = { _, statistics, collection, error in
                #expect(error == nil)
                updates.append((statistics?.startDate, collection?.statistics().map(\.count) ?? []))
            }
            store.execute(query)
            try await waitUntil("initial.count == 1") { initial.count == 1 }
            #expect(initial.all == [100])

            try await store.save(steps(50, atMinute: 70))
            try await waitUntil("updates.count == 1") { updates.count == 1 }
            try await store.delete(first)
            try await waitUntil("updates.count == 2") { updates.count == 2 }
            // Two buckets in one batch: no single statistics (ST-42).
            try await store.save([steps(1, atMinute: 130), steps(2, atMinute: 190)])
            try await waitUntil("updates.count == 3") { updates.count == 3 }
            // A batch without matching samples triggers nothing (ST-43).
            try await store.save(heartRate(60, atMinute: 5))
            try await store.save(steps(3, atMinute: 250))
            try await waitUntil("updates.count == 4") { updates.count == 4 }

            let seen = updates.all
            #expect(seen.count == 4)
            #expect(seen[0].0 == minutes(60))
            #expect(seen[0].1 == [100, 50])
            #expect(seen[1].0 == day)
            #expect(seen[1].1 == [50])
            #expect(seen[2].0 == nil)
            #expect(seen[2].1 == [50, 1, 2])
            #expect(seen[3].0 == minutes(240))
            store.stop(query)
        }
    }

    @Test(
        "Without an update handler the query ends after its initial results (ST-40); handlers set after execute are ignored (ST-41)"
    )
    func oneShot() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            let query = HKStatisticsCollectionQuery(
                quantityType: stepType,
                quantitySamplePredicate: nil,
                options: .cumulativeSum,
                anchorDate: day,
                intervalComponents: DateComponents(hour: 1)
            )
            let calls = Collector<Int>()
            query.initialResultsHandler = { _, collection, _ in calls.append(collection?.statistics().count ?? -1) }
            store.execute(query)
            query.statisticsUpdateHandler = { _, _, _, _ in calls.append(99) }
            try await waitUntil("the initial results delivered") { calls.count == 1 }
            // The query's task has ended, so nothing can call it any more:
            // a save after that shows whether it was still following.
            try await waitUntil("the one-shot query ended") { !store.queries.isRunning(query) }
            try await store.save(steps(5, atMinute: 0))
            #expect(calls.all == [0])
        }
    }

    @Test("results(for:) yields the collection, then each change with every changed bucket (ST-44)")
    func descriptorResults() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            try await store.save(steps(7, atMinute: 0))
            let descriptor = HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: stepType),
                options: .cumulativeSum,
                anchorDate: day,
                intervalComponents: DateComponents(hour: 1)
            )
            #expect(try await descriptor.result(for: store).statistics().map(\.count) == [7])
            var iterator = descriptor.results(for: store).makeAsyncIterator()
            let start = try #require(try await iterator.next())
            #expect(start.updatedStatistics == nil)
            #expect(start.statisticsCollection.statistics().map(\.count) == [7])
            try await store.save([steps(1, atMinute: 61), steps(2, atMinute: 121)])
            let next = try #require(try await iterator.next())
            #expect(next.updatedStatistics?.map(\.startDate) == [minutes(60), minutes(120)])
            #expect(next.statisticsCollection.statistics().map(\.count) == [7, 1, 2])
        }
    }
}
