import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import Anchorage

/// Queries on the store: sample, anchored (once and long-running),
/// observer, source, descriptors, and their bad input.
@Suite("Store queries")
struct StoreQueryTests {
    @Test("Sort descriptors apply before the limit; ties keep anchor order (SQ-2, SQ-3)")
    func sortingAndLimit() async throws {
        try await withTemporaryStore { store, _ in
            let saved = [
                steps(5, atMinute: 30), steps(6, atMinute: 10), steps(7, atMinute: 20), steps(8, atMinute: 10),
            ]
            try await store.save(saved)
            let unsorted = try await samples(in: store, of: stepType)
            #expect(unsorted.map(\.uuid) == saved.map(\.uuid), "no sort: anchor order")
            let byStart = [NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: true)]
            let firstTwo = try await samples(in: store, of: stepType, limit: 2, sortDescriptors: byStart)
            #expect(firstTwo.map(\.uuid) == [saved[1].uuid, saved[3].uuid])
            await expectCode(.errorInvalidArgument) { try await samples(in: store, of: stepType, limit: -1) }
        }
    }

    @Test("Date predicates select by overlap and strict options through the index (PRED-1..5)")
    func datePredicates() async throws {
        try await withTemporaryStore { store, _ in
            let long = HKQuantitySample(
                type: stepType,
                quantity: HKQuantity(unit: .count(), doubleValue: 1),
                start: minutes(-120),
                end: minutes(61)
            )
            let inside = steps(2, atMinute: 70)
            let after = steps(3, atMinute: 200)
            try await store.save([long, inside, after])
            let overlap = HKQuery.predicateForSamples(withStart: minutes(60), end: minutes(180))
            #expect(
                Set(try await samples(in: store, of: stepType, predicate: overlap).map(\.uuid)) == [
                    long.uuid, inside.uuid,
                ]
            )
            let strict = HKQuery.predicateForSamples(
                withStart: minutes(60),
                end: minutes(180),
                options: .strictStartDate
            )
            #expect(try await samples(in: store, of: stepType, predicate: strict).map(\.uuid) == [inside.uuid])
        }
    }

    @Test("Executing a query twice and a limit with an update handler are errors (Q-1, AQ-16)")
    func queryMisuse() async throws {
        try await withTemporaryStore { store, _ in
            let errors = Collector<HKError.Code>()
            let results = Collector<Int>()
            let query = HKSampleQuery(sampleType: stepType, predicate: nil, limit: 0, sortDescriptors: nil) {
                _,
                samples,
                error in
                if let error = error as? HKError {
                    errors.append(error.code)
                } else {
                    results.append(samples?.count ?? -1)
                }
            }
            store.execute(query)
            store.execute(query)
            try await waitUntil("errors.count + results.count == 2") { errors.count + results.count == 2 }
            #expect(errors.all == [.errorInvalidArgument])
            #expect(results.all == [0])
            store.stop(query)
            store.stop(query)

            let limited = HKAnchoredObjectQuery(type: stepType, predicate: nil, anchor: nil, limit: 5) {
                _,
                _,
                _,
                _,
                error in
                errors.append((error as? HKError)?.code ?? .errorNoData)
            }
            limited.updateHandler = { _, _, _, _, _ in }
            store.execute(limited)
            try await waitUntil("errors.count == 2") { errors.count == 2 }
            #expect(errors.all.last == .errorInvalidArgument)
        }
    }

    @Test("Foreign anchors are rejected; integer anchors beyond the head are echoed (AQ-4, AQ-11)")
    func foreignAnchors() async throws {
        try await withTemporaryStore { store, _ in
            try await store.save(steps(1))
            let page = try await anchoredPage(in: store, of: stepType, anchor: nil)
            try await withTemporaryStore { (other: HKHealthStore, _: URL) async throws in
                // Past the anchor's position, so only its store tells it apart.
                try await other.save([steps(2), steps(3, atMinute: 1), steps(4, atMinute: 2)])
                await expectCode(.errorInvalidArgument, rule: "AQ-11", saying: "belongs to another store") {
                    try await anchoredPage(in: other, of: stepType, anchor: page.anchor)
                }
                await expectCode(.errorInvalidArgument, rule: "AQ-11", saying: "belongs to another store") {
                    try await HKAnchoredObjectQueryDescriptor(
                        predicates: [.quantitySample(type: stepType)],
                        anchor: page.anchor
                    ).result(for: other)
                }
            }
            let ahead = HKQueryAnchor(fromValue: 1_000)
            let echoed = try await anchoredPage(in: store, of: stepType, anchor: ahead)
            #expect(echoed.added.isEmpty && echoed.anchor == ahead)
            let parsed = try HKQueryAnchor(string: page.anchor.stringValue)
            #expect(parsed == page.anchor)
            #expect(throws: HKError.self) { try HKQueryAnchor(string: "not-an-anchor") }
        }
    }

    @Test("iOS 8 form: integer anchors, no deletions (AQ-1..4)")
    @available(*, deprecated)
    func legacyAnchoredQuery() async throws {
        try await withTemporaryStore { store, _ in
            let first = steps(1)
            try await store.save([first, steps(2, atMinute: 5)])
            try await store.delete(first)
            let result = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<([HKSample], Int), any Error>) in
                let query = HKAnchoredObjectQuery(
                    type: stepType,
                    predicate: nil,
                    anchor: Int(HKAnchoredObjectQueryNoAnchor),
                    limit: 0
                ) {
                    _,
                    samples,
                    newAnchor,
                    error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (samples ?? [], newAnchor))
                    }
                }
                store.execute(query)
            }
            #expect(result.0.count == 1)
            #expect(result.1 == 3)
        }
    }

    @Test("A long-running query gets one call per committed batch, even when it lags (AQ-15, AQ-16)")
    func longRunningPerBatch() async throws {
        try await withTemporaryStore { store, _ in
            try await store.save(steps(0))
            let updates = Collector<[UUID]>()
            let deletions = Collector<[UUID]>()
            let initial = Collector<Int>()
            let query = HKAnchoredObjectQuery(type: stepType, predicate: nil, anchor: nil, limit: 0) {
                _,
                added,
                _,
                _,
                _ in
                initial.append(added?.count ?? -1)
            }
            query.updateHandler = { _, added, deleted, _, _ in
                updates.append((added ?? []).map(\.uuid))
                deletions.append((deleted ?? []).map(\.uuid))
            }
            // The query lags by construction: it is held before it reads the
            // first batch until every batch below is committed (no sleep in
            // the handler, which would block a thread of the pool and lag only
            // as much as the machine's pace allows).
            let (released, release) = AsyncStream.makeStream(of: Never.self)
            defer { release.finish() }  // never left holding the query, even when the test fails
            let gate = Task { for await _ in released {} }
            query.lifecycle.beforeEachBatch.withLock { $0 = { await gate.value } }
            store.execute(query)
            try await waitUntil("initial.count == 1") { initial.count == 1 }
            var batches: [[UUID]] = []
            for index in 0..<20 {
                let batch = [steps(Double(index), atMinute: Double(index)), steps(1, atMinute: Double(index) + 0.5)]
                try await store.save(batch)
                try await store.save(heartRate(60, atMinute: Double(index)))  // another type: no call
                batches.append(batch.map(\.uuid))
            }
            try await store.delete(try await samples(in: store, of: stepType).first!)
            #expect(updates.count == 0, "held back while the batches were committed")
            release.finish()
            try await waitUntil("updates.count == 21") { updates.count == 21 }
            #expect(initial.all == [1])
            #expect(Array(updates.all.prefix(20)) == batches)
            #expect(deletions.all.last?.count == 1)
            store.stop(query)
            // A second query sees the next save (in its first results, or in
            // an update if it started before the save): by then the store has
            // told every running query of it, and the stopped one was not called.
            let sentinel = Collector<UUID>()
            let watcher = HKAnchoredObjectQuery(type: stepType, predicate: nil, anchor: nil, limit: 0) {
                _,
                added,
                _,
                _,
                _ in
                for sample in added ?? [] { sentinel.append(sample.uuid) }
            }
            watcher.updateHandler = { _, added, _, _, _ in for sample in added ?? [] { sentinel.append(sample.uuid) } }
            store.execute(watcher)
            let last = steps(99)
            try await store.save(last)
            try await waitUntil("sentinel.all.contains(last.uuid)") { sentinel.all.contains(last.uuid) }
            #expect(updates.count == 21, "no call after stop (Q-1)")
            store.stop(watcher)
        }
    }

    @Test("Observer queries fire on start and once per batch that touched them (OBS-1, OBS-4)")
    func observer() async throws {
        try await withTemporaryStore { store, _ in
            let calls = Collector<Int>()
            let morning = HKQuery.predicateForSamples(withStart: minutes(0), end: minutes(60))
            let query = HKObserverQuery(sampleType: stepType, predicate: morning) { _, completion, error in
                calls.append(error == nil ? 1 : 0)
                completion()
            }
            store.execute(query)
            try await waitUntil("calls.count == 1") { calls.count == 1 }
            try await store.save([steps(1, atMinute: 5), steps(2, atMinute: 6)])
            try await store.save(steps(3, atMinute: 300))
            try await store.save(heartRate(70, atMinute: 5))
            try await store.save(steps(4, atMinute: 10))
            try await waitUntil("calls.count == 3") { calls.count == 3 }
            // One more batch that matches: its call comes after any call the
            // batches before it caused, so four calls in all means none was extra.
            try await store.save(steps(5, atMinute: 20))
            try await waitUntil("calls.count >= 4") { calls.count >= 4 }
            #expect(calls.all == [1, 1, 1, 1])
            store.stop(query)
        }
    }

    @Test("Source queries list the sources of matching samples (SRC-1)")
    func sourceQuery() async throws {
        try await withTemporaryStore { store, directory in
            let app = HKSource(name: "Pedometer", bundleIdentifier: "com.example.pedometer")
            try await store.setAuthorization(for: app, toShare: [stepType], granted: true)
            let appStore = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            try await appStore.save(steps(10, atMinute: 100))
            try await store.save(steps(20))
            #expect(
                Set(try await store.sources(of: stepType).map(\.bundleIdentifier)) == [
                    "com.example.pedometer", HKSource.default().bundleIdentifier,
                ]
            )
            let late = HKQuery.predicateForSamples(withStart: minutes(50), end: nil)
            #expect(
                try await store.sources(of: stepType, predicate: late).map(\.bundleIdentifier) == [
                    "com.example.pedometer"
                ]
            )
            #expect(
                try await appStore.sources(of: stepType).map(\.bundleIdentifier) == ["com.example.pedometer"],
                "SRC-2"
            )
            await appStore.close()
        }
    }

    @Test("Descriptors: result(for:) pages to the end; results(for:) follows until cancelled (AQ-18..21, SQ-4)")
    func descriptors() async throws {
        try await withTemporaryStore { store, _ in
            let saved = (0..<7).map { steps(Double($0), atMinute: Double($0)) }
            try await store.save(saved)
            var anchor: HKQueryAnchor? = nil
            var seen: [UUID] = []
            while true {
                let page = try await HKAnchoredObjectQueryDescriptor(
                    predicates: [.quantitySample(type: stepType)],
                    anchor: anchor,
                    limit: 3
                ).result(for: store)
                if page.addedSamples.isEmpty && page.deletedObjects.isEmpty { break }
                seen += page.addedSamples.map(\.uuid)
                anchor = page.newAnchor
            }
            #expect(seen == saved.map(\.uuid))

            let latest = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: stepType)],
                sortDescriptors: [SortDescriptor(\.startDate, order: .reverse)],
                limit: 2
            ).result(for: store)
            #expect(latest.map(\.uuid) == [saved[6].uuid, saved[5].uuid])

            let stream = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: stepType)], anchor: anchor)
                .results(for: store)
            let counts = Collector<Int>()
            let consumer = Task {
                for try await result in stream {
                    counts.append(result.addedSamples.count)
                    if counts.count == 3 { break }
                }
                return counts.all
            }
            try await waitUntil("counts.count == 1") { counts.count == 1 }
            try await store.save(steps(100))
            try await store.save([steps(101), steps(102)])
            #expect(try await consumer.value == [0, 1, 2])
        }
    }
}

