import Anchorage
import AnchorageService
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AnchorageServer

#if canImport(Glibc)
import Glibc
#endif

@Suite("A multi-store node's peers: each store replicates with the nodes its registry names")
struct MultiStorePeerTests {
    /// Passes every second, so a pull needs no long wait.
    static let configuration = nodeConfiguration { $0.peerSyncInterval = .seconds(1) }
    /// One pass at start, then none for an hour: only a store's own
    /// changes start its rounds.
    static let quiet = nodeConfiguration { $0.peerSyncInterval = .seconds(3_600) }

    /// Adds B's Alice as a peer of A's Alice through A's admin API; the peer's id.
    static func addPeer(
        _ client: some TestClientProtocol,
        admin: String,
        port: Int,
        token: String
    ) async throws -> String {
        let added = try await client.send(
            .post,
            "/v1/stores/alice/peers",
            token: admin,
            json: #"{"url":"http://127.0.0.1:\#(port)/v1/stores/alice","token":"\#(token)"}"#
        )
        #expect(added.status == .created, "\(added.text)")
        #expect(!added.text.contains(token), "the token is never shown")
        return try #require(try added.object["id"] as? String)
    }

    /// Two live multi-store nodes, A and B, each with stores alice and bob;
    /// `body` gets A's administrator token, B's port and a peer token of
    /// B's Alice. Every store of both is audited afterwards.
    static func withTwoNodes(
        configuration: NodeConfiguration,
        _ body:
            @Sendable (
                _ a: MultiStoreFixture, _ aClient: any TestClientProtocol, _ b: MultiStoreFixture,
                _ bClient: any TestClientProtocol, _ admin: String, _ bPort: Int, _ peerToken: String
            ) async throws -> Void
    ) async throws {
        try await MultiStoreFixture.with(configuration: configuration) { b in
            let peerToken = try b.node.registry.issueToken(
                TokenGrant(store: try StoreName("alice"), owner: false, replicates: true)
            ).secret
            try await b.node.application().test(.live) { bClient in
                let bPort = try #require(bClient.port)
                try await MultiStoreFixture.with(configuration: configuration) { a in
                    let admin = try MultiStoreAdminTests.admin(a)
                    try await a.node.application().test(.live) { aClient in
                        try await body(a, aClient, b, bClient, admin, bPort, peerToken)
                    }
                    try await a.expectAudits()
                }
            }
            try await b.expectAudits()
        }
    }

    /// The uuids of the step samples `token` reads in `store`.
    static func steps(_ client: some TestClientProtocol, _ store: String, token: String) async throws -> Set<String> {
        let response = try await client.send(.get, "/v1/stores/\(store)/samples?type=stepCount", token: token)
        let samples = try #require(try response.object["samples"] as? [[String: Any]], "\(response.text)")
        return Set(samples.compactMap { $0["uuid"] as? String })
    }

