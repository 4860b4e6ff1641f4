import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageStoreTesting
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
import Synchronization
import Testing

@testable import AnchorageServer

/// A multi-store node over a new registry with stores alice and bob, and
/// tokens for each; removed afterwards.
struct MultiStoreFixture {
    let node: MultiStoreNode
    let root: URL
    let alice: String
    let bob: String
    let aliceApp: String
    let aliceIssued: IssuedToken

    static func with<R>(
        configuration base: NodeConfiguration = NodeConfiguration(),
        _ body: (MultiStoreFixture) async throws -> R
    ) async throws -> R {
        let root = temporaryPath(prefix: "anchorage-stores")
        var configuration = base
        configuration.port = 0
        let node = try MultiStoreNode(root: root, configuration: configuration, storeConfiguration: .forTests)
        do {
            let registry = node.registry
            try registry.createStore(try StoreName("alice"))
            try registry.createStore(try StoreName("bob"))
            let alice = try registry.issueToken(TokenGrant(store: try StoreName("alice"), owner: true))
            let bob = try registry.issueToken(TokenGrant(store: try StoreName("bob"), owner: true))
            let app = try registry.issueToken(
                TokenGrant(store: try StoreName("alice"), app: "com.example.dashboard", read: ["heartRate"])
            )
            let fixture = MultiStoreFixture(
                node: node,
                root: root,
                alice: alice.secret,
                bob: bob.secret,
                aliceApp: app.secret,
                aliceIssued: alice
            )
            let result = try await body(fixture)
            await node.close()
            try? FileManager.default.removeItem(at: root)
            return result
        } catch {
            await node.close()
            try? FileManager.default.removeItem(at: root)
            throw error
        }
    }

    /// Audit verify on every store of the registry.
    func expectAudits() async throws {
        await node.close()
        for record in try node.registry.stores() {
            let name = try StoreName(record.id)
            let directory = node.registry.directory(of: name)
            let sealing = try await node.keyring?.sealing(for: name, directory: directory) ?? .off
            try await expectAuditPasses(directory, sealing: sealing)
        }
    }
}

/// A value shared between tasks.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func update<R>(_ body: (inout Value) -> R) -> R { value.withLock { body(&$0) } }
    var current: Value { value.withLock { $0 } }
}

