import Anchorage
import AnchorageService
import AnchorageStoreTesting
import AnchorageSync
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AnchorageServer

@Suite("A multi-store node's storage quotas: each store's own, kept in the registry")
struct MultiStoreQuotaTests {
    /// A batch of `count` step samples as the API's JSON.
    static func batch(_ count: Int, day: Int) -> String {
        "["
            + (0..<count).map { minute in
                let start = Date(timeIntervalSince1970: 1_717_200_000 + Double(day * 86_400 + minute * 60))
                let text = { (date: Date) in date.formatted(.iso8601) }
                return stepJSON(Double(minute), start: text(start), end: text(start.addingTimeInterval(60)))
            }.joined(separator: ",") + "]"
    }

    @Test(
        "once a store's data file reaches its quota, saves and pushes are 403 quotaExceeded and store nothing; deletes go through; other stores are untouched; lifting it lets saves in; both stores audit"
    )
    func quotaRefusesWrites() async throws {
        try await MultiStoreFixture.with { fixture in
            let admin = try MultiStoreAdminTests.admin(fixture)
            let peerToken = try fixture.node.registry.issueToken(
                TokenGrant(store: try StoreName("alice"), owner: false, replicates: true)
            ).secret
            let local = temporaryPath(prefix: "anchorage-quota-peer")
            defer { try? FileManager.default.removeItem(at: local) }
            let peer = HKHealthStore(directory: local, configuration: .forTests)
            try await fixture.node.application().test(.live) { client in
                let port = try #require(client.port)
                let set = try await client.send(
                    .put,
                    "/v1/stores/alice/quota",
                    token: admin,
                    json: #"{"maximumBytes":1048576}"#
                )
                let setQuota = try set.object["maximumBytes"] as? Int
                #expect(set.status == .ok && setQuota == 1_048_576, "\(set.text)")
                var refused: TestResponse?
                var saved: [String] = []
                for day in 0..<400 {
                    let response = try await client.send(
                        .post,
                        "/v1/stores/alice/samples",
                        token: fixture.alice,
                        json: Self.batch(200, day: day)
                    )
                    if response.status != .created {
                        refused = response
                        break
                    }
                    saved += try ServerWebhookTests.uuids(response.text)
                }
                let refusal = try #require(refused, "a megabyte fills up within 400 batches")
                #expect(refusal.status == .forbidden && refusal.errorCode == "quotaExceeded", "\(refusal.text)")
                #expect(!refusal.text.contains("12345"), "no health value in the message")
                let listed = try await client.send(
                    .get,
                    "/v1/stores/alice/samples?type=stepCount&limit=10000",
                    token: fixture.alice
                )
                let stored = try #require(try listed.object["samples"] as? [[String: Any]]).compactMap {
                    $0["uuid"] as? String
                }
                #expect(saved.count < 10_000 && stored.count == saved.count, "the refused batch stored nothing")
                #expect(Set(stored) == Set(saved), "the saved samples, and only those")

                // A push from a peer is refused too, and the peer keeps what it has.
                try await peer.save(
                    HKQuantitySample(
                        type: HKQuantityType(.stepCount),
                        quantity: HKQuantity(unit: .count(), doubleValue: 5),
                        start: Date(timeIntervalSince1970: 1_700_000_000),
                        end: Date(timeIntervalSince1970: 1_700_000_060)
                    )
                )
                let transport = try HTTPPeerTransport(
                    url: try #require(URL(string: "http://127.0.0.1:\(port)/v1/stores/alice")),
                    token: peerToken
                )
                let replicator = PeerReplicator(log: try peer.eventLog(), peer: transport)
                await #expect(throws: (any Error).self) { try await replicator.sync(.push) }
                #expect(replicator.status.lastError?.contains("quota") == true, "\(replicator.status)")
                try await transport.shutdown()

                // Deletes still go through; Bob's store knows no quota.
                let deleted = try await client.send(
                    .delete,
                    "/v1/stores/alice/samples/\(saved[0])",
                    token: fixture.alice
                )
                #expect(deleted.status == .ok || deleted.status == .noContent, "\(deleted.text)")
                let bob = try await client.send(
                    .post,
                    "/v1/stores/bob/samples",
                    token: fixture.bob,
                    json: Self.batch(10, day: 0)
                )
                #expect(bob.status == .created)

                // Lifted: saves go in again.
                let lifted = try await client.send(
                    .put,
                    "/v1/stores/alice/quota",
                    token: admin,
                    json: #"{"maximumBytes":null}"#
                )
                let liftedQuota = try lifted.object["maximumBytes"]
                #expect(lifted.status == .ok && liftedQuota == nil, "\(lifted.text)")
                let again = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: fixture.alice,
                    json: Self.batch(10, day: 500)
                )
                #expect(again.status == .created, "\(again.text)")
            }
            await peer.close()
            try await fixture.expectAudits()
        }
    }

    @Test("quotas are the administrator's: a store's token gets 403, bad values 400, unknown stores 404")
    func hostileQuotas() async throws {
        try await MultiStoreFixture.with { fixture in
            let admin = try MultiStoreAdminTests.admin(fixture)
            try await fixture.node.application().test(.router) { client in
                let owner = try await client.send(
                    .put,
                    "/v1/stores/alice/quota",
                    token: fixture.alice,
                    json: #"{"maximumBytes":1048576}"#
                )
                #expect(owner.status == .forbidden)
                for (json, code) in [
                    (#"{"maximumBytes":0}"#, "invalidArgument"), (#"{"maximumBytes":-5}"#, "invalidArgument"),
                    (#"{"maximumBytes":1048575}"#, "invalidArgument"), (#"{"maximumBytes":"a lot"}"#, "invalidJSON"),
                    // JSON, but no whole number that fits: a value that breaks a rule, not broken JSON.
                    (#"{"maximumBytes":1e400}"#, "invalidArgument"), (#"{"maximumBytes":1.5}"#, "invalidArgument"),
                    (#"{"maximumBytes":1e}"#, "invalidJSON"), ("[]", "invalidJSON"),
                    // Without the field, nothing is lifted (schemathesis found `{}` lifting the quota).
                    ("{}", "invalidJSON"), (#"{"maxBytes":1048576}"#, "invalidJSON"),
                ] {
                    let response = try await client.send(.put, "/v1/stores/alice/quota", token: admin, json: json)
                    #expect(response.status == .badRequest && response.errorCode == code, "\(json): \(response.text)")
                }
                let huge = try await client.send(
                    .put,
                    "/v1/stores/alice/quota",
                    token: admin,
                    json: #"{"maximumBytes":99999999999999999999}"#
                )
                #expect(
                    try huge.object["message"] as? String
                        == "the number at maximumBytes is out of range: the field takes a whole number from "
                        + "-9223372036854775808 to 9223372036854775807",
                    "\(huge.text)"
                )
                let unknown = try await client.send(
                    .put,
                    "/v1/stores/nobody/quota",
                    token: admin,
                    json: #"{"maximumBytes":1048576}"#
                )
                #expect(unknown.status == .notFound)
                #expect(try fixture.node.registry.store(try StoreName("alice"))?.maximumBytes == nil, "nothing stored")
            }
        }
    }
}
