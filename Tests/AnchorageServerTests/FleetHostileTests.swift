import AnchorageTestRun
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// A fleet's nodes as an attacker meets them: requests without a valid
/// token, for another store, oversized, with hostile store ids or a forged
/// forwarding header, and records in etcd that are not the fleet's. Each
/// gets a typed refusal on every node (the one that serves the store and
/// the ones that forward); nothing is stored, no node stops serving, and
/// every copy audits afterwards.
@Suite("Fleet: hostile requests and records", .serialized, .startsProcesses(weight: 2))
struct FleetHostileTests {
    static let readPath = "/v1/stores/erin/samples?type=HKQuantityTypeIdentifierStepCount"

    @Test(
        "bad tokens, another store's token, admin routes without the fleet's secret, hostile ids, oversized bodies, a forged forwarding header: refused on every node, nothing stored"
    )
    func hostileRequests() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("erin")
            let other = try await client.createStore("fred")
            let placement = try #require(await client.placement(of: "erin", via: 0))
            let primary = Int(placement.primary.dropFirst())!
            let forwarding = (primary + 1) % 3
            let first = UUID()
            try await waitUntil("a first save through a forwarding node", timeout: 120) {
                await client.save(first, store: "erin", token: token, via: forwarding).status == 201
            }
            for node in 0..<3 {
                // No token, one that is not the fleet's, another store's.
                for (secret, expected) in [("", 401), ("not-a-token", 401), (other, 404)] {
                    let save = await client.save(UUID(), store: "erin", token: secret, via: node)
                    #expect(save.status == expected, "node \(node), token '\(secret.prefix(4))': \(save.body)")
                    #expect(save.json?["code"] is String, "a typed error: \(save.body)")
                    let read = await client.send(.GET, Self.readPath, to: node, token: secret)
                    #expect(read.status == expected, "node \(node): \(read.body)")
                }
                // The fleet's own routes need the fleet's secret, not a store's token.
                let admin: [(HTTPMethod, String, String?)] = [
                    (.GET, "/v1/fleet/status", nil), (.GET, "/v1/fleet/copies/erin", nil), (.GET, "/metrics", nil),
                    (.GET, "/v1/stores", nil), (.POST, "/v1/stores", #"{"id":"mallory"}"#),
                    (.POST, "/v1/stores/erin/move", #"{"from":"n0","to":"n1"}"#),
                    (.POST, "/v1/stores/erin/tokens", #"{"owner":true}"#), (.GET, "/v1/stores/erin/tokens", nil),
                ]
                for (method, path, body) in admin {
                    let answer = await client.send(method, path, to: node, token: token, body: body)
                    #expect([401, 403].contains(answer.status), "\(method) \(path) on node \(node): \(answer.status)")
                }
                // Hostile store ids, even with the fleet's secret: never a 5xx, never a store.
                for id in ["..", "%2e%2e", "a%00b", "%F0%9F%98%80", "a%2Fb", String(repeating: "a", count: 8_000)] {
                    let read = await client.send(.GET, "/v1/stores/\(id)/samples?type=x", to: node, token: fleet.secret)
                    #expect((400..<500).contains(read.status), "id \(id.prefix(20)) on node \(node): \(read.status)")
                    let created = await client.send(
                        .POST,
                        "/v1/stores",
                        to: node,
                        token: fleet.secret,
                        body: #"{"id":"\#(id)"}"#
                    )
                    #expect(created.status == 400, "creating \(id.prefix(20)) on node \(node): \(created.body)")
                }
                // A body over the limit is refused where it arrives, before it is forwarded.
                let huge = "[" + String(repeating: " ", count: 9 << 20) + "]"
                let oversized = await client.send(.POST, "/v1/stores/erin/samples", to: node, token: token, body: huge)
                #expect(oversized.status == 413 || oversized.status == 0, "node \(node): \(oversized.status)")
                // Malformed JSON through any node: a typed 400.
                let malformed = await client.send(
                    .POST,
                    "/v1/stores/erin/samples",
                    to: node,
                    token: token,
                    body: #"[{"kind":"quantitySample","uuid":}"#
                )
                #expect(malformed.status == 400, "node \(node): \(malformed.body)")
            }
            // A client cannot make a node skip its forwarding: a forged
            // header gets "ask again" from a node that is not the primary…
            let forged = [("X-Anchorage-Forwarded-By", "n9")]
            let refused = await client.send(
                .POST,
                "/v1/stores/erin/samples",
                to: forwarding,
                token: token,
                body: "[" + stepJSON(1, uuid: UUID()) + "]",
                headers: forged
            )
            #expect(refused.status == 503 && refused.json?["code"] as? String == "notPrimary", "\(refused.body)")
            // …and changes nothing at the primary.
            let last = UUID()
            let served = await client.send(
                .POST,
                "/v1/stores/erin/samples",
                to: primary,
                token: token,
                body: "[" + stepJSON(1, uuid: last) + "]",
                headers: forged
            )
            #expect(served.status == 201, "\(served.body)")
            // Only the two good saves were stored, and every node still serves.
            for node in 0..<3 {
                #expect(await client.stepUUIDs(store: "erin", token: token, via: node) == [first, last])
            }
            #expect(await client.placement(of: "mallory", via: 0) == nil)
            // The stores page as a multi-store node's do (schemathesis found `limit` unchecked).
            let page = await client.send(.GET, "/v1/stores?limit=1", to: 0, token: fleet.secret)
            let firstPage = (page.json?["stores"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(firstPage == ["erin"] && page.json?["next"] as? String == "erin", "\(page.body)")
            let rest = await client.send(.GET, "/v1/stores?limit=1&after=erin", to: 0, token: fleet.secret)
            #expect((rest.json?["stores"] as? [[String: Any]])?.first?["id"] as? String == "fred", "\(rest.body)")
            for bad in ["limit=0", "limit=", "limit=null", "after=..%2F"] {
                let refused = await client.send(.GET, "/v1/stores?\(bad)", to: 0, token: fleet.secret)
                #expect(refused.status == 400 && refused.json?["code"] as? String == "invalidArgument", "\(bad)")
            }
            // A token is revoked through its own store's path only (schemathesis found another store's path,
            // and one that is no store id, revoking it).
            let listed = await client.send(.GET, "/v1/stores/fred/tokens", to: 0, token: fleet.secret)
            let fredToken = try #require((listed.json?["tokens"] as? [[String: Any]])?.first?["id"] as? String)
            for path in ["/v1/stores/erin/tokens/\(fredToken)", "/v1/stores/null%2Cnull/tokens/\(fredToken)"] {
                let refused = await client.send(.DELETE, path, to: 0, token: fleet.secret)
                #expect([400, 404].contains(refused.status), "\(path): \(refused.status) \(refused.body)")
            }
            let still = await client.send(.GET, "/v1/stores/fred/tokens", to: 0, token: fleet.secret)
            #expect(still.body.contains(fredToken), "\(still.body)")
            try await client.waitUntilCopiesConverge("erin")
            fleet.killAll()
            _ = try await expectCopiesAgree(fleet, store: "erin")
        }
    }

    @Test(
        "records in etcd that are not the fleet's (garbage, wrong types, unknown nodes) are skipped: every node keeps serving"
    )
    func hostileRecords() async throws {
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 3)
        defer { fleet.shutdown() }
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("erin")
            try await waitUntil("a first save", timeout: 120) {
                await client.save(UUID(), store: "erin", token: token, via: 0).status == 201
            }
            let garbage: [(String, String)] = [
                ("/anchorage/stores/zed", "\u{0}\u{1}not json"),
                ("/anchorage/stores/yan", #"{"primary":7,"replicas":"n1","epoch":"x"}"#),
                ("/anchorage/stores/xia", #"{"primary":"n9","replicas":["n8"],"epoch":1}"#),
                ("/anchorage/nodes/n7", "{"),
                ("/anchorage/nodes/n6", #"{"address":42}"#),
                ("/anchorage/tokens/bad", #"{"digest":[1,2,3]}"#),
                ("/anchorage/by-node/n0/zed", "primary?"),
                ("/anchorage/synced/erin/n9", "\u{7f}"),
                ("/anchorage/controller", "nobody"),
            ]
            for (key, value) in garbage {
                var request = HTTPClientRequest(url: fleet.etcd.endpoints[0] + "/v3/kv/put")
                request.method = .POST
                let body: [String: String] = [
                    "key": Data(key.utf8).base64EncodedString(), "value": Data(value.utf8).base64EncodedString(),
                ]
                request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
                let response = try await client.http.execute(request, timeout: .seconds(120))
                #expect(response.status == .ok, "etcd put \(key)")
            }
            // A token issued after the records: a node that takes a save with it has read its tokens
            // past them.
            let sentinel = try await client.ownerToken(of: "erin")
            // The nodes go on: saves through every node, status and copies answer.
            for node in 0..<3 {
                try await waitUntil("node \(node) has read its tokens past the records", timeout: 120) {
                    await client.save(UUID(), store: "erin", token: sentinel, via: node).status == 201
                }
                try await waitUntil("a save through node \(node)", timeout: 120) {
                    await client.save(UUID(), store: "erin", token: token, via: node).status == 201
                }
                let status = await client.send(.GET, "/v1/fleet/status", to: node, token: fleet.secret)
                #expect(status.status == 200, "node \(node): \(status.body.prefix(300))")
                #expect(fleet.pid(node) != nil)
            }
            try await client.waitUntilCopiesConverge("erin")
            fleet.killAll()
            _ = try await expectCopiesAgree(fleet, store: "erin")
        }
    }
}
