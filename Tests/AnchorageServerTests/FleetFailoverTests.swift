import AnchorageTestRun
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// A fleet on one machine (3 etcd members, 3 `anchorage serve --fleet`
/// processes, lease TTL 3 s): a store placed on the three nodes, clients
/// writing through every node (the ones not primary forward), and faults:
/// a primary killed, a primary frozen past its lease, etcd losing its
/// majority. Every test ends with `audit verify` on every copy.
@Suite("Fleet: faults", .serialized, .startsProcesses(weight: 2))
struct FleetFailoverTests {
    @Test(
        "A primary killed with -9 under 8 writing clients: no acknowledged write is lost, writes resume, every copy passes audit"
    )
    func killPrimary() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("alice")
            let before = try #require(await client.placement(of: "alice", via: 1))
            #expect(Set([before.primary] + before.replicas) == ["n0", "n1", "n2"])
            let writers = FleetWriters(client, store: "alice", token: token, count: 8)
            try await writers.waitForMore(200)
            // A change-feed consumer reads part of the feed through a node that forwards to the primary.
            let consumer = FleetFeedConsumer(client, store: "alice", token: token)
            for _ in 0..<3 { await consumer.page(via: (Int(before.primary.dropFirst())! + 1) % 3) }
            let victim = Int(before.primary.dropFirst())!
            let killed = ContinuousClock.now
            fleet.kill(victim)
            try await fleet.explaining {
                try await waitUntil("a replica is promoted", timeout: 120) {
                    guard let now = await client.placement(of: "alice", via: (victim + 1) % 3) else { return false }
                    return now.primary != before.primary && now.epoch > before.epoch
                }
                // Sent after the kill: acknowledged by a copy that lives.
                try await waitUntil("a write sent after the kill is acknowledged", timeout: 120) {
                    writers.acknowledged.contains { $0.sent > killed }
                }
            }
            let resumed = writers.acknowledged.first { $0.sent > killed }!.at
            try await writers.waitForMore(100)
            await writers.stop()
            // The consumer goes on from its anchor on the copy that leads now: no 410, nothing twice, nothing missed.
            let survivor = (victim + 1) % 3
            while await consumer.page(via: survivor, limit: 200) {}
            #expect(await consumer.refusals == 0, "the consumer's anchor was refused after the failover")
            #expect(await consumer.added.values.allSatisfy { $0 == 1 }, "the consumer saw a save twice")
            #expect(
                Set(writers.acknowledged.map(\.uuid)).isSubset(of: Set(await consumer.added.keys)),
                "the consumer missed an acknowledged write"
            )
            // Operation: `anchorage fleet status` names the new primary, the epoch and the node gone;
            // the new primary's metrics count the failover.
            // (The killed node is listed gone once its lease has ended: its replicas had it promoted away sooner.)
            let promoted = try #require(await client.placement(of: "alice", via: (victim + 1) % 3))
            var report: [String: Any] = [:]
            try await waitUntil("fleet status lists the killed node gone", timeout: 120) {
                let (code, status) = try await runAnchorage([
                    "fleet", "status", "--etcd", fleet.etcd.endpoints.joined(separator: ","),
                    "--fleet-secret-file", fleet.directory.appendingPathComponent("secret").path, "--format", "json",
                ])
                #expect(code == 0, "\(status)")
                report = try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any] ?? [:]
                return report["missing"] as? [String] == [before.primary]
            }
            let stores = try #require(report["stores"] as? [[String: Any]])
            #expect(stores.first?["primary"] as? String == promoted.primary)
            #expect(stores.first?["epoch"] as? Int == before.epoch + 1)
            #expect(report["missing"] as? [String] == [before.primary])
            let metrics = await client.send(
                .GET,
                "/metrics",
                to: Int(promoted.primary.dropFirst())!,
                token: fleet.secret
            )
            #expect(metricValue("anchorage_fleet_failovers", in: metrics.body) == 1, "\(metrics.body.prefix(2_000))")
            try await fleet.restart(victim)
            let acknowledged = Set(writers.acknowledged.map(\.uuid))
            // The restarted node hands its unacknowledged tail over and catches up as a replica.
            try await fleet.explaining {
                try await client.waitUntilEveryCopyHolds(acknowledged, store: "alice", token: token)
            }
            print(
                "fleet kill -9: \(acknowledged.count) acknowledged, refused \(writers.ledger.withLock { $0.refused }) "
                    + "\(writers.ledger.withLock { $0.surprises }), "
                    + "writes again \(resumed - killed) after the kill"
            )
            try await fleet.explaining { try await client.waitUntilCopiesConverge("alice") }
            fleet.killAll()
            let contents = try await expectCopiesAgree(fleet, store: "alice")
            #expect(contents.count == 3)
            for held in contents { #expect(acknowledged.isSubset(of: held), "an acknowledged write is missing") }
            // Every copy's log holds both epochs; `history --epochs` and `audit verify` show them.
            for node in fleet.nodes {
                let copy = node.directory.appendingPathComponent("alice").path
                let (code, epochs) = try await runAnchorage(["history", "--epochs", "--store", copy])
                #expect(code == 0 && epochs.contains(before.primary) && epochs.contains(promoted.primary), "\(epochs)")
                let (verified, audit) = try await runAnchorage(["audit", "verify", "--store", copy])
                #expect(
                    verified == 0 && audit.contains("the highest is \(before.epoch + 1) (primary \(promoted.primary))")
                )
            }
        }
    }

    @Test(
        "A primary frozen past its lease, then resumed: it acknowledges nothing after its deadline, and one node acknowledges per epoch"
    )
    func pausedPrimary() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("bob")
            let before = try #require(await client.placement(of: "bob", via: 1))
            let writers = FleetWriters(client, store: "bob", token: token, count: 8, timeout: .seconds(6))
            try await writers.waitForMore(150)
            let victim = Int(before.primary.dropFirst())!
            fleet.signal(victim, SIGSTOP)
            try await fleet.explaining {
                try await waitUntil("a replica is promoted", timeout: 120) {
                    guard let now = await client.placement(of: "bob", via: (victim + 1) % 3) else { return false }
                    return now.primary != before.primary
                }
                try await waitUntil("the new primary acknowledges", timeout: 120) {
                    writers.acknowledged.contains { $0.epoch > before.epoch }
                }
            }
            let resumed = ContinuousClock.now
            fleet.signal(victim, SIGCONT)
            try await writers.waitForMore(150)
            await writers.stop()
            let history = writers.acknowledged
            // Decided by events, not by a clock: once the new primary has acknowledged a write, the old
            // one acknowledges nothing sent after (the replicas follow the new epoch, so none confirms
            // it; a node decides after the request was sent, so a slow client cannot make this fail).
            let takeover = try #require(history.filter { $0.epoch > before.epoch }.map(\.at).min())
            let late = history.filter { $0.node == before.primary && $0.sent > takeover }
            #expect(late.isEmpty, "the frozen primary acknowledged \(late.count) writes sent after its successor did")
            #expect(!history.contains { $0.node == before.primary && $0.sent > resumed })
            for (epoch, entries) in Dictionary(grouping: history, by: \.epoch) {
                #expect(Set(entries.map(\.node)).count == 1, "epoch \(epoch) was acknowledged by several nodes")
            }
            let acknowledged = Set(history.map(\.uuid))
            try await fleet.explaining {
                try await client.waitUntilEveryCopyHolds(acknowledged, store: "bob", token: token)
            }
            try await fleet.explaining { try await client.waitUntilCopiesConverge("bob") }
            fleet.killAll()
            let contents = try await expectCopiesAgree(fleet, store: "bob")
            #expect(contents.count == 3)
            for held in contents { #expect(acknowledged.isSubset(of: held), "an acknowledged write is missing") }
        }
    }

    @Test(
        "A request forwarded to a frozen primary is answered 503 fleetUnavailable with Retry-After once the primary is found frozen (or at its deadline), not held; a read that allows a replica is answered by one"
    )
    func forwardedToAFrozenPrimary() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 4, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("dora")
            let placement = try #require(await client.placement(of: "dora", via: 0))
            let victim = Int(placement.primary.dropFirst())!
            let other = (victim + 1) % 4
            // The node holding no copy of the store.
            let bare = try #require(
                (0..<4).first { !([placement.primary] + placement.replicas).contains("n\($0)") }
            )
            // Served once through the others, so their caches know the primary.
            let saved = UUID()
            let body = "[" + FleetSealingTests.sample(1, marker: "frozen", uuid: saved) + "]"
            try await fleet.explaining {
                try await waitUntil("a save through another node", timeout: 60) {
                    await client.send(.POST, "/v1/stores/dora/samples", to: other, token: token, body: body).status
                        < 300
                }
            }
            // Acknowledged once one replica holds it: the read below may reach the other.
            let copies = ([placement.primary] + placement.replicas).compactMap { Int($0.dropFirst()) }
            try await fleet.explaining {
                try await client.waitUntilEveryCopyHolds([saved], store: "dora", token: token, on: copies)
            }
            fleet.signal(victim, SIGSTOP)
            defer { fleet.signal(victim, SIGCONT) }
            // Forwarded at once to the frozen primary (no node knows yet):
            // answered when this node's probes find it frozen or the store
            // moves, at the latest at the deadline — the lease (3 s) or the
            // replica acknowledgement (5 s), the longer, plus 2 s — never
            // held until the client gives up (120 s).
            let path = "/v1/stores/dora/samples?type=HKQuantityTypeIdentifierStepCount"
            async let forwarded = client.send(.GET, path, to: other, token: token)
            // The same read, allowing a replica, through the node without a copy: a replica answers it.
            async let anyCopy = client.send(
                .GET,
                path,
                to: bare,
                token: token,
                headers: [("X-Anchorage-Read", "replica")]
            )
            let (answer, read) = await (forwarded, anyCopy)
            #expect(answer.status == 503, "\(answer.status) \(answer.body.prefix(200))")
            // Given up as soon as this node's probes find the primary frozen (or the store moves), or at the
            // deadline, whichever comes first.
            #expect(
                answer.body.contains("fleetUnavailable")
                    && (answer.body.contains("stopped answering") || answer.body.contains("did not answer within 7 s")),
                "\(answer.body)"
            )
            #expect(answer.headers.first(name: "Retry-After") != nil)
            #expect(answer.status != 0, "the request was held until the client gave up")
            #expect(read.status == 200 && read.body.contains("frozen"), "\(read.status) \(read.body.prefix(300))")
            #expect(read.headers.first(name: "X-Anchorage-Node").map { $0 != placement.primary } == true)
        }
    }

    @Test(
        "etcd loses its majority for 60 s (20 leases): reads go on, writes stop at the lease deadline and resume by themselves; no lease is lost, no failover"
    )
    func etcdQuorumLoss() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("carol")
            let before = try #require(await client.placement(of: "carol", via: 1))
            let writers = FleetWriters(client, store: "carol", token: token, count: 4, timeout: .seconds(6))
            try await writers.waitForMore(100)
            fleet.etcd.kill(1)
            fleet.etcd.kill(2)
            let lost = ContinuousClock.now
            // A leader cut off from the others answers keep-alives until it steps down; once the member
            // left has no leader, none is answered. Every node's deadline is then at most a lease after
            // the last keep-alive it sent, before `leaderless`: past it, writes stop.
            try await fleet.explaining {
                try await waitUntil("etcd's remaining member has no leader", timeout: 120) {
                    await Self.hasLeader(client, member: 0) == false
                }
            }
            let leaderless = ContinuousClock.now
            // Decided by the primary's own event, not by a clock: it says it no longer holds its lease
            // (it could not renew), and from then on refuses writes.
            let primary = Int(before.primary.dropFirst())!
            try await fleet.explaining {
                try await waitUntil("the primary says it no longer holds its lease", timeout: 120) {
                    let status = await client.send(.GET, "/v1/fleet/status", to: primary, token: fleet.secret)
                    return status.status == 200 && status.body.contains(#""holdsLease":false"#)
                }
            }
            let deadline = ContinuousClock.now
            try await fleet.explaining {
                try await waitUntil("writes sent after the primary's deadline are refused", timeout: 120) {
                    writers.refused(sentAfter: deadline) >= 8
                }
            }
            // Reads go on, from every copy.
            for node in 0..<3 {
                let read = await client.send(
                    .GET,
                    "/v1/stores/carol/samples?type=HKQuantityTypeIdentifierStepCount&limit=10",
                    to: node,
                    token: token,
                    headers: [("X-Anchorage-Read", "replica")]
                )
                #expect(read.status == 200, "a read failed while etcd had no majority: \(read.status) \(read.body)")
            }
            // Kill moment: etcd comes back 60 s after it lost its majority, long past every lease;
            // any moment after the refusals above is valid, and no check below depends on it.
            try await Task.sleep(until: lost + .seconds(60))
            let restarting = ContinuousClock.now
            try await fleet.etcd.restart(1)
            try await fleet.etcd.restart(2)
            try await fleet.explaining { try await writers.waitForMore(100, timeout: 120) }
            await writers.stop()
            // Sent after every deadline and answered before etcd came back: acknowledged without a lease.
            let unleased = writers.acknowledged.filter { $0.sent > deadline && $0.at < restarting }
            let times =
                "etcd lost its majority at \(lost), had no leader at \(leaderless), the primary's lease ended by "
                + "\(deadline), etcd came back at \(restarting)"
            #expect(
                unleased.isEmpty,
                "\(unleased.count) writes were acknowledged without a lease: \(times); \(unleased.prefix(3))"
            )
            let after = try #require(await client.placement(of: "carol", via: 1))
            #expect(after.primary == before.primary && after.epoch == before.epoch, "a failover happened")
            // The leases outlived the outage (etcd's new leader extends them; the nodes renew at once).
            for index in fleet.nodes.indices {
                #expect(!fleet.log(index).contains("lease expired"), "node \(index) lost its lease")
            }
            let acknowledged = Set(writers.acknowledged.map(\.uuid))
            try await client.waitUntilEveryCopyHolds(acknowledged, store: "carol", token: token)
            try await fleet.explaining { try await client.waitUntilCopiesConverge("carol") }
            fleet.killAll()
            let contents = try await expectCopiesAgree(fleet, store: "carol")
            for held in contents { #expect(acknowledged.isSubset(of: held), "an acknowledged write is missing") }
        }
    }

    @Test(
        "etcd's leader killed under writing clients, three times: etcd elects another, every lease and the controller's claim survive, no store changes primary, writes go on; every copy passes audit"
    )
    func etcdLeaderKilled() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 10)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("erin")
            let before = try #require(await client.placement(of: "erin", via: 1))
            let writers = FleetWriters(client, store: "erin", token: token, count: 8, timeout: .seconds(20))
            try await writers.waitForMore(100)
            for round in 0..<3 {
                var leader: Int?
                try await waitUntil("etcd has a leader (round \(round))", timeout: 120) {
                    leader = await Self.leaderIndex(client)
                    return leader != nil
                }
                fleet.etcd.kill(leader!)
                try await fleet.explaining {
                    try await waitUntil("etcd elects another leader (round \(round))", timeout: 120) {
                        await Self.leaderIndex(client).map { $0 != leader } == true
                    }
                    try await writers.waitForMore(100)
                }
                try await fleet.etcd.restart(leader!)
            }
            await writers.stop()
            let after = try #require(await client.placement(of: "erin", via: 1))
            #expect(after.primary == before.primary && after.epoch == before.epoch, "a failover happened")
            for index in fleet.nodes.indices {
                #expect(!fleet.log(index).contains("lease expired"), "node \(index) lost its lease")
                #expect(!fleet.log(index).contains("reported unreachable"), "node \(index) reported a node")
            }
            let acknowledged = Set(writers.acknowledged.map(\.uuid))
            try await fleet.explaining {
                try await client.waitUntilEveryCopyHolds(acknowledged, store: "erin", token: token)
                try await client.waitUntilCopiesConverge("erin")
            }
            fleet.killAll()
            let contents = try await expectCopiesAgree(fleet, store: "erin")
            for held in contents { #expect(acknowledged.isSubset(of: held), "an acknowledged write is missing") }
        }
    }

    /// The index of etcd's leader, from the members' own status; `nil` while
    /// none answers naming itself leader.
    static func leaderIndex(_ client: FleetClient) async -> Int? {
        for (index, endpoint) in client.fleet.etcd.endpoints.enumerated() {
            var request = HTTPClientRequest(url: endpoint + "/v3/maintenance/status")
            request.method = .POST
            request.body = .bytes(ByteBuffer(string: "{}"))
            guard let response = try? await client.http.execute(request, timeout: .seconds(5)),
                response.status == .ok,
                let body = try? await response.body.collect(upTo: 1 << 20),
                let status = (try? JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)))
                    as? [String: Any],
                let header = status["header"] as? [String: Any],
                let member = header["member_id"] as? String,
                let leader = status["leader"] as? String
            else { continue }
            if member == leader { return index }
        }
        return nil
    }

    /// Whether etcd member `member` knows a leader (`/v3/maintenance/status`
    /// answers locally, without a majority); `nil` when it does not answer.
    static func hasLeader(_ client: FleetClient, member: Int) async -> Bool? {
        var request = HTTPClientRequest(url: client.fleet.etcd.endpoints[member] + "/v3/maintenance/status")
        request.method = .POST
        request.body = .bytes(ByteBuffer(string: "{}"))
        guard let response = try? await client.http.execute(request, timeout: .seconds(120)),
            response.status == .ok,
            let body = try? await response.body.collect(upTo: 1 << 20),
            let status = (try? JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8))) as? [String: Any]
        else { return nil }
        // A member without a leader reports leader 0, which the gateway leaves out.
        return (status["leader"] as? String ?? "0") != "0"
    }
}
