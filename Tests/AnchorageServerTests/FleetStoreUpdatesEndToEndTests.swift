import AnchorageTestRun
import AnchorageTesting
import Foundation
import NIOHTTP1
import Testing

/// A fleet's store-updates feed as its consumers read it: `GET
/// /v1/store-updates` on any node with the fleet's secret, and `anchorage
/// follow-stores` following every store with one cursor file, across a
/// primary killed with -9. Ends with `audit verify` on every copy.
@Suite("Fleet: one feed across every store", .serialized, .startsProcesses(weight: 2))
struct FleetStoreUpdatesEndToEndTests {
    /// What `anchorage follow-stores --once` printed: each store's added uuids.
    static func followed(_ output: String) -> [String: [UUID]] {
        var added: [String: [UUID]] = [:]
        for line in output.split(separator: "\n") {
            guard let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let store = json["store"] as? String, let object = json["added"] as? [String: Any],
                let uuid = (object["uuid"] as? String).flatMap(UUID.init(uuidString:))
            else { continue }
            added[store, default: []].append(uuid)
        }
        return added
    }

    @Test(
        "ENDPOINT store-updates on a fleet: any node lists every store, chains each store's updates (since = the anchor before), wakes a long-poll, refuses a store's token; follow-stores with one cursor file sees every acknowledged save across a primary killed with -9; every copy passes audit"
    )
    func followAcrossFailover() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let stores = ["alice", "bob", "carol"]
            var tokens: [String: String] = [:]
            var saved: [String: Set<UUID>] = [:]
            // Saved until acknowledged: a new store, or one whose primary was just replaced, answers 503 a moment
            // (after storing it, when no replica confirmed in time: sent again, it is refused as existing, OBJ-32).
            func save(_ store: String, via node: Int) async throws -> UUID {
                let uuid = UUID()
                try await waitUntil("a save to \(store) is acknowledged", timeout: 120) {
                    let answer = await client.save(uuid, store: store, token: tokens[store]!, via: node)
                    return [200, 201].contains(answer.status)
                        || (answer.status == 400 && answer.body.contains("OBJ-32"))
                }
                saved[store, default: []].insert(uuid)
                return uuid
            }
            for (index, store) in stores.enumerated() {
                tokens[store] = try await client.createStore(store, via: index)
                for _ in 0..<3 { _ = try await save(store, via: index) }
            }
            // A store's own token reads its store, not the fleet's feed; without a token, nothing.
            let refused = await client.send(.GET, "/v1/store-updates", to: 1, token: tokens["alice"]!)
            #expect([401, 403].contains(refused.status), "\(refused.status) \(refused.body)")
            let anonymous = await client.send(.GET, "/v1/store-updates", to: 1, token: "")
            #expect(anonymous.status == 401, "\(anonymous.status)")
            #expect(refused.json?["updates"] == nil, "a refusal lists no store")
            // Cursors of another shape, of another fleet, or from past etcd's revision; limits out of range.
            for (query, code) in [
                ("since=nonsense", "invalidCursor"), ("since=0123456789abcdef01234567-1-0", "invalidCursor"),
                ("since=" + String(repeating: "a", count: 10_000), "invalidCursor"), ("limit=0", "invalidArgument"),
                ("wait=100000", "invalidArgument"), ("stream=ndjson&wait=5", "badRequest"),
            ] {
                let answer = await client.send(.GET, "/v1/store-updates?\(query)", to: 2, token: fleet.secret)
                #expect(
                    answer.status == 400 && answer.json?["code"] as? String == code,
                    "\(query.prefix(40)): \(answer.body)"
                )
            }

            // The listing, through a node that leads none or some of them: every store at its last anchor.
            var listed: [String: String] = [:]
            var cursor = ""
            try await fleet.explaining {
                try await waitUntil("every store's saves are published to the fleet's feed", timeout: 120) {
                    let answer = await client.send(.GET, "/v1/store-updates?limit=2", to: 2, token: fleet.secret)
                    guard answer.status == 200 else { return false }
                    // Read every page of the listing.
                    var page = answer.json ?? [:]
                    var found: [String: String] = [:]
                    while true {
                        for update in page["updates"] as? [[String: Any]] ?? [] {
                            #expect(update["since"] is NSNull, "a listed store has no since")
                            if let store = update["store"] as? String, let anchor = update["anchor"] as? String {
                                found[store] = anchor
                            }
                        }
                        guard let next = page["newCursor"] as? String else { return false }
                        cursor = next
                        guard page["hasMore"] as? Bool == true else { break }
                        let more = await client.send(
                            .GET,
                            "/v1/store-updates?limit=2&since=\(next)",
                            to: 2,
                            token: fleet.secret
                        )
                        guard more.status == 200, let json = more.json else { return false }
                        page = json
                    }
                    // Each store's anchor reads every save it holds.
                    guard Set(found.keys) == Set(stores) else { return false }
                    for store in stores {
                        let changes = await client.send(
                            .GET,
                            "/v1/stores/\(store)/changes?since=\(found[store]!)&limit=10",
                            to: 0,
                            token: tokens[store]!
                        )
                        guard changes.status == 200, (changes.json?["added"] as? [Any])?.isEmpty == true else {
                            return false
                        }
                    }
                    listed = found
                    return true
                }
            }

            // A long-poll on another node, from the listing's end, is woken by bob's next save.
            let poll = Task {
                await client.send(.GET, "/v1/store-updates?wait=60&since=\(cursor)", to: 0, token: fleet.secret)
            }
            let late = try await save("bob", via: 1)
            let woken = await poll.value
            #expect(woken.status == 200, "\(woken.status) \(woken.body)")
            let updates = woken.json?["updates"] as? [[String: Any]] ?? []
            #expect(updates.first?["store"] as? String == "bob", "\(woken.body)")
            #expect(updates.first?["since"] as? String == listed["bob"], "bob's update chains from its listed anchor")
            if let anchor = updates.first?["anchor"] as? String {
                let changes = await client.send(
                    .GET,
                    "/v1/stores/bob/changes?since=\(listed["bob"]!)&limit=10",
                    to: 2,
                    token: tokens["bob"]!
                )
                let added = (changes.json?["added"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
                #expect(added == [late.uuidString], "bob's changes from since are the late save")
                #expect(changes.json?["newAnchor"] as? String == anchor, "bob's changes end at the update's anchor")
            }

            // follow-stores with one cursor file, from the beginning, through node 1.
            let cursorFile = fleet.directory.appendingPathComponent("consumer.cursor").path
            var seen: [String: [UUID]] = [:]
            func follow(via node: Int) async throws {
                let (code, output) = try await runAnchorage([
                    "follow-stores", "--url", fleet.nodes[node].url, "--token-file",
                    fleet.directory.appendingPathComponent("secret").path, "--cursor-file", cursorFile, "--once",
                ])
                #expect(code == 0, "\(output)")
                seen.merge(Self.followed(output)) { $0 + $1 }
            }
            try await follow(via: 1)
            for store in stores {
                #expect(Set(seen[store] ?? []) == saved[store]!, "follow-stores saw every save of \(store)")
            }

            // alice's primary is killed; its replica is promoted, takes saves, and publishes them.
            let before = try #require(await client.placement(of: "alice", via: 0))
            let victim = Int(before.primary.dropFirst())!
            let survivor = (victim + 1) % 3
            fleet.kill(victim)
            try await fleet.explaining {
                try await waitUntil("a replica is promoted", timeout: 120) {
                    guard let now = await client.placement(of: "alice", via: survivor) else { return false }
                    return now.primary != before.primary && now.epoch > before.epoch
                }
                for _ in 0..<3 { _ = try await save("alice", via: survivor) }
                // The consumer goes on from its cursor file through a node that lives.
                try await waitUntil("follow-stores sees alice's saves after the failover", timeout: 120) {
                    try await follow(via: survivor)
                    return saved["alice"]!.isSubset(of: Set(seen["alice"] ?? []))
                }
            }
            for store in stores {
                #expect(Set(seen[store] ?? []) == saved[store]!, "follow-stores saw exactly the saves of \(store)")
            }

            // The killed node comes back and catches up; then every copy of every store passes audit.
            try await fleet.restart(victim)
            try await fleet.explaining {
                for store in stores { try await client.waitUntilCopiesConverge(store) }
            }
            fleet.killAll()
            for store in stores {
                let contents = try await expectCopiesAgree(fleet, store: store)
                #expect(contents.count == 3)
                for held in contents { #expect(held == saved[store]!, "a copy of \(store) differs") }
            }
        }
    }
}