@Suite("A multi-store node: /v1/stores/{store}/…, one token one store, isolation")
struct MultiStoreNodeTests {
    @Test("each store's owner saves and reads its own store; the feed and statistics see only that store's samples")
    func ownStores() async throws {
        try await MultiStoreFixture.with { fixture in
            try await fixture.node.application().test(.router) { client in
                let saved = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: fixture.alice,
                    json: "[\(stepJSON(100))]"
                )
                #expect(saved.status == .created, "\(saved.text)")
                let other = try await client.send(
                    .post,
                    "/v1/stores/bob/samples",
                    token: fixture.bob,
                    json: "[\(stepJSON(7, start: "2024-06-01T09:00:00Z", end: "2024-06-01T09:10:00Z"))]"
                )
                #expect(other.status == .created, "\(other.text)")
                let feed = try await client.send(.get, "/v1/stores/alice/changes?type=stepCount", token: fixture.alice)
                #expect(feed.status == .ok)
                #expect(feed.text.contains(#""value":100"#) && !feed.text.contains(#""value":7"#), "\(feed.text)")
                let sums = try await client.send(
                    .get,
                    "/v1/stores/bob/statistics?type=stepCount&options=sum&from=2024-06-01&to=2024-06-02&interval=1d",
                    token: fixture.bob
                )
                #expect(sums.status == .ok && sums.text.contains(#""sum":7"#), "\(sums.text)")
            }
            try await fixture.expectAudits()
        }
    }

    @Test(
        "another store's token, unknown stores and ids that are no store id get one and the same 404; no token or a bad one is 401; nothing is made on disk"
    )
    func isolation() async throws {
        try await MultiStoreFixture.with { fixture in
            try await fixture.node.application().test(.router) { client in
                var bodies = Set<String>()
                for path in [
                    "/v1/stores/bob/changes?type=stepCount", "/v1/stores/carol/changes?type=stepCount",
                    "/v1/stores/..%2F..%2Fetc/changes?type=stepCount", "/v1/stores/%2E%2E/changes?type=stepCount",
                    "/v1/stores/Alice/changes?type=stepCount", "/v1/stores/%C3%A5lice/changes?type=stepCount",
                    "/v1/stores/\(String(repeating: "a", count: 4_096))/changes?type=stepCount",
                    "/v1/stores/.registry/changes?type=stepCount",
                ] {
                    let answer = try await client.send(.get, path, token: fixture.alice)
                    #expect(answer.status == .notFound, "\(path.prefix(80)): \(answer.text)")
                    bodies.insert(answer.text)
                }
                #expect(bodies.count == 1, "one answer for every store the token does not reach: \(bodies)")
                let written = try await client.send(
                    .post,
                    "/v1/stores/bob/samples",
                    token: fixture.alice,
                    json: "[\(stepJSON(1))]"
                )
                #expect(written.status == .notFound && bodies.contains(written.text))
                let none = try await client.send(.get, "/v1/stores/alice/changes?type=stepCount")
                #expect(none.status == .unauthorized)
                let bad = try await client.send(.get, "/v1/stores/alice/changes?type=stepCount", token: "anc_nope")
                #expect(bad.status == .unauthorized && bad.errorCode == "unauthenticated")
            }
            let entries = try FileManager.default.contentsOfDirectory(atPath: fixture.root.path).sorted()
            #expect(entries == [".registry", "alice", "bob"])
            try await fixture.expectAudits()
        }
    }

    @Test("a revoked token is refused at once; an app's token reads only what it was granted (AUTH-4)")
    func revocationAndGrants() async throws {
        try await MultiStoreFixture.with { fixture in
            try await fixture.node.application().test(.router) { client in
                let saved = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: fixture.alice,
                    json: "[\(stepJSON(100))]"
                )
                #expect(saved.status == .created)
                let hidden = try await client.send(
                    .get,
                    "/v1/stores/alice/changes?type=stepCount",
                    token: fixture.aliceApp
                )
                #expect(hidden.status == .ok && !hidden.text.contains(#""value":100"#), "\(hidden.text)")
                try fixture.node.registry.revokeToken(id: fixture.aliceIssued.record.id)
                let revoked = try await client.send(
                    .get,
                    "/v1/stores/alice/changes?type=stepCount",
                    token: fixture.alice
                )
                #expect(revoked.status == .unauthorized, "\(revoked.text)")
            }
            try await fixture.expectAudits()
        }
    }

    @Test(
        "stores open on their first request and close once idle on the node's clock; past the capacity requests wait their turn"
    )
    func openOnDemand() async throws {
        let clock = TestClock()
        let configuration = nodeConfiguration {
            $0.clock = StoreClock(clock)
            $0.maximumOpenStores = 1
            $0.storeIdleTimeout = .seconds(60)
        }
        try await MultiStoreFixture.with(configuration: configuration) { fixture in
            try await fixture.node.application().test(.router) { client in
                #expect(fixture.node.pool.openCount == 0)
                for (store, token) in [("alice", fixture.alice), ("bob", fixture.bob), ("alice", fixture.alice)] {
                    let answer = try await client.send(.get, "/v1/stores/\(store)/changes?type=stepCount", token: token)
                    #expect(answer.status == .ok, "\(answer.text)")
                    #expect(fixture.node.pool.openCount == 1, "one store open at a time")
                }
                clock.advance(by: .seconds(59))
                #expect(await fixture.node.pool.closeIdle() == 0)
                clock.advance(by: .seconds(1))
                #expect(await fixture.node.pool.closeIdle() == 1)
                #expect(fixture.node.pool.openCount == 0)
            }
            try await fixture.expectAudits()
        }
    }

    @Test(
        "a stream keeps its store open while it lasts, however long idle passes; once its client is gone the store closes"
    )
    func streamHoldsItsStore() async throws {
        let clock = TestClock()
        let configuration = nodeConfiguration {
            $0.clock = StoreClock(clock)
            $0.storeIdleTimeout = .seconds(60)
            $0.heartbeatInterval = .seconds(15)
        }
        try await MultiStoreFixture.with(configuration: configuration) { fixture in
            try await fixture.node.application().test(.live) { client in
                let port = try #require(client.port)
                var request = HTTPClientRequest(
                    url: "http://127.0.0.1:\(port)/v1/stores/alice/changes?type=stepCount&stream=ndjson"
                )
                request.headers.add(name: "Authorization", value: "Bearer \(fixture.alice)")
                let first = Shared<String?>(nil)
                let reader = Task {
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
                    var iterator = response.body.makeAsyncIterator()
                    let line = try await iterator.next().map { String(buffer: $0) }
                    first.update { $0 = line ?? "" }
                    // Holds the stream open, reading nothing more, until the test cancels it.
                    try await suspendUntilCancelled()
                }
                try await waitUntil("the stream's first line arrives") { first.current != nil }
                #expect(first.current?.hasPrefix(#"{"anchor":"#) == true, "\(first.current ?? "")")
                #expect(fixture.node.pool.openCount == 1)
                for _ in 0..<10 {
                    clock.advance(by: .seconds(60))
                    #expect(await fixture.node.pool.closeIdle() == 0, "a stream's store is not idle")
                }
                reader.cancel()
                _ = await reader.result
                try await waitUntil("alice closes once the stream's client is gone") {
                    clock.advance(by: .seconds(15))
                    _ = await fixture.node.pool.closeIdle()
                    return fixture.node.pool.openCount == 0
                }
            }
            try await fixture.expectAudits()
        }
    }

    @Test("each store records who read it in its own access log, readable by its owner only")
    func accessLogs() async throws {
        try await MultiStoreFixture.with { fixture in
            try await fixture.node.application().test(.router) { client in
                for (path, token) in [
                    ("/v1/stores/alice/changes?types=stepCount", fixture.alice),
                    ("/v1/stores/alice/changes?types=heartRate", fixture.aliceApp),
                    ("/v1/stores/bob/sources?type=stepCount", fixture.bob),
                ] {
                    let read = try await client.send(.get, path, token: token)
                    #expect(read.status == .ok, "\(path): \(read.text)")
                }
                let alice = try await client.send(.get, "/v1/stores/alice/access-log", token: fixture.alice)
                #expect(alice.status == .ok, "\(alice.text)")
                let entries = try #require(try alice.object["entries"] as? [[String: Any]])
                #expect(entries.compactMap { $0["principal"] as? String } == ["owner", "app:com.example.dashboard"])
                #expect(entries.compactMap { $0["action"] as? String } == ["GET /v1/changes", "GET /v1/changes"])
                let bob = try await client.send(.get, "/v1/stores/bob/access-log", token: fixture.bob)
                let bobEntries = try #require(try bob.object["entries"] as? [[String: Any]])
                #expect(bobEntries.compactMap { $0["action"] as? String } == ["GET /v1/sources"])
                let app = try await client.send(.get, "/v1/stores/alice/access-log", token: fixture.aliceApp)
                #expect(app.status == .forbidden, "\(app.text)")
                let other = try await client.send(.get, "/v1/stores/alice/access-log", token: fixture.bob)
                #expect(other.status == .notFound)
            }
            try await fixture.expectAudits()
        }
    }
}