    @Test(
        "a store's save is pushed to its registry's peer soon after, with no pass; the round pulls the peer's too; GET peers reports both (never the token); a removed peer gets nothing more; both nodes audit"
    )
    func changesStartRounds() async throws {
        try await Self.withTwoNodes(configuration: Self.quiet) { a, aClient, b, bClient, admin, bPort, peerToken in
            let peerID = try await Self.addPeer(aClient, admin: admin, port: bPort, token: peerToken)
            // B's save stays on B: A has no pass for an hour.
            let fromB = try await MultiStoreWebhookTests.saveStep(bClient, token: b.alice, 20)
            // A's save reaches B, pushed once A's log moved; the round brings B's back.
            let fromA = try await MultiStoreWebhookTests.saveStep(aClient, token: a.alice, 10)
            try await waitUntil("A's save reached B", timeout: 120) {
                try await Self.steps(bClient, "alice", token: b.alice).isSuperset(of: fromA)
            }
            try await waitUntil("B's save reached A in the same round", timeout: 120) {
                try await Self.steps(aClient, "alice", token: a.alice).isSuperset(of: fromB)
            }
            // Bob's store has no peer: nothing of it travels.
            _ = try await aClient.send(
                .post,
                "/v1/stores/bob/samples",
                token: a.bob,
                json: "[\(stepJSON(30))]"
            )

            let listed = try await aClient.send(.get, "/v1/stores/alice/peers", token: admin)
            #expect(listed.status == .ok && !listed.text.contains(peerToken), "\(listed.text)")
            let peers = try #require(try listed.object["peers"] as? [[String: Any]])
            let status = try #require(peers.first?["status"] as? [String: Any], "\(listed.text)")
            #expect(peers.count == 1 && peers[0]["id"] as? String == peerID)
            #expect((status["pushedEntries"] as? Int ?? 0) >= 1, "\(status)")
            #expect((status["pulledEntries"] as? Int ?? 0) >= 1, "\(status)")

            // Removed: A's next saves stay on A.
            let removed = try await aClient.send(.delete, "/v1/stores/alice/peers/\(peerID)", token: admin)
            #expect(removed.status == .noContent)
            // A round that began before the removal may still push to the peer: wait for it to end.
            // Every later round reads the registry first, without it.
            let alice = try StoreName("alice")
            let scheduler = a.node.peerScheduler
            try await waitUntil("no round of alice runs", timeout: 120) { !scheduler.isRunning(alice) }
            let third = try await MultiStoreWebhookTests.saveStep(aClient, token: a.alice, 40)
            // The save makes alice due: its round forgets the removed peer as it begins, then ends.
            // Past it, the third save would have reached B if the peer still counted.
            try await waitUntil("alice's next round has forgotten the removed peer", timeout: 120) {
                scheduler.status(of: peerID, in: alice) == nil
            }
            try await waitUntil("that round has ended", timeout: 120) { !scheduler.isRunning(alice) }
            #expect(try await Self.steps(bClient, "alice", token: b.alice).isDisjoint(with: third))
            #expect(try await Self.steps(bClient, "bob", token: b.bob).isEmpty)
            let after = try await aClient.send(.get, "/v1/stores/alice/peers", token: admin)
            #expect((try after.object["peers"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(
        "a store nobody touches pulls its peer's saves at each pass; a peer that is down is retried after its back-off, and its error is reported; deleting the store ends its rounds; both nodes audit"
    )
    func passesPullQuietStores() async throws {
        try await Self.withTwoNodes(configuration: Self.configuration) {
            a,
            aClient,
            b,
            bClient,
            admin,
            bPort,
            peerToken in
            // A second peer nobody listens on: its rounds fail and say why.
            let deadPort = try freeLoopbackPort()
            let dead = try await aClient.send(
                .post,
                "/v1/stores/alice/peers",
                token: admin,
                json: #"{"url":"http://127.0.0.1:\#(deadPort)/v1/stores/alice","direction":"pull"}"#
            )
            #expect(dead.status == .created, "\(dead.text)")
            _ = try await Self.addPeer(aClient, admin: admin, port: bPort, token: peerToken)
            let fromB = try await MultiStoreWebhookTests.saveStep(bClient, token: b.alice, 20)
            try await waitUntil("B's save reached A at a pass", timeout: 120) {
                try await Self.steps(aClient, "alice", token: a.alice).isSuperset(of: fromB)
            }
            try await waitUntil("the dead peer's failure is reported", timeout: 120) {
                let listed = try await aClient.send(.get, "/v1/stores/alice/peers", token: admin)
                let peers = try listed.object["peers"] as? [[String: Any]] ?? []
                let status = peers.first?["status"] as? [String: Any]
                return (status?["consecutiveFailures"] as? Int ?? 0) >= 2 && status?["lastError"] is String
            }
            // Deleted while its rounds go on: the rounds end, its peers go with it.
            let deleted = try await aClient.send(.delete, "/v1/stores/alice", token: admin)
            #expect(deleted.status == .noContent, "\(deleted.text)")
            #expect(a.node.peerScheduler.status(of: "any", in: try StoreName("alice")) == nil)
            let gone = try await aClient.send(.get, "/v1/stores/alice/peers", token: admin)
            #expect(gone.status == .notFound)
            #expect(try a.node.registry.storesWithPeers(after: nil, limit: 10).isEmpty)
        }
    }

    @Test(
        "peers are the administrator's: a store's own token gets 403; bad urls and bodies are 400s, a second add of one url 409, unknown stores and peers 404; nothing stored"
    )
    func hostileAdministration() async throws {
        try await MultiStoreFixture.with { fixture in
            let admin = try MultiStoreAdminTests.admin(fixture)
            try await fixture.node.application().test(.router) { client in
                let body = #"{"url":"https://peer.example/v1/stores/alice","token":"secret-of-the-peer"}"#
                let owner = try await client.send(.post, "/v1/stores/alice/peers", token: fixture.alice, json: body)
                #expect(owner.status == .forbidden, "\(owner.text)")
                let cases: [(String, HTTPResponse.Status, String)] = [
                    (#"{"url":"ftp://peer.example"}"#, .badRequest, "invalidArgument"),
                    (#"{"url":"https://u:p@peer.example"}"#, .badRequest, "invalidArgument"),
                    (#"{"url":"https://peer.example","direction":"sideways"}"#, .badRequest, "invalidJSON"),
                    (#"{"url":"https://peer.example","token":"a b"}"#, .badRequest, "invalidArgument"),
                    (#"{"url":42}"#, .badRequest, "invalidJSON"),
                    (#"[1,2,3]"#, .badRequest, "invalidJSON"),
                    (
                        "{\"url\":\"https://peer.example/\(String(repeating: "a", count: 5_000))\"}", .badRequest,
                        "invalidArgument"
                    ),
                ]
                for (json, status, code) in cases {
                    let response = try await client.send(.post, "/v1/stores/alice/peers", token: admin, json: json)
                    #expect(
                        response.status == status && response.errorCode == code,
                        "\(json.prefix(80)): \(response.text)"
                    )
                }
                let added = try await client.send(.post, "/v1/stores/alice/peers", token: admin, json: body)
                #expect(added.status == .created, "\(added.text)")
                let again = try await client.send(.post, "/v1/stores/alice/peers", token: admin, json: body)
                #expect(again.status == .conflict && again.errorCode == "peerExists", "\(again.text)")
                let unknown = try await client.send(.post, "/v1/stores/nobody/peers", token: admin, json: body)
                #expect(unknown.status == .notFound, "\(unknown.text)")
                let noPeer = try await client.send(.delete, "/v1/stores/alice/peers/peer_nothing", token: admin)
                #expect(noPeer.status == .notFound, "\(noPeer.text)")
                let list = try await client.send(.get, "/v1/stores/alice/peers", token: admin)
                #expect((try list.object["peers"] as? [Any])?.count == 1)
                #expect(!list.text.contains("secret-of-the-peer"))
                let bobs = try await client.send(.get, "/v1/stores/bob/peers", token: admin)
                #expect((try bobs.object["peers"] as? [Any])?.isEmpty == true)
            }
        }
    }
}
