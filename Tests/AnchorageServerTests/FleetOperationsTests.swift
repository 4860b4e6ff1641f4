import AnchorageTestRun
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing

/// The fleet's planned changes on one machine: a node asked to stop hands
/// its stores over, a lost replica is replaced (add, sync, then count), and
/// an operator moves a store's copy. Every test ends with `audit verify`
/// on every copy the placement names.
@Suite("Fleet: handoff, re-replication, moves", .serialized, .startsProcesses(weight: 2))
struct FleetOperationsTests {
    /// The node indices a placement names (`n2` → 2).
    static func indices(_ nodes: [String]) -> [Int] { nodes.compactMap { Int($0.dropFirst()) } }

    @Test(
        "SIGTERM to a primary under writing clients: it hands the store over at the next epoch, then exits; nothing acknowledged is lost"
    )
    func handoff() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("dora")
            let before = try #require(await client.placement(of: "dora", via: 0))
            let writers = FleetWriters(client, store: "dora", token: token, count: 4)
            try await writers.waitForMore(100)
            let leaving = Int(before.primary.dropFirst())!
            let asked = ContinuousClock.now
            // A guard against a node that never exits, not a measure of how fast it hands over.
            let status = await fleet.stop(leaving, timeout: 120)
            let stopped = ContinuousClock.now
            #expect(status == 0, "the node did not exit cleanly: \(fleet.log(leaving).suffix(2_000))")
            #expect(fleet.log(leaving).contains("handed the stores over"), "\(fleet.log(leaving).suffix(2_000))")
            // The other nodes learn the new placement from etcd's watch, as soon as it comes.
            try await fleet.explaining {
                try await waitUntil("another node sees the next epoch", timeout: 120) {
                    let now = await client.placement(of: "dora", via: (leaving + 1) % 3)
                    return (now?.epoch ?? before.epoch) > before.epoch
                }
            }
            let after = try #require(await client.placement(of: "dora", via: (leaving + 1) % 3))
            #expect(after.primary != before.primary && after.epoch == before.epoch + 1)
            try await fleet.explaining { try await writers.waitForMore(100, timeout: 120) }
            await writers.stop()
            // While it handed over, writes went on: the longest gap between acknowledgements.
            let times = writers.acknowledged.map(\.at).sorted()
            let gap = zip(times, times.dropFirst()).map { $1 - $0 }.max() ?? .zero
            print("fleet handoff: stopped in \(stopped - asked), longest gap between acknowledgements \(gap)")
            try await fleet.restart(leaving)
            let acknowledged = Set(writers.acknowledged.map(\.uuid))
            try await fleet.explaining {
                try await client.waitUntilEveryCopyHolds(acknowledged, store: "dora", token: token)
            }
            try await fleet.explaining { try await client.waitUntilCopiesConverge("dora") }
            fleet.killAll()
            for held in try await expectCopiesAgree(fleet, store: "dora") {
                #expect(acknowledged.isSubset(of: held), "an acknowledged write is missing")
            }
        }
    }

    @Test(
        "A replica's node lost for good: a fourth node joins, catches up, and only then counts; the lost copy leaves the placement"
    )
    func reReplication() async throws {
        let fleet = try await FleetTestHarness.start(
            binary: anchorageBinary,
            nodes: 4,
            leaseTTL: 3,
            arguments: ["--replace-after", "2"]
        )
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("erin")
            let before = try #require(await client.placement(of: "erin", via: 0))
            let spare = try #require(Set(0..<4).subtracting(Self.indices([before.primary] + before.replicas)).first)
            let writers = FleetWriters(client, store: "erin", token: token, count: 4)
            try await writers.waitForMore(100)
            let lost = Self.indices(before.replicas)[0]
            fleet.kill(lost)
            try await fleet.explaining {
                try await waitUntil("the spare node counts as a replica", timeout: 120) {
                    guard let now = await client.placement(of: "erin", via: spare) else { return false }
                    return now.replicas.contains("n\(spare)") && !now.replicas.contains("n\(lost)")
                }
            }
            try await writers.waitForMore(100)
            await writers.stop()
            let now = try #require(await client.placement(of: "erin", via: spare))
            let copies = Self.indices([now.primary] + now.replicas)
            #expect(copies.count == 3 && !copies.contains(lost))
            let acknowledged = Set(writers.acknowledged.map(\.uuid))
            try await client.waitUntilEveryCopyHolds(acknowledged, store: "erin", token: token, on: copies)
            try await fleet.explaining { try await client.waitUntilCopiesConverge("erin", on: copies) }
            fleet.killAll()
            for held in try await expectCopiesAgree(fleet, store: "erin", on: copies) {
                #expect(acknowledged.isSubset(of: held), "an acknowledged write is missing")
            }
        }
    }

    @Test(
        "Moving a store's primary copy to another node: hand over, add, sync, count, drop; writes go on, nothing acknowledged is lost"
    )
    func move() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 4, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("finn")
            let before = try #require(await client.placement(of: "finn", via: 0))
            let spare = try #require(Set(0..<4).subtracting(Self.indices([before.primary] + before.replicas)).first)
            let writers = FleetWriters(client, store: "finn", token: token, count: 4)
            try await writers.waitForMore(100)
            let moved = await client.send(
                .POST,
                "/v1/stores/finn/move",
                to: spare,
                token: fleet.secret,
                body: #"{"from":"\#(before.primary)","to":"n\#(spare)"}"#
            )
            #expect(moved.status == 202, "\(moved.status) \(moved.body)")
            try await fleet.explaining {
                try await waitUntil("the copy has moved", timeout: 120) {
                    guard let now = await client.placement(of: "finn", via: spare) else { return false }
                    return Set([now.primary] + now.replicas).contains("n\(spare)")
                        && !Set([now.primary] + now.replicas).contains(before.primary)
                }
            }
            try await writers.waitForMore(100)
            await writers.stop()
            let now = try #require(await client.placement(of: "finn", via: spare))
            let copies = Self.indices([now.primary] + now.replicas)
            let acknowledged = Set(writers.acknowledged.map(\.uuid))
            try await client.waitUntilEveryCopyHolds(acknowledged, store: "finn", token: token, on: copies)
            // The source drops its copy.
            let source = Int(before.primary.dropFirst())!
            try await waitUntil("the source dropped its copy", timeout: 120) {
                !FileManager.default.fileExists(
                    atPath: fleet.nodes[source].directory.appendingPathComponent("finn").path
                )
            }
            try await fleet.explaining { try await client.waitUntilCopiesConverge("finn", on: copies) }
            fleet.killAll()
            for held in try await expectCopiesAgree(fleet, store: "finn", on: copies) {
                #expect(acknowledged.isSubset(of: held), "an acknowledged write is missing")
            }
        }
    }
}
