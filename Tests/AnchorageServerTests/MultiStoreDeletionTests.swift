import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageStoreTesting
import AnchorageSync
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
import Testing

@testable import AnchorageServer

@Suite("Deleting a store a node is serving: followers end, peers are refused, nothing else is touched")
struct MultiStoreDeletionTests {
    @Test(
        "deleting a store while its feed is followed: the stream ends, the directory is gone, its tokens and anchors are refused, a new store of that id starts empty"
    )
    func deleteWhileFollowed() async throws {
        try await MultiStoreFixture.with(configuration: nodeConfiguration { $0.heartbeatInterval = .milliseconds(200) })
        { fixture in
            let admin = try fixture.node.registry.issueToken(.administrator()).secret
            try await fixture.node.application().test(.live) { client in
                let port = try #require(client.port)
                let saved = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: fixture.alice,
                    json: "[\(stepJSON(100))]"
                )
                #expect(saved.status == .created)
                let bobSaved = try await client.send(
                    .post,
                    "/v1/stores/bob/samples",
                    token: fixture.bob,
                    json: "[\(stepJSON(7))]"
                )
                #expect(bobSaved.status == .created)
                let page = try await client.send(.get, "/v1/stores/alice/changes?type=stepCount", token: fixture.alice)
                let anchor = try #require(try page.object["newAnchor"] as? String)

                var request = HTTPClientRequest(
                    url: "http://127.0.0.1:\(port)/v1/stores/alice/changes?type=stepCount&stream=ndjson&since=\(anchor)"
                )
                request.headers.add(name: "Authorization", value: "Bearer \(fixture.alice)")
                let lines = Shared<[String]>([])
                let ended = Shared(false)
                let reader = Task {
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                    for try await buffer in response.body { lines.update { $0.append(String(buffer: buffer)) } }
                    ended.update { $0 = true }
                }
                try await waitUntil("the stream's first line arrives") { !lines.current.isEmpty }

                let deleted = try await finishes("the deletion, once the stream has ended") {
                    try await client.send(.delete, "/v1/stores/alice", token: admin)
                }
                #expect(deleted.status == .noContent, "\(deleted.text)")
                try await waitUntil("the followed stream ends") { ended.current }
                try await reader.value
                #expect(!FileManager.default.fileExists(atPath: fixture.root.appending(path: "alice").path))
                #expect(fixture.node.pool.openCount == 1, "bob stays open; alice is closed")

                let refused = try await client.send(
                    .get,
                    "/v1/stores/alice/changes?type=stepCount",
                    token: fixture.alice
                )
                #expect(refused.status == .unauthorized, "its tokens are revoked: \(refused.text)")
                let again = try await client.send(.delete, "/v1/stores/alice", token: admin)
                #expect(again.status == .notFound)
                let bob = try await client.send(.get, "/v1/stores/bob/changes?type=stepCount", token: fixture.bob)
                #expect(bob.status == .ok && bob.text.contains(#""value":7"#), "\(bob.text)")

                let created = try await client.send(.post, "/v1/stores", token: admin, json: #"{"id":"alice"}"#)
                #expect(created.status == .created)
                let issued = try await client.send(
                    .post,
                    "/v1/stores/alice/tokens",
                    token: admin,
                    json: #"{"owner":true}"#
                )
                let owner = try #require(try issued.object["secret"] as? String)
                let old = try await client.send(
                    .get,
                    "/v1/stores/alice/changes?type=stepCount&since=\(anchor)",
                    token: owner
                )
                #expect(old.status == .gone && old.errorCode == "anchorNotValid", "\(old.status) \(old.text)")
                let fresh = try await client.send(.get, "/v1/stores/alice/changes?type=stepCount", token: owner)
                #expect(fresh.status == .ok && !fresh.text.contains(#""value":100"#), "\(fresh.text)")
            }
            try await fixture.expectAudits()
        }
    }

    @Test(
        "deleting a store while a peer replicates it: the peer's wait ends, its next rounds are refused as unauthorized, and what it replicated stays whole"
    )
    func deleteWhileReplicated() async throws {
        try await MultiStoreFixture.with { fixture in
            let admin = try fixture.node.registry.issueToken(.administrator()).secret
            let peerToken = try fixture.node.registry.issueToken(
                TokenGrant(store: try StoreName("alice"), owner: false, replicates: true)
            ).secret
            let local = temporaryPath(prefix: "anchorage-peer")
            defer { try? FileManager.default.removeItem(at: local) }
            let store = HKHealthStore(directory: local, configuration: .forTests)
            try await fixture.node.application().test(.live) { client in
                let port = try #require(client.port)
                for value in 1...3 {
                    let saved = try await client.send(
                        .post,
                        "/v1/stores/alice/samples",
                        token: fixture.alice,
                        json: "[\(stepJSON(Double(value)))]"
                    )
                    #expect(saved.status == .created)
                }
                let data = try await client.send(.get, "/v1/stores/alice/changes?type=stepCount", token: peerToken)
                #expect(data.status == .forbidden, "a peer's token reaches only replication: \(data.text)")

                let transport = try HTTPPeerTransport(
                    url: try #require(URL(string: "http://127.0.0.1:\(port)/v1/stores/alice")),
                    token: peerToken
                )
                let replicator = PeerReplicator(log: try store.eventLog(), peer: transport)
                try await replicator.sync(.both)
                let pulled = try store.eventLog().head.seq
                #expect(pulled >= 3, "the three saves (and the owner's grants) replicated")

                let following = Task { await replicator.follow(.pull) }
                try await waitUntil("the replicator waits on alice's head") { replicator.status.state == .waiting }
                let deleted = try await finishes("the deletion, once the peer's wait is answered") {
                    try await client.send(.delete, "/v1/stores/alice", token: admin)
                }
                #expect(deleted.status == .noContent, "the peer's wait does not hold the deletion: \(deleted.text)")
                try await waitUntil("the replicator's next round is refused") {
                    replicator.status.consecutiveFailures > 0
                }
                #expect(replicator.status.lastError?.contains("401") == true, "\(replicator.status.lastError ?? "")")
                following.cancel()
                await following.value
                await #expect {
                    try await replicator.sync(.push)
                } throws: { error in
                    (error as? SyncError)?.code == .unauthorized
                }
                #expect(try store.eventLog().head.seq == pulled, "nothing of the peer's copy is lost")
                try await transport.shutdown()
            }
            await store.close()
            try await expectAuditPasses(local)
            try await fixture.expectAudits()
        }
    }
}
