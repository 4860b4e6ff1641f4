import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import LMDB
import Synchronization
import Testing

@testable import Anchorage

/// The audit tools on a store: the state digest and the check of the
/// projections against a replay of the log.
@Suite("Audit: state digest, projections against a replay")
struct AuditTests {
    @Test("The state digest changes with every visible change, and with nothing else")
    func digestFollowsVisibleChanges() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, directory in
            var seen = Set<String>()
            func changed(_ label: String) throws {
                #expect(seen.insert(try store.stateDigest()).inserted, "\(label) did not change the digest")
            }
            try changed("an empty store")
            let first = steps(100, from: iso("2024-05-01T10:00:00Z"), to: iso("2024-05-01T10:10:00Z"))
            try await store.save(first)
            try changed("a save")
            let unchanged = try store.stateDigest()
            _ = try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: stepType)], sortDescriptors: [])
                .result(for: store)
            #expect(try store.stateDigest() == unchanged, "a read changed the digest")
            let versioned = { (version: Int) in
                steps(
                    50,
                    from: iso("2024-05-01T11:00:00Z"),
                    to: iso("2024-05-01T11:10:00Z"),
                    metadata: [HKMetadataKeySyncIdentifier: "walk", HKMetadataKeySyncVersion: version]
                )
            }
            try await store.save(versioned(2))
            try changed("a save with a sync identifier")
            let beforeLowerVersion = try store.stateDigest()
            try await store.save(versioned(1))
            #expect(try store.stateDigest() == beforeLowerVersion, "an ignored save changed the digest")
            try await store.save(versioned(3))
            try changed("a replacement")
            try await store.delete(first)
            try changed("a delete")
            try await store.setSourcePriority(["com.example.watch"], for: stepType)
            try changed("a priority list")
            let app = try await appStore(directory, "com.example.watch")
            try changed("a grant")
            await app.close()
            #expect(throws: HKError.self) { try app.stateDigest() }
        }
    }

    @Test("A clean store agrees with a replay; a row changed behind its back is found, and a rebuild mends it")
    func projectionsAgainstReplay() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-audit-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var store = HKHealthStore(directory: directory, configuration: statisticsConfiguration())
        for hour in 0..<5 {
            let start = iso("2024-05-01T00:00:00Z").addingTimeInterval(Double(hour) * 3_600)
            try await store.save(steps(Double(10 * hour + 5), from: start, to: start.addingTimeInterval(600)))
        }
        let digest = try store.stateDigest()
        #expect(try await store.eventLog().checkProjections() == nil)
        // Nothing changed: the check rolls its replay back.
        #expect(try store.stateDigest() == digest)
        await store.close()

        // Remove one row of the type/time index behind the store's back
        // (the index lives in the store's projections file).
        do {
            try writeProjectionsFile(in: directory) { txn in
                let database = try #require(try txn.openDatabase(named: "hk.type-time"))
                var first: [UInt8]?
                try txn.withCursor(on: database) { cursor in
                    try cursor.scan { key, _ in
                        first = Array(key)
                        return false
                    }
                }
                _ = try txn.removeValue(forKey: try #require(first), in: database)
            }
        }
        store = HKHealthStore(directory: directory, configuration: statisticsConfiguration())
        let disagreement = try await store.eventLog().checkProjections()
        #expect(disagreement?.projection == "healthkit-index" && disagreement?.database == "hk.type-time")
        #expect(try await store.eventLog().checkProjections() == disagreement, "the check changed the store")
        try await store.rebuildIndices()
        #expect(try await store.eventLog().checkProjections() == nil)
        #expect(try store.stateDigest() == digest)
        await store.close()
    }

    @Test("An object's history: its save, its association with a workout, its replacement, each with dot and principal")
    func history() async throws {
        try await withTemporaryStore { store, _ in
            let run = HKWorkout(activityType: .running, start: minutes(0), end: minutes(30))
            try await store.save(run)
            let walk = { (version: Int, count: Double) in
                steps(
                    count,
                    atMinute: 5,
                    metadata: [HKMetadataKeySyncIdentifier: "walk", HKMetadataKeySyncVersion: version]
                )
            }
            let first = walk(1, 100)
            try await store.save(first)
            try await store.addSamples([first], to: run)
            let second = walk(2, 120)
            try await store.save(second)
            let origin = try store.eventLog().originID
            let old = try store.history(of: first.uuid)
            #expect(old.map(\.action) == [.save, .association, .delete])
            #expect(old.first?.syncVersion == 1 && old.first?.source == HKSource.default().bundleIdentifier)
            #expect(old.allSatisfy { $0.origin == origin } && old.map(\.seq) == old.map(\.seq).sorted())
            let new = try store.history(of: second.uuid)
            #expect(new.map(\.action) == [.save, .association] && new.first?.syncVersion == 2)
            #expect(try store.history(of: run.uuid).map(\.action) == [.save, .association, .association])
            #expect(try store.history(of: UUID()).isEmpty)
            let anchor = try #require(new.first?.anchor)
            #expect(try HKQueryAnchor(string: anchor).stringValue == anchor)
        }
    }

    @Test(
        "Replay to every anchor of a random history gives the state the store had there, digest and all",
        arguments: testSeeds([0xA0D1])
    )
    func replayToEveryAnchor(seed: UInt64) async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-replay-\(UUID())")
        defer { try? FileManager.default.removeItem(at: base) }
        let store = HKHealthStore(
            directory: base.appendingPathComponent("source"),
            configuration: statisticsConfiguration()
        )
        var random = SeededGenerator(seed: seed)
        var states: [(anchor: HKQueryAnchor, digest: String, visible: Set<UUID>, sum: Double)] = []
        func visible(_ target: HKHealthStore) async throws -> (Set<UUID>, Double) {
            let samples = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: stepType)],
                sortDescriptors: []
            )
            .result(for: target)
            let sum =
                try await HKStatisticsQueryDescriptor(
                    predicate: .quantitySample(type: stepType),
                    options: .cumulativeSum
                )
                .result(for: target)?.sumQuantity()?.doubleValue(for: .count()) ?? 0
            return (Set(samples.map(\.uuid)), sum)
        }
        for step in 0..<40 {
            // In the order they were saved (each at a minute of its own), so the seed picks the same one.
            let shown = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: stepType)],
                sortDescriptors: [SortDescriptor(\.startDate)]
            )
            .result(for: store)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<2 where !shown.isEmpty:
                _ = try await store.deleteObjects(withUUIDs: [shown.randomElement(using: &random)!.uuid])
            case 2:
                try await store.setSourcePriority(["com.example.\(step)"], for: stepType)
            default:
                let metadata: [String: Any]? =
                    Bool.random(using: &random)
                    ? [
                        HKMetadataKeySyncIdentifier: "s\(Int.random(in: 0..<3, using: &random))",
                        HKMetadataKeySyncVersion: step,
                    ]
                    : nil
                try await store.save(steps(Double(step + 1), atMinute: Double(step * 7), metadata: metadata))
            }
            let (uuids, sum) = try await visible(store)
            states.append((try store.currentAnchor(), try store.stateDigest(), uuids, sum))
        }
        for (index, state) in states.enumerated() {
            let directory = base.appendingPathComponent("replay-\(index)")
            let replica = try await store.replay(
                to: state.anchor,
                into: directory,
                configuration: statisticsConfiguration()
            )
            let (uuids, sum) = try await visible(replica)
            #expect(uuids == state.visible, "objects as of step \(index)")
            #expect(abs(sum - state.sum) < 1e-9, "statistics as of step \(index)")
            #expect(try replica.stateDigest() == state.digest, "digest as of step \(index)")
            await replica.close()
        }
        // Deterministic, and not into a store.
        let again = try await store.replay(to: states[20].anchor, into: base.appendingPathComponent("again"))
        #expect(try again.stateDigest() == states[20].digest)
        await again.close()
        await #expect(throws: HKError.self) {
            _ = try await store.replay(to: states[3].anchor, into: base.appendingPathComponent("again"))
        }
        await store.close()
    }

    @Test(
        "Replay over many pages (each read while the one before is applied): every entry in order, the same digest, progress in order, a replica that verifies and agrees with its own replay"
    )
    func replayOverManyPages() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-replay-\(UUID())")
        defer { try? FileManager.default.removeItem(at: base) }
        let store = HKHealthStore(
            directory: base.appendingPathComponent("source"),
            configuration: statisticsConfiguration()
        )
        // 10,503 entries (10,500 saves, 3 deletes): two full pages of 4,096 and a partial one.
        for batch in 0..<21 {
            try await store.save((0..<500).map { steps(Double($0 % 17 + 1), atMinute: Double(batch * 500 + $0)) })
        }
        let shown = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: stepType)],
            sortDescriptors: []
        )
        .result(for: store)
        _ = try await store.deleteObjects(withUUIDs: shown.prefix(3).map(\.uuid))
        let anchor = try store.currentAnchor()
        let digest = try store.stateDigest()
        let reported = Mutex<[Int]>([])
        let replica = try await store.replay(
            to: anchor,
            into: base.appendingPathComponent("replica"),
            configuration: statisticsConfiguration(),
            progress: { count in reported.withLock { $0.append(count) } }
        )
        #expect(try replica.stateDigest() == digest)
        #expect(reported.withLock { $0 } == [4_096, 8_192, 10_503])
        let source = try store.eventLog()
        let copy = try replica.eventLog()
        #expect(try copy.verify().isIntact)
        #expect(try await copy.checkProjections() == nil)
        let mine = try source.entries(after: nil, limit: 20_000).entries
        let theirs = try copy.entries(after: nil, limit: 20_000).entries
        #expect(theirs.count == 10_503)
        #expect(theirs.map(\.dot) == mine.map(\.dot), "every entry, in order")
        #expect(theirs.map(\.payloadDigest) == mine.map(\.payloadDigest))
        await replica.close()
        await store.close()
    }
}
