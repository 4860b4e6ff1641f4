import AnchorageLog
import AnchorageStoreTesting
import AnchorageSync
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// One object saved on several peers under one uuid (the same export
/// imported on each; an app that imported it instead, with its own source),
/// perhaps deleted and purged on one: a store pulling from all of them, in
/// every order, shows the same state.
@Suite("Shared uuids across origins")
struct SharedUUIDTests {
    enum Variant: String, CaseIterable, CustomTestStringConvertible {
        case saved, deleted, deletedAndPurged
        var testDescription: String { rawValue }
    }

    /// A store whose id is `byte` repeated, so the test knows the dots' order;
    /// its entries are stamped with `date` when given.
    static func store(
        _ directory: URL,
        id byte: UInt8,
        principal: HKSource? = nil,
        date: (@Sendable () -> Date)? = nil
    ) -> HKHealthStore {
        var configuration = HKHealthStore.Configuration()
        configuration.log.sealing = HKHealthStore.Configuration.testSealing
        configuration.log.durability = .none
        configuration.authorizationPolicy = .grantAll
        let id = StoreID(
            UUID(uuid: (byte, byte, byte, byte, byte, byte, 0x40, byte, 0x80, byte, byte, byte, byte, byte, byte, byte))
        )
        configuration.log.newStoreID = { id }
        if let date { configuration.log.clock = .continuous.telling(date: date) }
        return principal.map { HKHealthStore(directory: directory, principal: $0, configuration: configuration) }
            ?? HKHealthStore(directory: directory, configuration: configuration)
    }

    static func pull(into receiver: HKHealthStore, from peer: HKHealthStore) async throws {
        _ = try await PeerReplicator(
            log: try receiver.eventLog(),
            peer: InMemoryTransport(serving: try peer.eventLog())
        )
        .sync(.pull)
    }

    @Test(
        "OBJ-1: copies of one save from two origins and a different save of its uuid from a third, deleted (and purged) on one or not: every arrival order ends in the same state",
        arguments: Variant.allCases
    )
    func everyArrivalOrder(variant: Variant) async throws {
        try await withTemporaryDirectories(3) { peers in
            let export = try HKQuantitySample.stored(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: 120),
                start: Date(timeIntervalSince1970: 1_717_200_000),
                end: Date(timeIntervalSince1970: 1_717_200_600),
                uuid: UUID(uuidString: "0A0B0C0D-0E0F-4011-8213-141516171819")!,
                sourceRevision: HKSourceRevision(
                    source: HKSource(name: "iPhone", bundleIdentifier: "com.apple.health.export"),
                    version: "17.1"
                )
            )
            // The owners of 01… and 03… import the export; an app on 02…
            // imports it too, under its own source: a different save.
            let first = Self.store(peers[0], id: 0x01)
            let third = Self.store(peers[1], id: 0x03)
            let app = Self.store(
                peers[2],
                id: 0x02,
                principal: HKSource(name: "Watch", bundleIdentifier: "com.example.watch")
            )
            let steps: Set<HKQuantityType> = [HKQuantityType(.stepCount)]
            try await app.requestAuthorization(toShare: steps, read: steps)
            #expect(try await first.saveIfAbsent([export]) == 1)
            #expect(try await third.saveIfAbsent([export]) == 1)
            #expect(try await app.saveIfAbsent([export]) == 1)
            if variant != .saved {
                #expect(try await third.deleteObjects(withUUIDs: [export.uuid]) == 1)
            }
            if variant == .deletedAndPurged {
                #expect(try await third.purgeDeletedSamples(before: Date().addingTimeInterval(3_600)) == 1)
            }
            let sources = [first, third, Self.store(peers[2], id: 0x02)]
            var digests: Set<String> = []
            for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
                try await withTemporaryDirectory { directory in
                    let receiver = Self.store(directory, id: 0x7F)
                    for peer in order { try await Self.pull(into: receiver, from: sources[peer]) }
                    let shown = try await HKSampleQueryDescriptor(
                        predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                        sortDescriptors: []
                    ).result(for: receiver)
                    switch variant {
                    case .saved:
                        // The smallest dot, 01…'s: the export's source.
                        #expect(
                            shown.map(\.sourceRevision.source.bundleIdentifier) == ["com.apple.health.export"],
                            "order \(order)"
                        )
                    case .deleted, .deletedAndPurged:
                        #expect(shown.isEmpty, "order \(order): a delete wins over every save")
                    }
                    digests.insert(try receiver.stateDigest())
                    #expect(try receiver.eventLog().verify().isIntact)
                    let disagreement = try await receiver.eventLog().checkProjections()
                    #expect(disagreement == nil, "order \(order): \(String(describing: disagreement))")
                    await receiver.close()
                }
            }
            #expect(digests.count == 1, "the orders end in different states")
            for store in sources + [app] { await store.close() }
        }
    }
}
