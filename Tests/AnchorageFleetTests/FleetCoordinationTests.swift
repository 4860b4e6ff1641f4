import AnchorageCore
import AnchorageTestRun
import AnchorageTesting
import Etcd
import Foundation
import Testing

@testable import AnchorageFleet

/// Membership, the controller's claim and placements against a real
/// three-member etcd, one cluster per test, one test at a time.
@Suite("Fleet coordination on a real etcd", .serialized, .startsProcesses(weight: 2))
struct FleetCoordinationTests {
    /// A cluster, a client and a key root of their own for `body`; all
    /// stopped afterwards, whatever happens.
    static func withFleet(_ body: (EtcdTestCluster, EtcdClient, FleetKeys) async throws -> Void) async throws {
        try await EtcdTestCluster.with { cluster in
            let etcd = try EtcdClient(.init(endpoints: cluster.endpoints))
            let keys = FleetKeys(root: "/fleet-\(UUID().uuidString.prefix(8))/")
            let result = await Result(catchingAsync: { try await body(cluster, etcd, keys) })
            await etcd.shutdown()
            try result.get()
        }
    }

    static func member(
        _ id: String,
        zone: String? = nil,
        ttl: Int64 = 10,
        clock: StoreClock = .continuous,
        _ etcd: EtcdClient,
        _ keys: FleetKeys
    ) -> NodeMembership {
        NodeMembership(
            etcd: etcd,
            keys: keys,
            nodeID: id,
            record: NodeRecord(address: "http://127.0.0.1:1/\(id)", zone: zone),
            ttl: ttl,
            margin: .milliseconds(500),
            clock: clock
        )
    }

    /// Joins `nodes` and keeps their leases alive (as running nodes do)
    /// until the returned task is cancelled: a slow machine must not let
    /// them expire in the middle of a test.
    static func live(_ nodes: [NodeMembership]) async throws -> Task<Void, Never> {
        for node in nodes { try await node.join() }
        return Task {
            await withTaskGroup(of: Void.self) { group in
                for node in nodes { group.addTask { await node.run() } }
            }
        }
    }

