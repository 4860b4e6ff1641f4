import Anchorage
import AnchorageService
import AnchorageStoreTesting
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
import Testing

@testable import AnchorageServer

@Suite("One feed across every store: GET /v1/store-updates and consumers' tokens")
struct MultiStoreUpdatesTests {
    /// The updates after `since`, page after page (each waiting up to a few
    /// seconds), until `done` says they are enough, as JSON objects, and
    /// the last cursor. The first page does not wait.
    static func updates(
        _ client: some TestClientProtocol,
        token: String,
        since: String? = nil,
        until done: ([[String: Any]]) -> Bool = { _ in true }
    ) async throws -> (updates: [[String: Any]], cursor: String) {
        var found: [[String: Any]] = []
        var cursor = since
        for round in 0..<20 where round == 0 || !done(found) {
            let wait = round == 0 ? "0" : "5"
            let query = cursor.map { "?since=\($0)&wait=\(wait)" } ?? "?wait=\(wait)"
            let page = try await client.send(.get, "/v1/store-updates\(query)", token: token)
            #expect(page.status == .ok, "\(page.text)")
            found += try #require(try page.object["updates"] as? [[String: Any]])
            cursor = try #require(try page.object["newCursor"] as? String)
        }
        #expect(done(found), "\(found)")
        return (found, try #require(cursor))
    }

    /// The store's head anchor now, read with `token`.
    static func head(_ client: some TestClientProtocol, _ store: String, token: String) async throws -> String {
        let page = try await client.send(.get, "/v1/stores/\(store)/changes?since=now", token: token)
        return try #require(try page.object["newAnchor"] as? String)
    }

    /// Whether the updates bring each store to its anchor.
    static func reach(_ heads: [String: String]) -> ([[String: Any]]) -> Bool {
        { updates in
            heads.allSatisfy { store, anchor in
                updates.last { $0["store"] as? String == store }?["anchor"] as? String == anchor
            }
        }
    }

    @Test(
        "saves to two stores are two updates naming the store and its anchors; a consumer reads each store's changes from since to anchor, of its types only, and reaches nothing else; store tokens are refused the feed"
    )
    func acrossStores() async throws {
        try await MultiStoreFixture.with { fixture in
            let registry = fixture.node.registry
            let admin = try registry.issueToken(.administrator()).secret
            let consumer = try registry.issueToken(.consumer(read: ["stepCount"]))
            try await fixture.node.application().test(.live) { client in
                let first = try await Self.updates(client, token: admin)
                #expect(first.updates.isEmpty)
                for (store, token, value) in [("alice", fixture.alice, 100.0), ("bob", fixture.bob, 7.0)] {
                    let saved = try await client.send(
                        .post,
                        "/v1/stores/\(store)/samples",
                        token: token,
                        json: "[\(stepJSON(value))]"
                    )
                    #expect(saved.status == .created, "\(saved.text)")
                }
                let heads = [
                    "alice": try await Self.head(client, "alice", token: fixture.alice),
                    "bob": try await Self.head(client, "bob", token: fixture.bob),
                ]
                let (updates, cursor) = try await Self.updates(
                    client,
                    token: consumer.secret,
                    since: first.cursor,
                    until: Self.reach(heads)
                )
                #expect(Set(updates.compactMap { $0["store"] as? String }) == ["alice", "bob"], "\(updates)")
                #expect(updates.allSatisfy { $0["kind"] as? String == "changed" && $0["cursor"] is String })
                for store in ["alice", "bob"] {
                    // A store's updates chain; read from the first's since, the feed reaches the last's anchor.
                    let mine = updates.filter { $0["store"] as? String == store }
                    for (before, after) in zip(mine, mine.dropFirst()) {
                        #expect(after["since"] as? String == before["anchor"] as? String)
                    }
                    #expect(mine.first?["since"] is NSNull, "\(store)'s first update starts at the beginning")
                    let anchor = try #require(mine.last?["anchor"] as? String)
                    let changes = try await client.send(
                        .get,
                        "/v1/stores/\(store)/changes?limit=10000",
                        token: consumer.secret
                    )
                    #expect(changes.status == .ok, "\(changes.text)")
                    let newAnchor = try changes.object["newAnchor"] as? String
                    #expect(newAnchor == anchor, "\(anchor) \(newAnchor ?? "")")
                    let value = store == "alice" ? #""value":100"# : #""value":7"#
                    #expect(changes.text.contains(value), "\(changes.text)")
                    let hidden = try await client.send(
                        .get,
                        "/v1/stores/\(store)/changes?type=heartRate",
                        token: consumer.secret
                    )
                    #expect(try (hidden.object["added"] as? [Any])?.isEmpty == true, "AUTH-4: \(hidden.text)")
                }
                // Nothing but the change feeds.
                let write = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: consumer.secret,
                    json: "[\(stepJSON(1))]"
                )
                #expect(write.status == .forbidden && write.errorCode == "authorizationDenied", "\(write.text)")
                for path in ["statistics?type=stepCount&from=2024-06-01&to=2024-06-02", "access-log", "peers"] {
                    let refused = try await client.send(.get, "/v1/stores/alice/\(path)", token: consumer.secret)
                    #expect(refused.status == .forbidden, "\(path): \(refused.text)")
                }
                let unknown = try await client.send(.get, "/v1/stores/nobody/changes", token: consumer.secret)
                #expect(unknown.status == .notFound)
                let stores = try await client.send(.get, "/v1/stores", token: consumer.secret)
                #expect(stores.status == .forbidden)
                // A store's tokens do not reach the node's feed.
                let owner = try await client.send(.get, "/v1/store-updates", token: fixture.alice)
                #expect(owner.status == .forbidden && owner.errorCode == "authorizationDenied")
                let none = try await client.send(.get, "/v1/store-updates")
                #expect(none.status == .unauthorized)
                // The store's access log names the consumer.
                let log = try await client.send(.get, "/v1/stores/alice/access-log", token: fixture.alice)
                #expect(log.text.contains("consumer:\(consumer.record.id)"), "\(log.text)")
                // Nothing new: an empty page at once, the same cursor.
                let quiet = try await client.send(.get, "/v1/store-updates?since=\(cursor)", token: admin)
                #expect(try quiet.object["newCursor"] as? String == cursor)
                #expect(try (quiet.object["updates"] as? [Any])?.isEmpty == true)
            }
            try await fixture.expectAudits()
        }
    }

