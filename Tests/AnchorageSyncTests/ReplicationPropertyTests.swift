import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import Anchorage

/// Generated histories on 3 to 5 peers: random saves, deletes, sync
/// identifier replacements and priority changes on every peer, one export
/// imported on several peers (the same uuids from different origins),
/// purges of deleted samples, random pulls and pushes, some of them
/// duplicated, reordered, truncated, corrupted or interrupted. After a final round every peer must hold the
/// same entries once each and show the same objects and statistics, the
/// ones a simple model computes from the set of entries.
@Suite("Replication properties")
struct ReplicationPropertyTests {
    /// (peers, seed); `ANCHORAGE_TEST_SEED` replaces them with one case of 4 peers.
    static let cases: [(Int, UInt64)] = {
        let fixed: [(Int, UInt64)] = [(3, 11), (4, 29), (5, 47), (3, 101), (4, 211)]
        let seeds = testSeeds(fixed.map(\.1))
        return seeds == fixed.map(\.1) ? fixed : seeds.map { (4, $0) }
    }()

    @Test(
        "Peers converge whatever the order, duplication or interruption of their exchanges (OBJ-1, OBJ-33, AQ-13, ST-43)",
        arguments: Self.cases
    )
    func convergence(peers: Int, seed: UInt64) async throws {
        try await withTemporaryDirectories(peers) { directories in
            let cluster = try Cluster(directories: directories, seed: seed)
            do {
                try await Self.run(cluster, seed: seed)
                await cluster.close()
            } catch {
                await cluster.close()
                throw error
            }
        }
    }