extension HKHealthStore {
    /// Runs a sample query (test helper).
    func samples(of type: HKSampleType) async throws -> [HKSample] {
        try await Anchorage_Tests_samples(self, type)
    }

    /// Runs a source query (test helper).
    func sources(of type: HKSampleType, predicate: NSPredicate? = nil) async throws -> Set<HKSource> {
        let box = UncheckedBox(predicate)
        return try await withCheckedThrowingContinuation { continuation in
            execute(
                HKSourceQuery(sampleType: type, samplePredicate: box.value) { _, sources, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: sources ?? [])
                    }
                }
            )
        }
    }
}

private func Anchorage_Tests_samples(_ store: HKHealthStore, _ type: HKSampleType) async throws -> [HKSample] {
    try await samples(in: store, of: type)
}

extension StoreQueryTests {
    @Test("Anchors from before a restore are stale: the restored copy rejects them (AQ-11)")
    func staleAnchors() async throws {
        try await withTemporaryStore { (store: HKHealthStore, directory: URL) async throws in
            try await store.save(steps(1))
            let page = try await anchoredPage(in: store, of: stepType, anchor: nil)
            let copy = directory.deletingLastPathComponent().appendingPathComponent(
                "anchorage-copy-\(UUID().uuidString)"
            )
            defer { try? FileManager.default.removeItem(at: copy) }
            try await store.engine().log.backup(to: copy)
            let restored = HKHealthStore(directory: copy, configuration: .forTests)
            // Past the anchor's position, so only the incarnation tells it apart.
            try await restored.save(steps(2, atMinute: 1))
            await expectCode(.errorInvalidArgument, rule: "AQ-11", saying: "restored from a backup") {
                try await anchoredPage(in: restored, of: stepType, anchor: page.anchor)
            }
            #expect(try await anchoredPage(in: restored, of: stepType, anchor: nil).added.count == 2)
            await restored.close()
        }
    }
}