    @Test(
        "a long-poll from now wakes on the next write; a deletion is an update; a cursor from nowhere is 400 invalidCursor"
    )
    func longPollAndDeletion() async throws {
        try await MultiStoreFixture.with { fixture in
            let admin = try fixture.node.registry.issueToken(.administrator()).secret
            try await fixture.node.application().test(.live) { client in
                let now = try await client.send(.get, "/v1/store-updates?since=now", token: admin)
                let cursor = try #require(try now.object["newCursor"] as? String)
                // On its own connection (the test client has one, and would queue the save behind it), and
                // waiting at the node before the save is sent, so the save is what wakes it.
                let port = try #require(client.port)
                var request = HTTPClientRequest(
                    url: "http://127.0.0.1:\(port)/v1/store-updates?since=\(cursor)&wait=60"
                )
                request.headers.add(name: "Authorization", value: "Bearer \(admin)")
                let poll = Task {
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                    return String(buffer: try await response.body.collect(upTo: 1 << 20))
                }
                try await waitUntil("the long-poll waits at the node") {
                    fixture.node.storeUpdates.waitingConsumers > 0
                }
                let saved = try await client.send(
                    .post,
                    "/v1/stores/bob/samples",
                    token: fixture.bob,
                    json: "[\(stepJSON(5))]"
                )
                #expect(saved.status == .created)
                let woken = try await finishes("the long-poll, woken by the save") { try await poll.value }
                let page = try #require(try JSONSerialization.jsonObject(with: Data(woken.utf8)) as? [String: Any])
                let updates = try #require(page["updates"] as? [[String: Any]])
                #expect(!updates.isEmpty && updates.allSatisfy { $0["store"] as? String == "bob" }, "\(woken)")
                #expect(updates.first?["since"] is NSNull, "bob's first update starts at the beginning")
                let next = try #require(page["newCursor"] as? String)
                // The save's last update, however many commits it took.
                let head = try await Self.head(client, "bob", token: fixture.bob)
                let rest = try await Self.updates(client, token: admin, since: next) {
                    Self.reach(["bob": head])(updates + $0)
                }
                let changed = updates + rest.updates
                let last = try #require(changed.last?["anchor"] as? String)

                let deleted = try await client.send(.delete, "/v1/stores/bob", token: admin)
                #expect(deleted.status == .noContent)
                let after = try await client.send(.get, "/v1/store-updates?since=\(rest.cursor)", token: admin)
                let gone = try #require(try after.object["updates"] as? [[String: Any]])
                #expect(gone.count == 1 && gone.first?["kind"] as? String == "deleted", "\(after.text)")
                #expect(gone.first?["anchor"] is NSNull && gone.first?["since"] as? String == last)

                for bad in ["x", "\(String(repeating: "0", count: 32))-0", String(cursor.dropLast()) + "99"] {
                    let refused = try await client.send(.get, "/v1/store-updates?since=\(bad)", token: admin)
                    #expect(
                        refused.status == .badRequest && refused.errorCode == "invalidCursor",
                        "\(bad): \(refused.text)"
                    )
                }
            }
        }
    }

    @Test("stream=ndjson sends each update as a line, then a cursor line; heartbeats are cursor lines")
    func ndjsonStream() async throws {
        let configuration = nodeConfiguration { $0.heartbeatInterval = .milliseconds(200) }
        try await MultiStoreFixture.with(configuration: configuration) { fixture in
            let admin = try fixture.node.registry.issueToken(.administrator()).secret
            try await fixture.node.application().test(.live) { client in
                let port = try #require(client.port)
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/store-updates?stream=ndjson")
                request.headers.add(name: "Authorization", value: "Bearer \(admin)")
                let lines = Shared<String>("")
                let reader = Task {
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                    #expect(response.headers.first(name: "content-type") == "application/x-ndjson")
                    for try await buffer in response.body { lines.update { $0 += String(buffer: buffer) } }
                }
                try await waitUntil("a heartbeat") { lines.current.contains(#"{"newCursor":"#) }
                let saved = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: fixture.alice,
                    json: "[\(stepJSON(3))]"
                )
                #expect(saved.status == .created)
                try await waitUntil("alice's update") { lines.current.contains(#""store":"alice""#) }
                reader.cancel()
                let objects = lines.current.split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                let update = try #require(objects.first { $0["store"] as? String == "alice" })
                #expect(update["kind"] as? String == "changed" && update["anchor"] is String)
            }
        }
    }

    @Test(
        "a store left marked open by a crash, written to while the node was down, is published when the node starts, before any request reaches it"
    )
    func crashedStoresAreChecked() async throws {
        let root = temporaryPath(prefix: "anchorage-updates-crash")
        defer { try? FileManager.default.removeItem(at: root) }
        let carol = try StoreName("carol")
        do {
            let registry = try NodeRegistry(root: root)
            try registry.createStore(carol)
            try registry.markStoreOpen(carol, true)
            // The write the crash kept from being published.
            let store = HKHealthStore(directory: registry.directory(of: carol), configuration: .forTests)
            try await store.save(
                HKQuantitySample(
                    type: HKQuantityType(.stepCount),
                    quantity: HKQuantity(unit: .count(), doubleValue: 12),
                    start: Date(timeIntervalSince1970: 1_700_000_000),
                    end: Date(timeIntervalSince1970: 1_700_000_600)
                )
            )
            await store.close()
        }
        var configuration = NodeConfiguration()
        configuration.port = 0
        let node = try MultiStoreNode(root: root, configuration: configuration, storeConfiguration: .forTests)
        let admin = try node.registry.issueToken(.administrator()).secret
        try await node.application().test(.live) { client in
            let (updates, _) = try await Self.updates(client, token: admin) { !$0.isEmpty }
            #expect(updates.count == 1 && updates.first?["store"] as? String == "carol", "\(updates)")
            #expect(updates.first?["anchor"] is String)
        }
        await node.close()
        #expect(try node.registry.storesMarkedOpen().isEmpty, "closed, carol is marked closed")
        try await expectAuditPasses(node.registry.directory(of: carol))
    }
}
