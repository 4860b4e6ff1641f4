import Anchorage
import AnchorageService
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AnchorageServer

@Suite("A multi-store node's administration: /v1/stores and their tokens, with the administrator's token")
struct MultiStoreAdminTests {
    static func admin(_ fixture: MultiStoreFixture) throws -> String {
        try fixture.node.registry.issueToken(.administrator()).secret
    }

    @Test(
        "only the administrator's token manages the node; it reads no store's data (the same 404 as an unknown store)"
    )
    func administratorOnly() async throws {
        try await MultiStoreFixture.with { fixture in
            let admin = try Self.admin(fixture)
            try await fixture.node.application().test(.router) { client in
                let none = try await client.send(.post, "/v1/stores", json: #"{"id":"carol"}"#)
                #expect(none.status == .unauthorized)
                for (method, path) in [
                    (HTTPRequest.Method.post, "/v1/stores"), (.get, "/v1/stores"), (.delete, "/v1/stores/bob"),
                    (.get, "/v1/stores/alice/tokens"), (.post, "/v1/stores/alice/tokens"), (.get, "/metrics"),
                ] {
                    let answer = try await client.send(method, path, token: fixture.alice, json: #"{"id":"carol"}"#)
                    #expect(answer.status == .forbidden, "\(method) \(path): \(answer.text)")
                    #expect(answer.errorCode == "authorizationDenied")
                }
                let data = try await client.send(.get, "/v1/stores/alice/changes?type=stepCount", token: admin)
                let unknown = try await client.send(.get, "/v1/stores/zed/changes?type=stepCount", token: admin)
                #expect(data.status == .notFound && data.text == unknown.text)
                let read = try await client.send(.get, "/v1/stores/alice/changes?type=stepCount", token: fixture.alice)
                #expect(read.status == .ok)
                let metrics = try await client.send(.get, "/metrics", token: admin)
                #expect(metrics.status == .ok, "\(metrics.text.prefix(300))")
                #expect(metrics.text.contains(#"route="/v1/stores/{store}/changes""#), "\(metrics.text.prefix(2_000))")
                #expect(!metrics.text.contains("alice"), "no per-store label: the store ids stay out of metrics")
            }
            #expect(try fixture.node.registry.stores().map(\.id) == ["alice", "bob"])
            try await fixture.expectAudits()
        }
    }

    @Test(
        "POST /v1/stores creates one or many, all or none; taken, invalid and oversized requests are typed errors and create nothing"
    )
    func createAndList() async throws {
        try await MultiStoreFixture.with { fixture in
            let admin = try Self.admin(fixture)
            try await fixture.node.application().test(.router) { client in
                let one = try await client.send(.post, "/v1/stores", token: admin, json: #"{"id":"carol"}"#)
                #expect(one.status == .created, "\(one.text)")
                let created = try #require(try one.object["stores"] as? [[String: Any]])
                #expect(created.compactMap { $0["id"] as? String } == ["carol"])
                let many = try await client.send(.post, "/v1/stores", token: admin, json: #"{"ids":["dave","erin"]}"#)
                #expect(many.status == .created, "\(many.text)")
                for (json, status, code) in [
                    (#"{"id":"carol"}"#, HTTPResponse.Status.conflict, "storeExists"),
                    (#"{"ids":["fred","dave"]}"#, .conflict, "storeExists"),
                    (#"{"ids":["gina","../etc"]}"#, .badRequest, "invalidArgument"),
                    (#"{"id":"Carol"}"#, .badRequest, "invalidArgument"),
                    (#"{"id":"\#(String(repeating: "a", count: 4_096))"}"#, .badRequest, "invalidArgument"),
                    (#"{"ids":["hal","hal"]}"#, .conflict, "storeExists"),
                    (#"{}"#, .badRequest, "badRequest"),
                    (#"{"id":"ivy","ids":["jo"]}"#, .badRequest, "badRequest"),
                    (#"{"ids":[]}"#, .badRequest, "badRequest"),
                    (
                        "{\"ids\":[" + (0...1_000).map { "\"s\($0)\"" }.joined(separator: ",") + "]}", .badRequest,
                        "badRequest"
                    ),
                    (#"{"id":7}"#, .badRequest, "invalidJSON"),
                    (#"{"id":"#, .badRequest, "invalidJSON"),
                ] {
                    let answer = try await client.send(.post, "/v1/stores", token: admin, json: json)
                    #expect(answer.status == status && answer.errorCode == code, "\(json.prefix(60)): \(answer.text)")
                }
                let expected = ["alice", "bob", "carol", "dave", "erin"]
                var listed: [String] = []
                var after: String?
                while true {
                    let page = try await client.send(
                        .get,
                        "/v1/stores?limit=2" + (after.map { "&after=\($0)" } ?? ""),
                        token: admin
                    )
                    #expect(page.status == .ok, "\(page.text)")
                    let stores = try #require(try page.object["stores"] as? [[String: Any]])
                    #expect(stores.count <= 2)
                    listed += stores.compactMap { $0["id"] as? String }
                    after = try page.object["next"] as? String
                    if after == nil { break }
                }
                #expect(listed == expected)
                for query in ["limit=0", "limit=10001", "limit=x", "after=..%2F"] {
                    let bad = try await client.send(.get, "/v1/stores?\(query)", token: admin)
                    #expect(bad.status == .badRequest, "\(query): \(bad.text)")
                }
            }
            #expect(try fixture.node.registry.stores().map(\.id) == ["alice", "bob", "carol", "dave", "erin"])
            try await fixture.expectAudits()
        }
    }

    @Test("a flood of creations past the node's quota: exactly as many as fit are created, the rest are quotaExceeded")
    func creationFloodPastQuota() async throws {
        let configuration = nodeConfiguration { $0.maximumStores = 12 }
        try await MultiStoreFixture.with(configuration: configuration) { fixture in
            let admin = try Self.admin(fixture)
            try await fixture.node.application().test(.router) { client in
                let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                    for index in 0..<40 {
                        group.addTask {
                            let answer = try await client.send(
                                .post,
                                "/v1/stores",
                                token: admin,
                                json: #"{"id":"flood-\#(index)"}"#
                            )
                            return (answer.status, answer.errorCode)
                        }
                    }
                    return try await group.reduce(into: [:]) { counts, result in
                        counts["\(result.0.code) \(result.1 ?? "")", default: 0] += 1
                    }
                }
                #expect(statuses == ["201 ": 10, "403 quotaExceeded": 30], "\(statuses)")
                let batch = try await client.send(.post, "/v1/stores", token: admin, json: #"{"ids":["x1","x2"]}"#)
                #expect(batch.status == .forbidden && batch.errorCode == "quotaExceeded")
                #expect(batch.text.contains("12"), "the message names the quota: \(batch.text)")
            }
            #expect(try fixture.node.registry.stores().count == 12)
            try await fixture.expectAudits()
        }
    }

    @Test(
        "tokens issued over HTTP: the secret only in the issuing answer, each grant checked, revocation at once and only of the path's store's tokens"
    )
    func tokens() async throws {
        try await MultiStoreFixture.with { fixture in
            let admin = try Self.admin(fixture)
            try await fixture.node.application().test(.router) { client in
                let owner = try await client.send(
                    .post,
                    "/v1/stores/bob/tokens",
                    token: admin,
                    json: #"{"owner":true}"#
                )
                #expect(owner.status == .created, "\(owner.text)")
                let secret = try #require(try owner.object["secret"] as? String)
                let id = try #require(try owner.object["id"] as? String)
                let saved = try await client.send(
                    .post,
                    "/v1/stores/bob/samples",
                    token: secret,
                    json: "[\(stepJSON(5))]"
                )
                #expect(saved.status == .created, "\(saved.text)")
                let app = try await client.send(
                    .post,
                    "/v1/stores/bob/tokens",
                    token: admin,
                    json: #"{"app":"com.example.steps","read":["stepCount"],"share":["stepCount"]}"#
                )
                #expect(app.status == .created, "\(app.text)")
                let peer = try await client.send(.post, "/v1/stores/bob/tokens", token: admin, json: #"{"peer":true}"#)
                #expect(peer.status == .created, "\(peer.text)")
                for json in [
                    #"{"owner":true,"app":"com.x"}"#, #"{}"#, #"{"owner":true,"peer":true}"#,
                    #"{"owner":true,"read":["stepCount"]}"#, #"{"app":"com.x","read":["noSuchType"]}"#,
                    #"{"app":"","read":["stepCount"]}"#, #"{"app":"com.x","share":["bloodPressure"]}"#,
                ] {
                    let refused = try await client.send(.post, "/v1/stores/bob/tokens", token: admin, json: json)
                    #expect(refused.status == .badRequest, "\(json): \(refused.text)")
                }
                let unknown = try await client.send(
                    .post,
                    "/v1/stores/zed/tokens",
                    token: admin,
                    json: #"{"owner":true}"#
                )
                #expect(unknown.status == .notFound)
                let listed = try await client.send(.get, "/v1/stores/bob/tokens", token: admin)
                let records = try #require(try listed.object["tokens"] as? [[String: Any]])
                #expect(records.count == 4, "bob's fixture token and the three issued: \(listed.text)")
                #expect(!listed.text.contains(secret) && !listed.text.contains("anc_"), "no secret is listed")
                let elsewhere = try await client.send(
                    .delete,
                    "/v1/stores/bob/tokens/\(fixture.aliceIssued.record.id)",
                    token: admin
                )
                #expect(elsewhere.status == .notFound, "alice's token is not bob's to revoke")
                let revoked = try await client.send(.delete, "/v1/stores/bob/tokens/\(id)", token: admin)
                #expect(revoked.status == .noContent, "\(revoked.text)")
                let refused = try await client.send(.get, "/v1/stores/bob/changes?type=stepCount", token: secret)
                #expect(refused.status == .unauthorized)
                let again = try await client.send(.delete, "/v1/stores/bob/tokens/\(id)", token: admin)
                #expect(again.status == .notFound)
                let alice = try await client.send(.get, "/v1/stores/alice/changes?type=stepCount", token: fixture.alice)
                #expect(alice.status == .ok)
            }
            try await fixture.expectAudits()
        }
    }

    @Test(
        "metrics name a multi-store node's routes with the store collapsed: one series per endpoint whatever the ids",
        arguments: [
            ("/v1/stores/alice/changes", "/v1/stores/{store}/changes"),
            ("/v1/stores/bob/samples/6F1C", "/v1/stores/{store}/samples/{uuid}"),
            ("/v1/stores/bob/sync/pull", "/v1/stores/{store}/sync/pull"),
            ("/v1/stores/bob/tokens/tok_1", "/v1/stores/{store}/tokens/{id}"),
            ("/v1/stores/bob", "/v1/stores/{store}"), ("/v1/stores", "/v1/stores"),
            ("/v1/stores/bob/v1/changes", "other"), ("/v1/stores/bob/metrics", "other"),
            ("/v1/stores/\(String(repeating: "x", count: 4_096))/nope", "other"), ("/v1/changes", "/v1/changes"),
        ]
    )
    func metricRoutes(path: String, route: String) {
        #expect(NodeMetrics.route(of: path) == route)
    }
}
