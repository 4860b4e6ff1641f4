import Anchorage
import AnchorageService
import AnchorageTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import AnchorageServer

/// What a client learns before it asks for data: `/web/node.json` without a
/// token (the node's kind, whether it takes tokens) and `GET
/// /v1/authorization` with one (whom the token acts as) — so the web page
/// never sends a request it knows will be refused.
@Suite("HTTP API: whom a token acts as, and what the page learns before signing in")
struct ServerAuthorizationRouteTests {
    @Test("AUTH-4: the owner's token is the owner; an app's token names its app and its grants; no token is 401")
    func singleStore() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            try await node.application().test(.router) { client in
                let owner = try await client.send(.get, "/v1/authorization", token: Tokens.owner)
                #expect(owner.status == .ok && owner.text == #"{"principal":"owner"}"#, "\(owner.text)")
                let app = try await client.send(.get, "/v1/authorization", token: Tokens.dashboard)
                #expect(
                    app.text
                        == #"{"app":{"bundleIdentifier":"com.example.dashboard","name":"Dashboard"},"principal":"app","read":["HKQuantityTypeIdentifierHeartRate","HKQuantityTypeIdentifierStepCount"],"share":["HKQuantityTypeIdentifierStepCount"]}"#,
                    "\(app.text)"
                )
                let scale = try await client.send(.get, "/v1/authorization", token: Tokens.scale)
                #expect(try scale.object["read"] as? [String] == [], "\(scale.text)")
                let none = try await client.send(.get, "/v1/authorization")
                #expect(none.status == .unauthorized && none.errorCode == "unauthenticated")
                let wrong = try await client.send(.get, "/v1/authorization", token: "not-a-token-of-this-node")
                #expect(wrong.status == .unauthorized)
                // Reading it reads no health data: not in the access log.
                let logged = try await client.send(.get, "/v1/access-log", token: Tokens.owner)
                #expect(!logged.text.contains("authorization"), "\(logged.text)")

                let facts = try await client.send(.get, "/web/node.json")
                #expect(facts.status == .ok && facts.text == #"{"kind":"single","tokens":true}"#, "\(facts.text)")
                #expect(facts.headers[.contentType] == "application/json")
                #expect(facts.headers[.contentSecurityPolicy] == WebAssets.contentSecurityPolicy)
                let etag = try #require(facts.headers[.eTag])
                let again = try await client.execute(uri: "/web/node.json", method: .get, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified)
            }
        }
    }

    @Test("a node that takes no token: the page learns so, and every request is the owner's")
    func tokenless() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let facts = try await client.send(.get, "/web/node.json")
                #expect(facts.text == #"{"kind":"single","tokens":false}"#, "\(facts.text)")
                let owner = try await client.send(.get, "/v1/authorization")
                #expect(owner.text == #"{"principal":"owner"}"#, "\(owner.text)")
            }
        }
    }

    @Test("a multi-store node: a store's owner and app tokens, each on its own store only")
    func multiStore() async throws {
        try await MultiStoreFixture.with { fixture in
            try await fixture.node.application().test(.router) { client in
                let facts = try await client.send(.get, "/web/node.json")
                #expect(facts.text == #"{"kind":"multi","tokens":true}"#, "\(facts.text)")
                let owner = try await client.send(.get, "/v1/stores/alice/authorization", token: fixture.alice)
                #expect(owner.text == #"{"principal":"owner"}"#, "\(owner.text)")
                let app = try await client.send(.get, "/v1/stores/alice/authorization", token: fixture.aliceApp)
                #expect(try app.object["principal"] as? String == "app", "\(app.text)")
                #expect(try app.object["read"] as? [String] == ["HKQuantityTypeIdentifierHeartRate"], "\(app.text)")
                let elsewhere = try await client.send(.get, "/v1/stores/bob/authorization", token: fixture.alice)
                #expect(elsewhere.status == .notFound || elsewhere.status == .unauthorized, "\(elsewhere.text)")
            }
        }
    }
}