    @Test(
        "membership: a node joins with its lease; a second process with its id is refused; leaving deletes the key at once"
    )
    func membership() async throws {
        try await Self.withFleet { _, etcd, keys in
            // On a clock the test moves: the deadline is exact.
            let clock = TestClock()
            let node = Self.member("n1", zone: "a", clock: StoreClock(clock), etcd, keys)
            #expect(!node.holdsLease())
            let sent = node.clock.instant
            try await node.join()
            #expect(node.holdsLease())
            // TTL 10 s less the 0.5 s margin, counted from when the grant was sent.
            #expect(node.deadline == sent + .milliseconds(9_500))
            #expect(
                node.holdsLease(at: sent + .milliseconds(9_499)) && !node.holdsLease(at: sent + .milliseconds(9_500))
            )
            let renewing = Task { await node.run() }
            defer { renewing.cancel() }
            let live = try await NodeMembership.liveNodes(etcd: etcd, keys: keys)
            #expect(live.map(\.id) == ["n1"])
            #expect(live.first?.record.zone == "a")
            #expect(live.first?.lease == node.lease)

            let twin = Self.member("n1", etcd, keys)
            do {
                try await twin.join()
                Issue.record("a second process with a live node's id is refused")
            } catch let error as FleetError {
                #expect(error.code == .nodeIDInUse, "\(error)")
            }
            #expect(try await NodeMembership.liveNodes(etcd: etcd, keys: keys).first?.lease == node.lease)

            renewing.cancel()
            await renewing.value
            try await node.leave()
            #expect(!node.holdsLease())
            #expect(try await NodeMembership.liveNodes(etcd: etcd, keys: keys).isEmpty)
            try await twin.join()  // the id is free again
            #expect(try await NodeMembership.liveNodes(etcd: etcd, keys: keys).map(\.id) == ["n1"])
        }
    }

    @Test("a node that stops renewing vanishes within its TTL; its deadline passes first; renewing again rejoins")
    func expiry() async throws {
        try await Self.withFleet { _, etcd, keys in
            let node = Self.member("n2", ttl: 4, etcd, keys)
            try await node.join()
            let joined = try #require(node.deadline)
            let renewing = Task { await node.run() }
            // Kept alive past its TTL: a keep-alive sent after the first
            // grant's TTL had run out found the lease alive (the deadline
            // counts from that keep-alive), with no rejoin on the way.
            try await waitUntil("a renewal past the first TTL", timeout: 120) {
                (node.deadline ?? joined) > joined + .seconds(4)
            }
            #expect(node.rejoins == 0)
            #expect(try await NodeMembership.liveNodes(etcd: etcd, keys: keys).map(\.id) == ["n2"])
            // Frozen: no keep-alive.
            renewing.cancel()
            await renewing.value
            try await waitUntil("the frozen node's key vanished", timeout: 120) {
                try await NodeMembership.liveNodes(etcd: etcd, keys: keys).isEmpty
            }
            // Its own deadline had passed before etcd let the key go.
            let gone = node.clock.instant
            #expect(!node.holdsLease(at: gone))
            #expect(try #require(node.deadline) < gone)
            // Resumed: the next keep-alive finds the lease gone and joins again.
            let resumed = Task { await node.run() }
            try await waitUntil("the node rejoined", timeout: 120) {
                try await NodeMembership.liveNodes(etcd: etcd, keys: keys).map(\.id) == ["n2"]
            }
            #expect(node.rejoins == 1)
            #expect(node.holdsLease())
            resumed.cancel()
            await resumed.value
        }
    }

    @Test(
        "the controller's claim: one holder; a lost lease hands it on with a higher token; the old claim changes nothing"
    )
    func election() async throws {
        try await Self.withFleet { _, etcd, keys in
            let (a, b) = (Self.member("a", zone: "z1", etcd, keys), Self.member("b", zone: "z2", etcd, keys))
            let renewingA = try await Self.live([a])
            let renewingB = try await Self.live([b])
            defer {
                renewingA.cancel()
                renewingB.cancel()
            }
            let electA = ControllerElection(etcd: etcd, keys: keys, nodeID: "a")
            let electB = ControllerElection(etcd: etcd, keys: keys, nodeID: "b")
            let (leaseA, leaseB) = (try #require(a.lease), try #require(b.lease))
            let claimA = try #require(try await electA.campaign(lease: leaseA))
            #expect(try await electB.campaign(lease: leaseB) == nil)
            #expect(try await electB.holder() == claimA)
            #expect(try await electA.campaign(lease: leaseA) == claimA, "a holder keeps its claim")

            let placements = PlacementStore(etcd: etcd, keys: keys, copies: 2)
            let (first, created) = try await placements.create("alice", by: claimA)
            #expect(created)
            #expect(Set(first.placement.copies) == ["a", "b"])

            // a's lease ends (a crash, a pause past its TTL): b takes over.
            renewingA.cancel()
            await renewingA.value
            try await a.leave()
            let claimB = try #require(try await electB.campaign(lease: leaseB))
            #expect(claimB.token > claimA.token)
            // a still believes it decides: fenced off, nothing written.
            for attempt in 0..<2 {
                do {
                    if attempt == 0 {
                        _ = try await placements.create("bob", by: claimA)
                    } else {
                        var moved = first.placement
                        moved.epoch += 1
                        _ = try await placements.change(first, to: moved, by: claimA)
                    }
                    Issue.record("a deposed controller's transaction is refused")
                } catch let error as FleetError {
                    #expect(error.code == .notController, "\(error)")
                }
            }
            #expect(try await placements.placement(of: "bob") == nil)
            #expect(try await placements.placement(of: "alice") == first)
            // b's claim works, and resigning frees it.
            #expect(try await placements.create("bob", by: claimB).created)
            try await electB.resign(claimB)
            #expect(try await electB.holder() == nil)
        }
    }

    @Test(
        "placements: three copies in three zones, least loaded; creating twice gives the first; a stale change is a conflict"
    )
    func placements() async throws {
        try await Self.withFleet { _, etcd, keys in
            let nodes = ["n1": "a", "n2": "a", "n3": "b", "n4": "c"].map {
                Self.member($0.key, zone: $0.value, etcd, keys)
            }
            let renewing = try await Self.live(nodes)
            defer { renewing.cancel() }
            let lease = try #require(nodes.first { $0.nodeID == "n1" }?.lease)
            let claim = try #require(
                try await ControllerElection(etcd: etcd, keys: keys, nodeID: "n1").campaign(lease: lease)
            )
            let placements = PlacementStore(etcd: etcd, keys: keys)
            let zone = ["n1": "a", "n2": "a", "n3": "b", "n4": "c"]
            for index in 0..<12 {
                let (record, created) = try await placements.create("s\(index)", by: claim)
                #expect(created && record.placement.epoch == 1)
                #expect(Set(record.placement.copies.map { zone[$0]! }) == ["a", "b", "c"])
            }
            // Zone a has two nodes that share its copies: b and c hold one of every store.
            let loads = try await placements.loads(of: ["n1", "n2", "n3", "n4"])
            #expect(loads == ["n1": 6, "n2": 6, "n3": 12, "n4": 12])
            let again = try await placements.create("s0", by: claim)
            #expect(!again.created)
            #expect(again.record == (try await placements.placement(of: "s0")))

            // Move s0's copy from one node of zone a to the other, and promote.
            let read = try #require(try await placements.placement(of: "s0"))
            let inA = read.placement.copies.first { zone[$0] == "a" }!
            let otherA = inA == "n1" ? "n2" : "n1"
            var moved = read.placement
            moved.primary = read.placement.replicas[0]
            moved.replicas = read.placement.copies.filter { $0 != moved.primary }.map { $0 == inA ? otherA : $0 }
            moved.epoch += 1
            guard case .changed(let changed) = try await placements.change(read, to: moved, by: claim) else {
                Issue.record("the change applies")
                return
            }
            #expect(changed.placement == moved && changed.modRevision > read.modRevision)
            // Read before the change: a conflict, with the record as it is.
            var stale = read.placement
            stale.epoch += 5
            #expect(try await placements.change(read, to: stale, by: claim) == .conflict(changed))
            // The index follows: the node that left has no role; the others have theirs.
            #expect(try await placements.stores(on: inA)["s0"] == nil)
            #expect(try await placements.stores(on: moved.primary)["s0"] == .primary)
            for replica in moved.replicas { #expect(try await placements.stores(on: replica)["s0"] == .replica) }
            #expect(throws: FleetError.self) {
                try Placement(primary: "n1", replicas: ["n1"], epoch: 1).check()
            }

            // Several at once (a lost node's stores): all of them in one transaction, or — one record
            // changed meanwhile — none.
            var batch: [(record: PlacementRecord, placement: Placement, also: [EtcdOperation])] = []
            for store in ["s1", "s2", "s3"] {
                let record = try #require(try await placements.placement(of: store))
                var next = record.placement
                next.primary = record.placement.replicas[0]
                next.replicas = record.placement.copies.filter { $0 != next.primary }
                next.epoch += 1
                batch.append((record, next, []))
            }
            var staleBatch = batch
            staleBatch[1].record = read  // s0 as read before its change: stale
            staleBatch[1].placement = stale
            #expect(try await placements.changeAll(staleBatch, by: claim) == nil)
            for change in batch {
                #expect(try await placements.placement(of: change.record.store) == change.record, "none changed")
            }
            let all = try #require(try await placements.changeAll(batch, by: claim))
            for (change, record) in zip(batch, all) {
                #expect(try await placements.placement(of: change.record.store) == record)
                #expect(record.placement == change.placement)
                #expect(try await placements.stores(on: change.placement.primary)[change.record.store] == .primary)
            }
        }
    }

    @Test(
        "a lost node's 130 stores re-placed in as few transactions as etcd takes (128 operations each): every run accepted, all changed"
    )
    func transactionsFitEtcd() async throws {
        try await Self.withFleet { _, etcd, keys in
            let nodes = ["n1", "n2", "n3", "n4"].map { Self.member($0, etcd, keys) }
            let renewing = try await Self.live(nodes)
            defer { renewing.cancel() }
            let lease = try #require(nodes[0].lease)
            let claim = try #require(
                try await ControllerElection(etcd: etcd, keys: keys, nodeID: "n1").campaign(lease: lease)
            )
            let placements = PlacementStore(etcd: etcd, keys: keys, copies: 3)
            var changes: [(record: PlacementRecord, placement: Placement, also: [EtcdOperation])] = []
            for index in 0..<130 {
                let record = try await placements.create("t\(index)", by: claim).record
                // Each store's copy on the lost node goes to the node that held none: its record, one index
                // entry deleted and one written.
                let lost = record.placement.copies[record.placement.copies.count - 1]
                let spare = try #require(["n1", "n2", "n3", "n4"].first { record.placement.role(of: $0) == nil })
                var next = record.placement
                next.replicas = next.replicas.map { $0 == lost ? spare : $0 }
                if next.primary == lost { next.primary = spare }
                changes.append((record, next, []))
            }
            let runs = placements.transactions(changes)
            // 3 operations a store: 42 fit in 128.
            #expect(runs.map(\.count) == [42, 42, 42, 4])
            #expect(runs.first?.lowerBound == 0 && runs.last?.upperBound == 130)
            for (run, next) in zip(runs, runs.dropFirst()) { #expect(run.upperBound == next.lowerBound) }
            for run in runs {
                #expect(try await placements.changeAll(Array(changes[run]), by: claim) != nil, "etcd took \(run)")
            }
            for change in changes {
                #expect(try await placements.placement(of: change.record.store)?.placement == change.placement)
            }
        }
    }

    @Test("generated histories of creates and changes, some stale: the per-node index always equals the placements")
    func indexMatchesPlacements() async throws {
        try await Self.withFleet { _, etcd, keys in
            let ids = ["n1", "n2", "n3", "n4", "n5"]
            let nodes = ids.map { Self.member($0, etcd, keys) }
            let renewing = try await Self.live(nodes)
            defer { renewing.cancel() }
            let lease = try #require(nodes[0].lease)
            let claim = try #require(
                try await ControllerElection(etcd: etcd, keys: keys, nodeID: "n1").campaign(lease: lease)
            )
            let placements = PlacementStore(etcd: etcd, keys: keys)
            var random = SeededGenerator(seed: 3_502)
            var reads: [PlacementRecord] = []
            for step in 0..<60 {
                if reads.isEmpty || Int.random(in: 0..<3, using: &random) == 0 {
                    reads.append(try await placements.create("s\(step)", by: claim).record)
                    continue
                }
                // Change a record as read some steps ago (maybe stale).
                let read = reads.randomElement(using: &random)!
                let copies = Array(ids.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
                let next = Placement(
                    primary: copies[0],
                    replicas: Array(copies.dropFirst()),
                    epoch: read.placement.epoch + 1
                )
                switch try await placements.change(read, to: next, by: claim) {
                case .changed(let record), .conflict(let record): reads.append(record)
                }
            }
            let (records, _, malformed) = try await placements.all()
            #expect(malformed.isEmpty)
            var expected: [String: [String: Placement.Role]] = [:]
            for record in records {
                for node in record.placement.copies {
                    expected[node, default: [:]][record.store] = record.placement.role(of: node)
                }
            }
            for node in ids {
                #expect(try await placements.stores(on: node) == expected[node] ?? [:], "node \(node)")
            }
            // No index key outside a node that holds copies.
            let indexed = try await etcd.range(.prefix(keys.byNode), countOnly: true).count
            #expect(Int(indexed) == records.reduce(0) { $0 + $1.placement.copies.count })
        }
    }
}
