import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// HealthKit's queries over several types (`HKQueryDescriptor`), its Swift
/// sort descriptors, and the async descriptors added for compatibility.
@Suite("Queries over several types, and the async descriptors")
struct QueryDescriptorTests {
    @Test("SQ-4: a sample query of several descriptors returns each match once, sorted then limited")
    func sampleQueryOfDescriptors() async throws {
        try await withTemporaryStore { store, _ in
            try await store.save([steps(1, atMinute: 5), heartRate(60, atMinute: 1), steps(2, atMinute: 3)])
            let descriptors = [
                HKQueryDescriptor(sampleType: stepType, predicate: nil),
                HKQueryDescriptor(sampleType: heartRateType, predicate: nil),
                // Overlaps the first: its sample is reported once.
                HKQueryDescriptor(
                    sampleType: stepType,
                    predicate: HKQuery.predicateForSamples(withStart: minutes(4), end: nil)
                ),
            ]
            let box = UncheckedBox(descriptors)
            let samples: [HKSample] = try await withCheckedThrowingContinuation { continuation in
                let query = HKSampleQuery(
                    queryDescriptors: box.value,
                    limit: 2,
                    sortDescriptors: [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]
                ) { _, samples, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: samples ?? [])
                    }
                }
                #expect(query.objectType == nil && query.sampleType == nil)
                store.execute(query)
            }
            #expect(samples.map(\.startDate) == [minutes(1), minutes(3)])
            #expect(Set(samples.map(\.sampleType)) == [heartRateType, stepType])
        }
    }

    @Test("AQ-9: an anchored query of several descriptors pages all their changes in anchor order")
    func anchoredQueryOfDescriptors() async throws {
        try await withTemporaryStore { store, _ in
            let saved = [steps(1, atMinute: 1), heartRate(70, atMinute: 2), steps(3, atMinute: 3)]
            try await store.save([saved[0]])
            try await store.save([saved[1]])
            try await store.save([saved[2]])
            try await store.delete([saved[0]])
            let descriptors = [
                HKQueryDescriptor(sampleType: heartRateType, predicate: nil),
                HKQueryDescriptor(sampleType: stepType, predicate: nil),
            ]
            func page(after anchor: HKQueryAnchor?) async throws -> AnchoredPage {
                let box = UncheckedBox(descriptors)
                return try await anchoredPage(in: store) { handler in
                    HKAnchoredObjectQuery(
                        queryDescriptors: box.value,
                        anchor: anchor,
                        limit: 2,
                        resultsHandler: handler
                    )
                }
            }
            var anchor: HKQueryAnchor? = nil
            var added: [UUID] = []
            var deleted: [UUID] = []
            for _ in 0..<4 {
                let next = try await page(after: anchor)
                added += next.added.map(\.uuid)
                deleted += next.deleted.map(\.uuid)
                anchor = next.anchor
                if next.added.isEmpty && next.deleted.isEmpty { break }
            }
            // The first step was saved and deleted after the anchor: it is
            // reported once, as deleted (AQ-12); the rest in anchor order.
            #expect(added == [saved[1].uuid, saved[2].uuid])
            #expect(deleted == [saved[0].uuid])
        }
    }

    @Test("OBS-1: an observer query of several descriptors says which types changed in each batch")
    func observerOfDescriptors() async throws {
        try await withTemporaryStore { store, _ in
            let seen = Collector<Set<String>?>()
            let query = HKObserverQuery(
                queryDescriptors: [
                    HKQueryDescriptor(sampleType: stepType, predicate: nil),
                    HKQueryDescriptor(sampleType: heartRateType, predicate: nil),
                ]
            ) { _, types, done, error in
                #expect(error == nil)
                seen.append(types.map { Set($0.map(\.identifier)) })
                done()
            }
            store.execute(query)
            // The call on start (OBS-4, no types) says the query is following.
            try await waitUntil("the call on start") { seen.count == 1 }
            try await store.save([steps(1)])
            try await waitUntil("the call for the steps") { seen.count == 2 }
            try await store.save([heartRate(60), steps(2)])
            try await waitUntil("the call for heart rate and steps") { seen.count == 3 }
            try await store.save([
                HKQuantitySample(
                    type: HKQuantityType(.bodyMass),
                    quantity: HKQuantity(unit: .gramUnit(with: .kilo), doubleValue: 70),
                    start: minutes(0),
                    end: minutes(0)
                )
            ])
            // Calls come in commit order: the next one is the sentinel's,
            // so the body mass batch (no descriptor matches) called nothing.
            try await store.save([heartRate(61)])
            try await waitUntil("the call for the sentinel") { seen.count == 4 }
            store.stop(query)
            #expect(
                seen.all == [
                    nil, [stepType.identifier], [stepType.identifier, heartRateType.identifier],
                    [heartRateType.identifier],
                ]
            )
        }
    }

    @Test("SQ-3: Swift sort descriptors order the async sample query; ties keep anchor order")
    func swiftSortDescriptors() async throws {
        try await withTemporaryStore { store, _ in
            let first = steps(1, atMinute: 2)
            let second = steps(2, atMinute: 2)
            try await store.save([steps(3, atMinute: 1), first, second, steps(4, atMinute: 3)])
            let descriptor = HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: stepType)],
                sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
                limit: 3
            )
            let samples = try await descriptor.result(for: store)
            #expect(samples.map(\.startDate) == [minutes(3), minutes(2), minutes(2)])
            #expect(samples[1].uuid == first.uuid && samples[2].uuid == second.uuid)
            // Generic code over HealthKit's protocol runs it too.
            func run<Q: HKAsyncQuery>(_ query: Q) async throws -> Q.Output { try await query.result(for: store) }
            #expect(try await run(descriptor).count == 3)
        }
    }

    @Test("SQ-5: the source descriptor lists the apps that saved matching samples, by name")
    func sourceDescriptor() async throws {
        try await withTemporaryStore { store, directory in
            try await store.save([steps(1)])
            let app = HKHealthStore(
                directory: directory,
                principal: HKSource(name: "Alpha Steps", bundleIdentifier: "com.example.alpha"),
                configuration: .forTests
            )
            try await app.requestAuthorization(toShare: [stepType], read: [stepType])
            try await store.setAuthorization(for: app.principal!, toShare: [stepType], read: [stepType], granted: true)
            try await app.save([steps(2, atMinute: 1)])
            let sources = try await HKSourceQueryDescriptor(predicate: .quantitySample(type: stepType)).result(
                for: store
            )
            #expect(sources.map(\.bundleIdentifier).contains("com.example.alpha"))
            #expect(sources.map(\.name) == sources.map(\.name).sorted())
            await app.close()
        }
    }

    @Test("a quantity series query gives each matching sample's quantity and interval, in start order on request")
    func quantitySeries() async throws {
        try await withTemporaryStore { store, _ in
            try await store.save([steps(5, atMinute: 9), steps(7, atMinute: 2)])
            let descriptor = HKQuantitySeriesSampleQueryDescriptor(
                predicate: .quantitySample(type: stepType),
                options: [.includeSample, .orderByQuantitySampleStartDate]
            )
            var results: [HKQuantitySeriesSampleQueryDescriptor.Result] = []
            for try await result in descriptor.results(for: store) { results.append(result) }
            #expect(results.map { $0.quantity.doubleValue(for: .count()) } == [7, 5])
            #expect(results.map(\.dateInterval.start) == [minutes(2), minutes(9)])
            #expect(results.allSatisfy { $0.sample != nil })
        }
    }
}
