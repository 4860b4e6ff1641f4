import AnchorageLog
import AnchorageStoreTesting
import AnchorageSync
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Change-feed anchors of a fleet's copies carry what the consumer has seen
/// as a version vector, so a consumer moves from copy to copy — as a store's
/// primary changes — without starting over, and never sees an object's save
/// or delete twice, nor misses one.
@Suite("Anchors that survive a failover")
struct PortableAnchorTests {
    static func step(_ index: Int) -> HKQuantitySample {
        HKQuantitySample(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: Double(index)),
            start: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 60),
            end: Date(timeIntervalSince1970: 1_717_200_030 + Double(index) * 60)
        )
    }

    @Test(
        "generated histories on three copies: a consumer paging from a random copy each time sees every save and delete once (AQ-9, AQ-11)"
    )
    func moveBetweenCopies() async throws {
        for seed in testSeeds([5, 23, 61, 88]) {
            var random = SeededGenerator(seed: seed)
            try await withTemporaryDirectories(3) { directories in
                var configuration = HKHealthStore.Configuration()
                configuration.log.sealing = HKHealthStore.Configuration.testSealing
                configuration.log.durability = .none
                let copies = directories.map { HKHealthStore(directory: $0, configuration: configuration) }
                try await copies[0].beginFleetEpoch(FleetEpoch(epoch: 1, primary: "n0", revision: 1))
                func pull(_ into: Int, from: Int) async throws {
                    _ = try await PeerReplicator(
                        log: try copies[into].eventLog(),
                        peer: InMemoryTransport(serving: try copies[from].eventLog())
                    ).sync(.pull)
                }
                try await pull(1, from: 0)
                try await pull(2, from: 0)
                var saved = 0
                var live: [UUID] = []
                var anchor: HKQueryAnchor?
                var added: [UUID: Int] = [:]
                var deleted: [UUID: Int] = [:]
                var moves = 0
                var lastCopy = 0
                func read(on copy: Int, limit: Int?) async throws -> Bool {
                    let page = try await ChangeFeedDescriptor(
                        predicates: [.sample(type: HKQuantityType(.stepCount))],
                        anchor: anchor,
                        limit: limit
                    ).result(for: copies[copy])
                    for sample in page.addedSamples { added[sample.uuid, default: 0] += 1 }
                    for object in page.deletedObjects { deleted[object.uuid, default: 0] += 1 }
                    #expect(page.newAnchor.vector != nil, "a fleet copy's anchor carries its vector")
                    if copy != lastCopy { moves += 1 }
                    lastCopy = copy
                    anchor = page.newAnchor
                    return page.count > 0
                }
                for _ in 0..<160 {
                    let copy = Int.random(in: 0..<3, using: &random)
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<4:
                        let samples = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                            saved += 1
                            return Self.step(saved)
                        }
                        try await copies[copy].save(samples)
                        live += samples.map(\.uuid)
                    case 4:
                        guard let victim = live.randomElement(using: &random) else { continue }
                        _ = try await copies[copy].deleteObjects(withUUIDs: [victim])
                        live.removeAll { $0 == victim }
                    case 5..<7:
                        try await pull(copy, from: (copy + Int.random(in: 1...2, using: &random)) % 3)
                    default:
                        _ = try await read(on: copy, limit: Int.random(in: 1...4, using: &random))
                    }
                }
                // Every copy converges; the consumer drains the feed from any of them.
                for _ in 0..<2 {
                    for (into, from) in [(0, 1), (1, 2), (2, 0)] { try await pull(into, from: from) }
                }
                var copy = Int.random(in: 0..<3, using: &random)
                while try await read(on: copy, limit: 7) { copy = (copy + 1) % 3 }
                #expect(moves > 10, "the consumer moved between copies (seed \(seed))")
                #expect(added.values.allSatisfy { $0 == 1 }, "a save was delivered twice (seed \(seed))")
                #expect(deleted.values.allSatisfy { $0 == 1 }, "a delete was delivered twice (seed \(seed))")
                let seen = Set(added.keys).subtracting(deleted.keys)
                let visible = Set(
                    try await HKSampleQueryDescriptor(
                        predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                        sortDescriptors: []
                    ).result(for: copies[0]).map(\.uuid)
                )
                let extra = seen.subtracting(visible).count
                let missing = visible.subtracting(seen).count
                #expect(extra == 0 && missing == 0, "the consumer's view differs from the store's (seed \(seed))")
                for store in copies { await store.close() }
            }
        }
    }

    @Test(
        "a portable anchor's text round-trips; a damaged vector is refused; a store outside a fleet keeps plain anchors"
    )
    func text() async throws {
        let vector = [StoreID(): UInt64(7), StoreID(): 12]
        let anchor = HKQueryAnchor(Anchor(storeID: StoreID(), incarnation: 3, seq: 42), vector: vector)
        let parsed = try HKQueryAnchor(string: anchor.stringValue)
        #expect(parsed == anchor && parsed.vector == vector)
        #expect(throws: HKError.self) { try HKQueryAnchor(string: anchor.stringValue + "x") }
        #expect(throws: HKError.self) { try HKQueryAnchor(string: anchor.stringValue.prefix(50) + ".%%") }
        try await withTemporaryDirectories(1) { directories in
            let store = HKHealthStore(directory: directories[0])
            try await store.save(Self.step(1))
            let page = try await ChangeFeedDescriptor(
                predicates: [.sample(type: HKQuantityType(.stepCount))],
                anchor: nil,
                limit: nil
            ).result(for: store)
            #expect(page.newAnchor.vector == nil && !page.newAnchor.stringValue.contains("."))
            await store.close()
        }
    }
}
