import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Synchronization
import Testing

/// A fleet on one machine (3 etcd members, 3 `anchorage serve --fleet`
/// processes, lease TTL 3 s): stores placed on three nodes, requests
/// forwarded to the primary, and a primary killed under writing clients.
@Suite("Fleet: failover", .serialized)
struct FleetFailoverTests {
    /// What the writing clients saw, and when to stop.
    final class Writers: Sendable {
        let ledger = Mutex(Ledger())
        let stop = Atomic<Bool>(false)
    }

    struct Ledger: Sendable {
        var acknowledged: [UUID] = []
        var refused = 0
        /// When each acknowledgement came.
        var times: [ContinuousClock.Instant] = []
    }

    @Test(
        "A primary killed with -9 under 8 writing clients: no acknowledged write is lost, writes resume, every copy passes audit"
    )
    func killPrimary() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("alice")
            guard let before = await client.placement(of: "alice", via: 1) else {
                Issue.record("no placement")
                return
            }
            #expect(Set([before.primary] + before.replicas) == ["n0", "n1", "n2"])
            // Every node answers; the ones not primary forward.
            let shared = Writers()
            let writers = Task {
                await withTaskGroup(of: Void.self) { group in
                    for writer in 0..<8 {
                        group.addTask {
                            var node = writer % 3
                            while !shared.stop.load(ordering: .relaxed) {
                                let uuid = UUID()
                                let answer = await client.save(uuid, store: "alice", token: token, via: node)
                                if answer.status == 201 {
                                    shared.ledger.withLock {
                                        $0.acknowledged.append(uuid)
                                        $0.times.append(.now)
                                    }
                                } else {
                                    shared.ledger.withLock { $0.refused += 1 }
                                    node = (node + 1) % 3
                                    try? await Task.sleep(for: .milliseconds(50))
                                }
                            }
                        }
                    }
                }
            }
            try await waitUntil("writes are acknowledged", timeout: 60) {
                shared.ledger.withLock { $0.acknowledged.count } >= 200
            }
            let victim = Int(before.primary.dropFirst())!
            let killed = ContinuousClock.now
            fleet.kill(victim)
            let survivor = (victim + 1) % 3
            try await fleet.explaining {
                try await waitUntil("a replica is promoted", timeout: 30) {
                    guard let now = await client.placement(of: "alice", via: survivor) else { return false }
                    return now.primary != before.primary && now.epoch > before.epoch
                }
            }
            try await waitUntil("writes are acknowledged after the kill", timeout: 60) {
                shared.ledger.withLock { $0.times.contains { $0 > killed + .milliseconds(100) } }
            }
            let resumed = shared.ledger.withLock { $0.times.first { $0 > killed + .milliseconds(100) } }!
            let count = shared.ledger.withLock { $0.acknowledged.count }
            try await waitUntil("more writes after the kill", timeout: 60) {
                shared.ledger.withLock { $0.acknowledged.count } >= count + 100
            }
            shared.stop.store(true, ordering: .relaxed)
            await writers.value
            try await fleet.restart(victim)
            let acknowledged = Set(shared.ledger.withLock { $0.acknowledged })
            // The restarted node catches up as a replica.
            try await waitUntil("every copy holds every acknowledged write", timeout: 60) {
                for node in 0..<3 {
                    let held = await client.send(
                        .GET,
                        "/v1/stores/alice/samples?type=HKQuantityTypeIdentifierStepCount&limit=10000",
                        to: node,
                        token: token,
                        headers: [("X-Anchorage-Read", "replica")]
                    )
                    guard held.status == 200 else { return false }
                    let uuids = Set(
                        ((held.json?["samples"] as? [[String: Any]]) ?? []).compactMap {
                            ($0["uuid"] as? String).flatMap(UUID.init(uuidString:))
                        }
                    )
                    if !acknowledged.isSubset(of: uuids) { return false }
                }
                return true
            }
            print(
                "fleet kill -9: \(acknowledged.count) acknowledged, \(shared.ledger.withLock { $0.refused }) refused, "
                    + "writes again \(resumed - killed) after the kill"
            )
            for node in 0..<3 { fleet.stop(node) }
            let contents = try await expectCopiesAgree(fleet, store: "alice")
            #expect(contents.count == 3)
            for held in contents { #expect(acknowledged.isSubset(of: held), "an acknowledged write is missing") }
        }
    }
}