    static func run(_ cluster: Cluster, seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        try await cluster.authorize()
        var consumers = (0..<cluster.count).map { _ in FeedConsumer() }
        let export = sharedExport(&random)
        for _ in 0..<140 {
            let peer = Int.random(in: 0..<cluster.count, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<28: try await save(on: peer, cluster, &random)
            case 28..<35: try await importShared(export, on: peer, cluster, &random)
            case 35..<48: try await deleteOne(on: peer, cluster, shared: export, &random)
            case 48..<51:
                let order = [Cluster.watch.bundleIdentifier, try ownerBundle(cluster)].shuffled(using: &random)
                try await cluster.owners[peer].setSourcePriority(order, for: HKQuantityType(.stepCount))
            case 51..<53: try await purge(on: peer, cluster)
            case 53..<90: await exchange(from: peer, cluster, &random)
            case 90..<95: await redeliver(cluster, &random)
            default:
                try await consumers[peer].catchUp(cluster.owners[peer], limit: Int.random(in: 1...4, using: &random))
            }
        }
        try await cluster.converge()

        // The same entries everywhere, each once.
        let entries = try (0..<cluster.count).map { try cluster.entries($0) }
        for log in entries {
            #expect(Set(log.map(\.dot)).count == log.count, "an entry was applied twice")
        }
        let dots = Set(entries[0].map(\.dot))
        for log in entries.dropFirst() { #expect(Set(log.map(\.dot)) == dots) }
        let vectors = try cluster.logs.map { try $0.versionVector() }
        #expect(Set(vectors).count == 1)
        // Peers that converged through different orders print the same digest.
        let digests = try cluster.owners.map { try $0.stateDigest() }
        #expect(Set(digests).count == 1, "\(digests)")
        // Every peer's projections equal a replay of its log (audit verify).
        for (peer, log) in cluster.logs.enumerated() {
            #expect(try log.verify().isIntact, "peer \(peer)'s chain")
            let disagreement = try await log.checkProjections()
            #expect(disagreement == nil, "peer \(peer): \(String(describing: disagreement))")
        }

        // The same visible objects, the model's.
        let expected = VisibilityModel.visibleSteps(in: entries[0])
        for (peer, store) in cluster.owners.enumerated() {
            let shown = try await visibleSteps(store)
            #expect(
                shown == expected,
                "peer \(peer): missing \(expected.subtracting(shown)), extra \(shown.subtracting(expected))"
            )
            // A consumer that followed the feed all along ends with the same set.
            try await consumers[peer].catchUp(store, limit: 3)
            #expect(Set(consumers[peer].samples.values) == expected, "peer \(peer)'s feed consumer disagrees")
        }

        // The same statistics, the model's per-source sums; the same priorities.
        let sums = VisibilityModel.hourlySums(of: expected)
        let priorities = try cluster.owners.map { try $0.sourcePriority(for: HKQuantityType(.stepCount)) }
        #expect(Set(priorities).count == 1)
        var merged: [[Double]] = []
        for store in cluster.owners {
            let collection = try await HKStatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: HKQuantityType(.stepCount)),
                options: [.cumulativeSum, .separateBySource],
                anchorDate: Cluster.day,
                intervalComponents: DateComponents(hour: 1)
            ).result(for: store)
            var row: [Double] = []
            for hour in 0..<26 {
                let start = Cluster.day.addingTimeInterval(Double(hour) * 3_600)
                let statistics = collection.statistics(for: start)
                row.append(statistics?.sumQuantity()?.doubleValue(for: .count()) ?? 0)
                for (source, byHour) in sums {
                    let actual =
                        statistics?.sumQuantity(for: HKSource(name: source, bundleIdentifier: source))?
                        .doubleValue(for: .count()) ?? 0
                    let wanted = byHour[hour] ?? 0
                    #expect(abs(actual - wanted) <= 1e-6 * max(1, wanted), "hour \(hour), \(source)")
                }
            }
            merged.append(row)
        }
        for row in merged.dropFirst() {
            for (a, b) in zip(row, merged[0]) { #expect(abs(a - b) <= 1e-6 * max(1, abs(b))) }
        }
    }

    static func ownerBundle(_ cluster: Cluster) throws -> String {
        HKSource.default().bundleIdentifier
    }

    /// The samples of one Health export, with the uuids and source the
    /// importer would give them: the same on every peer that imports it.
    static func sharedExport(_ random: inout SeededGenerator) -> [HKQuantitySample] {
        let phone = HKSourceRevision(
            source: HKSource(name: "iPhone", bundleIdentifier: "com.apple.health.export"),
            version: "17.1"
        )
        return (0..<10).map { index in
            let start = Cluster.day.addingTimeInterval(Double(index * 97 % (24 * 60)) * 60)
            return try! HKQuantitySample.stored(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: Double(100 + index)),
                start: start,
                end: start.addingTimeInterval(Double(index % 3) * 600),
                uuid: UUID.random(using: &random),
                sourceRevision: phone
            )
        }
    }

    /// Imports some of the shared export on `peer`, as the importer does:
    /// what the peer already knows (held or deleted) is skipped. Now and
    /// then an app imports it instead: its source replaces the export's,
    /// so peers hold two different saves of one uuid (a conflict the
    /// smaller dot wins, unless a delete came first).
    static func importShared(
        _ export: [HKQuantitySample],
        on peer: Int,
        _ cluster: Cluster,
        _ random: inout SeededGenerator
    ) async throws {
        let some = export.filter { _ in Int.random(in: 0..<3, using: &random) > 0 }
        guard !some.isEmpty else { return }
        let store = Int.random(in: 0..<4, using: &random) == 0 ? cluster.apps[peer] : cluster.owners[peer]
        _ = try await store.saveIfAbsent(some)
    }

    /// Purges the deleted samples' payloads on `peer`: then no save of a
    /// deleted id keeps its data there, whichever origin sent it.
    static func purge(on peer: Int, _ cluster: Cluster) async throws {
        _ = try await cluster.owners[peer].purgeDeletedSamples(before: Date().addingTimeInterval(3_600))
        let entries = try cluster.entries(peer)
        let deleted = Set(entries.filter { $0.operation == .delete }.map(\.id))
        let kept = entries.filter { $0.operation == .save && deleted.contains($0.id) && $0.payload != nil }
        #expect(kept.isEmpty, "peer \(peer) kept the data of deleted saves at \(kept.map(\.seq))")
    }

    /// Saves one to three step samples, some carrying sync identifiers.
    static func save(on peer: Int, _ cluster: Cluster, _ random: inout SeededGenerator) async throws {
        let store = Bool.random(using: &random) ? cluster.owners[peer] : cluster.apps[peer]
        var samples: [HKQuantitySample] = []
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let start = Cluster.day.addingTimeInterval(Double(Int.random(in: 0..<(24 * 60), using: &random)) * 60)
            let minutes = Double(Int.random(in: 0...30, using: &random))
            var metadata: [String: Any]?
            if Int.random(in: 0..<10, using: &random) < 4 {
                metadata = [
                    HKMetadataKeySyncIdentifier: "walk-\(Int.random(in: 0..<4, using: &random))",
                    HKMetadataKeySyncVersion: Int.random(in: 1...4, using: &random),
                ]
            }
            let sample = HKQuantitySample(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: Double(Int.random(in: 1...500, using: &random))),
                start: start,
                end: start.addingTimeInterval(minutes * 60),
                metadata: metadata
            )
            samples.append(sample.with(uuid: .random(using: &random)))
        }
        try await store.save(samples)
    }

    /// Deletes one sample the peer shows, whichever peer saved it; half the
    /// time one of the shared export's, when the peer shows one.
    static func deleteOne(
        on peer: Int,
        _ cluster: Cluster,
        shared: [HKQuantitySample],
        _ random: inout SeededGenerator
    ) async throws {
        var shown = try await visibleSteps(cluster.owners[peer]).sorted { $0.id.uuidString < $1.id.uuidString }
        let sharedIDs = Set(shared.map(\.uuid))
        if Bool.random(using: &random), shown.contains(where: { sharedIDs.contains($0.id) }) {
            shown = shown.filter { sharedIDs.contains($0.id) }
        }
        guard let victim = shown.randomElement(using: &random) else { return }
        _ = try await cluster.owners[peer].deleteObjects(withUUIDs: [victim.id])
    }

    /// A pull or push between `peer` and another, perhaps damaged on the way.
    static func exchange(from peer: Int, _ cluster: Cluster, _ random: inout SeededGenerator) async {
        var other = Int.random(in: 0..<(cluster.count - 1), using: &random)
        if other >= peer { other += 1 }
        let direction: SyncDirection = [.pull, .push, .both].randomElement(using: &random)!
        let fault = Int.random(in: 0..<10, using: &random)
        let failAt = Int.random(in: 1...3, using: &random)
        let calls = Mutex(0)
        let receivers = (pulled: peer, pushed: other)
        let interceptor: InMemoryTransport.Interceptor = { leg, bytes in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            cluster.captured.withLock { $0.append((leg == .pulled ? receivers.pulled : receivers.pushed, bytes)) }
            guard call == failAt else { return }
            switch fault {
            case 0: throw SyncError(.unreachable, "the test cut the connection")
            case 1: bytes.removeLast(bytes.count / 2)
            case 2: bytes[bytes.count / 2] ^= 0x5A
            default: break
            }
        }
        do {
            try await cluster.replicator(peer, other, interceptor: interceptor).sync(direction)
            #expect(fault > 2 || calls.withLock { $0 } < failAt, "a damaged batch was accepted")
        } catch let error as SyncError {
            #expect(fault <= 2, "an undamaged exchange failed: \(error)")
        } catch {
            Issue.record("an exchange failed with \(error)")
        }
    }

    /// Delivers a batch seen earlier again: late, repeated, out of order.
    static func redeliver(_ cluster: Cluster, _ random: inout SeededGenerator) async {
        let batches = cluster.captured.withLock { $0 }
        guard let (target, bytes) = batches.randomElement(using: &random) else { return }
        do {
            // Exactly the entries whose dots the receiver does not hold are
            // applied; the rest are skipped.
            let entries = try EntryBatch(decoding: bytes).entries
            let held = try cluster.logs[target].versionVector()
            let new = entries.filter { $0.dot.counter > held[$0.dot.origin, default: 0] }.count
            let receipt = try await SyncEndpoint(log: cluster.logs[target]).push(bytes)
            #expect(receipt.applied == new && receipt.skipped == entries.count - new, "\(receipt), \(new) new")
        } catch let error as SyncError {
            #expect([.checkpointMoved, .malformedBatch, .rejected].contains(error.code), "\(error)")
        } catch {
            Issue.record("a repeated batch failed with \(error)")
        }
    }

    static func visibleSteps(_ store: HKHealthStore) async throws -> Set<SampleFacts> {
        let samples = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
            sortDescriptors: []
        ).result(for: store)
        return Set(samples.map(SampleFacts.init))
    }
}

/// A consumer of a store's anchored feed that keeps what it was told.
struct FeedConsumer {
    var anchor: HKQueryAnchor?
    var samples: [UUID: SampleFacts] = [:]

    mutating func catchUp(_ store: HKHealthStore, limit: Int) async throws {
        while true {
            let page = try await HKAnchoredObjectQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                anchor: anchor,
                limit: limit
            ).result(for: store)
            for deleted in page.deletedObjects { samples[deleted.uuid] = nil }
            for sample in page.addedSamples { samples[sample.uuid] = SampleFacts(sample) }
            anchor = page.newAnchor
            if page.addedSamples.isEmpty && page.deletedObjects.isEmpty { return }
        }
    }
}
