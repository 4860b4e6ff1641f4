import AnchorageTestRun
import AnchorageTesting
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Failover that does not wait for the lease (docs/fleet.md, "Failover"):
/// leases of 60 s, so anything that changes before one ends was decided by
/// the replicas' probes. The test reads the order of events from etcd (the
/// dead node's key is still there when its stores have moved), never from
/// a clock.
@Suite("Fleet: failover before the lease ends", .serialized, .startsProcesses(weight: 2))
struct FleetSuspicionTests {
    /// `anchorage fleet status --format json`.
    static func status(
        _ fleet: FleetTestHarness
    ) async throws -> (
        controller: String?, live: Set<String>, primaries: [String: String]
    ) {
        let (code, output) = try await runAnchorage([
            "fleet", "status", "--etcd", fleet.etcd.endpoints.joined(separator: ","), "--format", "json",
        ])
        guard code == 0, let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
            throw FleetTestHarnessError(description: "fleet status failed: \(output)")
        }
        let nodes = (report["nodes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        var primaries: [String: String] = [:]
        for store in report["stores"] as? [[String: Any]] ?? [] {
            if let id = store["id"] as? String, let primary = store["primary"] as? String { primaries[id] = primary }
        }
        return (report["controller"] as? String, Set(nodes), primaries)
    }

    @Test(
        "The controller's node, leading a store, killed with -9 (leases 60 s): its peers depose it and promote a replica while its key still lives; restarted at once, it takes its lease back; then the new primary frozen: promoted away the same way; nothing acknowledged is lost, every copy passes audit"
    )
    func beforeTheLeaseEnds() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 60)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            // Three stores: each node leads one (the primaries are balanced from the start).
            var tokens: [String: String] = [:]
            for store in ["s0", "s1", "s2"] { tokens[store] = try await client.createStore(store) }
            let placed = try await Self.status(fleet)
            #expect(Set(placed.primaries.values) == ["n0", "n1", "n2"], "\(placed.primaries)")
            let controller = try #require(placed.controller)
            let store = try #require(placed.primaries.first { $0.value == controller }?.key)
            let token = try #require(tokens[store])
            let writers = FleetWriters(client, store: store, token: token, count: 8, timeout: .seconds(20))
            try await writers.waitForMore(100)
            let victim = Int(controller.dropFirst())!
            fleet.kill(victim)
            var moved = placed
            try await fleet.explaining {
                try await waitUntil("the killed node's store is led elsewhere, by a new controller", timeout: 120) {
                    moved = try await Self.status(fleet)
                    return moved.primaries[store] != controller && moved.controller.map { $0 != controller } == true
                }
            }
            // The order of events: its key (on its 60 s lease) was still in etcd after the change.
            #expect(moved.live.contains(controller), "the store moved only once the killed node's lease ended")
            try await fleet.explaining {
                try await waitUntil("a write is acknowledged at the next epoch", timeout: 120) {
                    writers.acknowledged.contains { $0.node != controller && $0.node == moved.primaries[store] }
                }
            }
            // Restarted at once: it takes its lease back (no wait for it to end) and follows as a replica.
            try await fleet.restart(victim)
            #expect(fleet.log(victim).contains("rejoined the fleet on its lease"), "\(fleet.log(victim).suffix(2_000))")
            // Now the new primary freezes.
            let leader = try #require(moved.primaries[store])
            let frozen = Int(leader.dropFirst())!
            fleet.signal(frozen, SIGSTOP)
            var after = moved
            try await fleet.explaining {
                try await waitUntil("the frozen node's store is led elsewhere", timeout: 120) {
                    after = try await Self.status(fleet)
                    return after.primaries[store].map { $0 != leader } == true
                }
            }
            #expect(after.live.contains(leader), "the store moved only once the frozen node's lease ended")
            fleet.signal(frozen, SIGCONT)
            try await writers.waitForMore(100)
            await writers.stop()
            for (epoch, entries) in Dictionary(grouping: writers.acknowledged, by: \.epoch) {
                #expect(Set(entries.map(\.node)).count == 1, "epoch \(epoch) was acknowledged by several nodes")
            }
            let acknowledged = Set(writers.acknowledged.map(\.uuid))
            try await fleet.explaining {
                try await client.waitUntilEveryCopyHolds(acknowledged, store: store, token: token)
                try await client.waitUntilCopiesConverge(store)
            }
            fleet.killAll()
            let contents = try await expectCopiesAgree(fleet, store: store)
            #expect(contents.count == 3)
            for held in contents { #expect(acknowledged.isSubset(of: held), "an acknowledged write is missing") }
        }
    }
}
