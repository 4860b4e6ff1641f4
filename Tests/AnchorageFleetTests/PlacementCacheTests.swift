import AnchorageTesting
import Etcd
import Foundation
import Testing

@testable import AnchorageFleet

@Suite("Routing a store's requests")
struct RouteTests {
    @Test("the primary serves; a replica serves reads only when allowed; other nodes forward to the primary")
    func decisions() {
        let record = PlacementRecord(
            store: "alice",
            placement: Placement(primary: "n1", replicas: ["n2", "n3"], epoch: 4),
            modRevision: 9
        )
        #expect(Route.decide(for: record, on: "n1", replicaReadAllowed: false) == .serve(.primary, epoch: 4))
        #expect(Route.decide(for: record, on: "n1", replicaReadAllowed: true) == .serve(.primary, epoch: 4))
        #expect(Route.decide(for: record, on: "n2", replicaReadAllowed: true) == .serve(.replica, epoch: 4))
        #expect(Route.decide(for: record, on: "n2", replicaReadAllowed: false) == .forward(to: "n1", epoch: 4))
        #expect(Route.decide(for: record, on: "n9", replicaReadAllowed: true) == .forward(to: "n1", epoch: 4))
        #expect(Route.decide(for: nil, on: "n1", replicaReadAllowed: true) == .unplaced)
    }
}

extension FleetCoordinationTests {
    @Test(
        "the placement cache follows creates, changes and deletes, skips what is not a placement, and outlives its member"
    )
    func placementCache() async throws {
        try await Self.withFleet { cluster, etcd, keys in
            let nodes = ["n1", "n2", "n3", "n4"].map { Self.member($0, etcd, keys) }
            let renewing = try await Self.live(nodes)
            defer { renewing.cancel() }
            let lease = try #require(nodes[0].lease)
            let claim = try #require(
                try await ControllerElection(etcd: etcd, keys: keys, nodeID: "n1").campaign(lease: lease)
            )
            let placements = PlacementStore(etcd: etcd, keys: keys)
            for index in 0..<5 { _ = try await placements.create("s\(index)", by: claim) }

            // A cache of its own client, so killing its member leaves the test's writes alone.
            let watcher = try EtcdClient(.init(endpoints: cluster.endpoints))
            let cache = PlacementCache(etcd: watcher, keys: keys)
            let following = Task { try await cache.run() }
            func converged(_ what: String) async throws {
                try await waitUntil(what, timeout: 30) {
                    // What etcd holds, the values that are no placements left out.
                    let records = try await placements.all().records
                    return cache.placements == Dictionary(uniqueKeysWithValues: records.map { ($0.store, $0) })
                }
            }
            try await converged("the cache read every placement")
            #expect(cache.placements.count == 5)
            #expect(cache.revision > 0)

            var random = SeededGenerator(seed: 3_503)
            for step in 0..<20 {
                switch Int.random(in: 0..<4, using: &random) {
                case 0: _ = try await placements.create("t\(step)", by: claim)
                case 1: try await etcd.delete(.key(keys.store("s\(Int.random(in: 0..<5, using: &random))")))
                default:
                    let records = try await placements.all().records
                    guard let read = records.randomElement(using: &random) else { continue }
                    var next = read.placement
                    next.epoch += 1
                    (next.primary, next.replicas[0]) = (next.replicas[0], next.primary)
                    _ = try await placements.change(read, to: next, by: claim)
                }
            }
            try await etcd.put(keys.store("not-a-placement"), value: Array("{}".utf8))
            try await converged("the cache followed the changes")
            #expect(try await placements.all().malformed == [keys.store("not-a-placement")])
            // The value that is no placement leaves the placements as they were: wait for it by its count.
            try await waitUntil("the cache saw the value that is no placement", timeout: 30) {
                cache.malformedRecords == 1
            }
            #expect(cache.placement(of: "not-a-placement") == nil)

            // The member the cache watches goes away; the cache goes on.
            cluster.kill(watcher.preferredEndpoint)
            for step in 0..<5 {
                do {
                    _ = try await placements.create("u\(step)", by: claim)
                } catch let error as EtcdError where error.code != .refused {
                    // An election, or a request lost with the member: the
                    // comparison with etcd below is what counts.
                }
            }
            try await converged("the cache followed after its member died")
            following.cancel()
            _ = try? await following.value
            await watcher.shutdown()
        }
    }
}
