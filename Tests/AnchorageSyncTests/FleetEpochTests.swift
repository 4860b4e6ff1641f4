import AnchorageLog
import AnchorageStoreTesting
import AnchorageSync
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Fleet epochs in the log (docs/fleet.md, "Epochs"): an entry a promoted
/// primary appends, replicated like any other, and the fencing it gives: a
/// copy never follows or acknowledges a store whose epoch is lower than the
/// highest it holds.
@Suite("Fleet epochs")
struct FleetEpochTests {
    static func configuration() -> HKHealthStore.Configuration {
        var configuration = HKHealthStore.Configuration()
        configuration.log.sealing = HKHealthStore.Configuration.testSealing
        configuration.log.durability = .none
        return configuration
    }

    static func steps(_ count: Int) -> [HKQuantitySample] {
        (0..<count).map { index in
            HKQuantitySample(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: Double(10 + index)),
                start: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 60),
                end: Date(timeIntervalSince1970: 1_717_200_030 + Double(index) * 60)
            )
        }
    }

    @Test("An epoch begins only above every epoch the copy holds; a refused one stores nothing")
    func epochsOnlyGoUp() async throws {
        try await withTemporaryDirectories(1) { directories in
            let store = HKHealthStore(directory: directories[0], configuration: Self.configuration())
            #expect(try store.fleetEpoch() == nil)
            try await store.save(Self.steps(2))
            let first = try await store.beginFleetEpoch(FleetEpoch(epoch: 1, primary: "n1", revision: 10))
            try await store.beginFleetEpoch(FleetEpoch(epoch: 3, primary: "n2", revision: 17))
            let head = try store.eventLog().head.seq
            for stale in [1, 2, 3] as [UInt64] {
                let error = await #expect(throws: FleetEpochError.self) {
                    try await store.beginFleetEpoch(FleetEpoch(epoch: stale, primary: "n9", revision: 20))
                }
                #expect(error?.held == 3)
            }
            #expect(try store.eventLog().head.seq == head, "a refused epoch stored an entry")
            #expect(try store.fleetEpoch() == FleetEpoch(epoch: 3, primary: "n2", revision: 17))
            let history = try store.fleetEpochHistory()
            #expect(history.map(\.epoch.epoch) == [1, 3])
            #expect(history.first?.seq == first)
            // Epoch entries are no samples.
            let visible = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                sortDescriptors: []
            ).result(for: store)
            #expect(visible.count == 2)
            #expect(try store.eventLog().verify().isIntact)
            #expect(try await store.eventLog().checkProjections() == nil)
            await store.close()
        }
    }

    @Test("Epoch entries replicate in any order, and every copy keeps the same highest epoch (generated histories)")
    func replicatedEpochsConverge() async throws {
        for seed in testSeeds([3, 17, 41, 97]) {
            var random = SeededGenerator(seed: seed)
            try await withTemporaryDirectories(3) { directories in
                let stores = directories.map { HKHealthStore(directory: $0, configuration: Self.configuration()) }
                var begun: [FleetEpoch] = []
                for _ in 0..<30 {
                    let copy = Int.random(in: 0..<3, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0:
                        // A copy begins an epoch above the one it holds (copies
                        // that did not hear of each other may pick the same number).
                        let held = try stores[copy].fleetEpoch()?.epoch ?? 0
                        let epoch = FleetEpoch(
                            epoch: held + UInt64.random(in: 1...2, using: &random),
                            primary: "n\(copy)",
                            revision: Int64(begun.count)
                        )
                        try await stores[copy].beginFleetEpoch(epoch)
                        begun.append(epoch)
                    case 1:
                        try await stores[copy].save(Self.steps(1))
                    default:
                        let other = (copy + Int.random(in: 1...2, using: &random)) % 3
                        _ = try await PeerReplicator(
                            log: try stores[copy].eventLog(),
                            peer: InMemoryTransport(serving: try stores[other].eventLog())
                        ).sync(.pull)
                    }
                }
                for _ in 0..<2 {
                    for (copy, other) in [(0, 1), (1, 2), (2, 0)] {
                        _ = try await PeerReplicator(
                            log: try stores[copy].eventLog(),
                            peer: InMemoryTransport(serving: try stores[other].eventLog())
                        ).sync(.both)
                    }
                }
                let highest = begun.map(\.epoch).max()
                let epochs = try stores.map { try $0.fleetEpoch() }
                #expect(Set(epochs).count == 1, "copies disagree on the epoch (seed \(seed)): \(epochs)")
                #expect(epochs[0]?.epoch == highest, "seed \(seed)")
                let digests = try stores.map { try $0.stateDigest() }
                #expect(Set(digests).count == 1, "seed \(seed)")
                for store in stores {
                    #expect(try store.fleetEpochHistory().count == begun.count)
                    #expect(try await store.eventLog().checkProjections() == nil, "seed \(seed)")
                    #expect(try store.eventLog().verify().isIntact)
                    await store.close()
                }
            }
        }
    }

    @Test("A replica holding a higher epoch neither follows nor acknowledges the deposed primary")
    func fencing() async throws {
        try await withTemporaryDirectories(3) { directories in
            let stores = directories.map { HKHealthStore(directory: $0, configuration: Self.configuration()) }
            let (old, promoted, replica) = (stores[0], stores[1], stores[2])
            func endpoint(_ store: HKHealthStore) throws -> SyncEndpoint {
                SyncEndpoint(log: try store.eventLog(), epoch: { try store.fleetEpoch()?.epoch })
            }
            func replicator(_ store: HKHealthStore, from source: HKHealthStore) throws -> PeerReplicator {
                var configuration = PeerReplicator.Configuration()
                configuration.epoch = { try store.fleetEpoch()?.epoch }
                return PeerReplicator(
                    log: try store.eventLog(),
                    peer: InMemoryTransport(serving: try endpoint(source)),
                    configuration: configuration
                )
            }
            try await old.beginFleetEpoch(FleetEpoch(epoch: 1, primary: "n0", revision: 5))
            try await old.save(Self.steps(3))
            _ = try await replicator(promoted, from: old).sync(.pull)
            _ = try await replicator(replica, from: old).sync(.pull)
            #expect(try replica.fleetEpoch()?.epoch == 1)

            // n1 is promoted at epoch 2; the other copy pulls the epoch entry.
            try await promoted.beginFleetEpoch(FleetEpoch(epoch: 2, primary: "n1", revision: 9))
            _ = try await replicator(replica, from: promoted).sync(.pull)
            #expect(try replica.fleetEpoch()?.epoch == 2)

            // The deposed primary takes a write no one may acknowledge.
            try await old.save(Self.steps(1))
            let head = try replica.eventLog().head.seq
            let refused = await #expect(throws: SyncError.self) {
                _ = try await replicator(replica, from: old).sync(.pull)
            }
            #expect(refused?.code == .staleEpoch)
            #expect(try replica.eventLog().head.seq == head, "the replica pulled from a deposed primary")
            // The deposed primary's side refuses the replica's pull and wait too.
            let request = PullRequest(
                incarnation: try old.eventLog().incarnation,
                since: 0,
                maxEntries: 10,
                maxBytes: 1 << 20,
                versionVector: [:],
                epoch: 2
            )
            #expect((#expect(throws: SyncError.self) { _ = try endpoint(old).pull(request) })?.code == .staleEpoch)
            let waited = await #expect(throws: SyncError.self) {
                _ = try await InMemoryTransport(serving: try endpoint(old))
                    .waitForChange(after: 0, timeout: .milliseconds(10), epoch: 2)
            }
            #expect(waited?.code == .staleEpoch)
            // A copy outside the fleet (no epoch) is not fenced, and a copy
            // at the same epoch follows.
            _ = try await PeerReplicator(
                log: try replica.eventLog(),
                peer: InMemoryTransport(serving: try promoted.eventLog())
            ).sync(.pull)
            try await promoted.save(Self.steps(2))
            let summary = try await replicator(replica, from: promoted).sync(.pull)
            #expect(summary.pulled?.applied == 2)
            for store in stores {
                #expect(try await store.eventLog().checkProjections() == nil)
                await store.close()
            }
        }
    }
}
