import AnchorageClient
import AnchorageServer
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import AnchorageCLI

/// The generated client (AnchorageClient) against a real node on a loopback
/// port: the feed from the beginning, in pages, resumed from an anchor and
/// followed by long-polls; the node's errors as typed errors.
@Suite("Generated client against a node")
struct ClientFeedTests {
    /// A step-count sample as the client sends it: decoded from the API's JSON.
    static func steps(_ count: Double, uuid: UUID = UUID()) throws -> HealthObject {
        try JSONDecoder().decode(HealthObject.self, from: Data(stepJSON(count, uuid: uuid).utf8))
    }

    /// A client of the node `client` reaches, with `token`.
    static func nodeClient(_ client: any TestClientProtocol, token: String?) throws -> AnchorageNodeClient {
        let port = try #require(client.port)
        return AnchorageNodeClient(serverURL: URL(string: "http://127.0.0.1:\(port)")!, token: token)
    }

    @Test("the generated client pulls the feed from the beginning in pages, then resumes from the last anchor")
    func pullsInPagesAndResumes() async throws {
        try await withNode(policy: Tokens.policy) { node, directory in
            try await node.application().test(.live) { http in
                let client = try Self.nodeClient(http, token: Tokens.owner)
                // Five saves, five commits: pages of two never split one.
                var saved: [String] = []
                for count in 1...5 { saved += try await client.save([try Self.steps(Double(count))]) }
                #expect(saved.count == 5)
                let firstPage = try await client.changes(types: ["stepCount"], limit: 2)
                #expect(firstPage.added.map(\.uuid) == Array(saved.prefix(2)) && firstPage.hasMore)

                // README.md's loop ("Pulling changes from Swift").
                var uuids: [String] = []
                var anchor: String? = nil  // or the anchor you stored with what you derived from the last page
                while true {
                    let page = try await client.changes(since: anchor, types: ["stepCount"], limit: 2)
                    uuids += page.added.map(\.uuid)  // each sample in its JSON form (docs/json-format.md)
                    anchor = page.newAnchor
                    if !page.hasMore { break }
                }
                #expect(uuids == saved, "every sample once, in commit order")

                // The sample came typed, with its whole JSON form.
                let first = try #require(try await client.changes(types: ["stepCount"], limit: 1).added.first)
                #expect(first.typeIdentifier == "HKQuantityTypeIdentifierStepCount" && first.kind == "quantitySample")
                guard case .quantitySample(let sample) = first else {
                    Issue.record("a step count came as \(first.kind)")
                    return
                }
                #expect(sample.value2.quantity == .init(unit: "count", value: 1))
                #expect(sample.value1.sourceRevision?.source.bundleIdentifier == "com.example.tests")
                let json = String(decoding: try JSONEncoder().encode(first), as: UTF8.self)
                #expect(json.contains("\"kind\":\"quantitySample\""), "\(json)")
                #expect(json.contains("\"quantity\"") && json.contains("\"sourceRevision\""), "\(json)")

                // Resumed from the last anchor: only what came after it.
                let later = try await client.save([try Self.steps(6), try Self.steps(7)])
                let resumed = try await client.changes(since: anchor, types: ["stepCount"], limit: 2)
                #expect(resumed.added.map(\.uuid) == later)
                #expect(resumed.hasMore, "a full page: the next one may be empty")
                let nothing = try await client.changes(since: resumed.newAnchor, types: ["stepCount"])
                #expect(nothing.isEmpty && nothing.newAnchor == resumed.newAnchor)
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("the change feed follows the node: the backlog in pages, then a later save through a long-poll")
    func followsTheFeed() async throws {
        let clock = HandClock()
        try await withNode(policy: Tokens.policy, configuration: nodeConfiguration { $0.clock = clock.store }) {
            node,
            directory in
            try await clock.live(node) { client in
                let owner = try Self.nodeClient(client, token: Tokens.owner)
                let dashboard = try Self.nodeClient(client, token: Tokens.dashboard)
                var backlog: [String] = []
                for count in 1...3 { backlog += try await owner.save([try Self.steps(Double(count))]) }

                let (pages, sink) = AsyncStream.makeStream(of: ChangePage.self)
                let follower = Task {
                    for try await page in dashboard.changeFeed(types: ["stepCount"], limit: 2, wait: .seconds(30)) {
                        sink.yield(page)
                    }
                    sink.finish()
                }
                var received = pages.makeAsyncIterator()
                let first = try #require(await received.next())
                let second = try #require(await received.next())
                #expect(first.added.map(\.uuid) + second.added.map(\.uuid) == backlog)
                #expect(first.hasMore && !second.hasMore)

                // The follower's next request is held by the node, waiting its 30 s for a step.
                try await clock.clock.waitForSleepers(remaining: [.seconds(30)])
                let heart = try JSONDecoder().decode(
                    HealthObject.self,
                    from: Data(
                        stepJSON(60, unit: "count/min", type: "HKQuantityTypeIdentifierHeartRate").utf8
                    )
                )
                try await owner.save([heart])  // not a step: the follower keeps waiting
                let live = try await owner.save([try Self.steps(4)])
                let third = try #require(await received.next())
                #expect(third.added.map(\.uuid) == live)
                #expect(clock.now == .zero, "woken by the save, not by the end of its wait")
                follower.cancel()
                _ = try await follower.value
                #expect(await received.next() == nil, "the feed ends when its task is cancelled")
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("the node's errors arrive as typed errors with its code: a bad token, a type not granted, a bad anchor")
    func typedErrors() async throws {
        try await withNode(policy: Tokens.policy) { node, directory in
            try await node.application().test(.live) { client in
                let owner = try Self.nodeClient(client, token: Tokens.owner)
                try await owner.save([try Self.steps(1)])

                let stranger = try Self.nodeClient(client, token: "not-a-token-0123456789")
                let unauthenticated = await #expect(throws: AnchorageClientError.self) {
                    try await stranger.changes(types: ["stepCount"])
                }
                #expect(unauthenticated?.code == .unauthenticated && unauthenticated?.status == 401)
                #expect(unauthenticated?.message.isEmpty == false)

                // The scale shares body mass only: a step is refused, and steps read as empty (AUTH-4).
                let scale = try Self.nodeClient(client, token: Tokens.scale)
                let denied = await #expect(throws: AnchorageClientError.self) {
                    try await scale.save([try Self.steps(2)])
                }
                #expect(denied?.code == .authorizationDenied && denied?.status == 403)
                do {
                    try await scale.save([try Self.steps(3)])
                    Issue.record("a save the token may not make was accepted")
                } catch AnchorageClientError.Code.authorizationDenied {
                    // what a caller matches
                }
                #expect(try await scale.changes(types: ["stepCount"]).added.isEmpty)
                #expect(
                    try await owner.changes(types: ["stepCount"]).added.count == 1,
                    "nothing of the refusals stored"
                )

                let badAnchor = await #expect(throws: AnchorageClientError.self) {
                    try await owner.changes(since: "not-an-anchor", types: ["stepCount"])
                }
                #expect(badAnchor?.code == .anchorNotValid && badAnchor?.status == 400)
            }
            try await expectAuditPasses(directory)
        }
    }

    /// The objects docs/openapi.json gives as examples, one kind or more each.
    static func documentedExamples() throws -> [Data] {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/openapi.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        return try schemas.keys.sorted().flatMap { name in
            let examples = (schemas[name] as? [String: Any])?["examples"] as? [[String: Any]] ?? []
            return try examples.filter { $0["kind"] != nil }.map { try JSONSerialization.data(withJSONObject: $0) }
        }
    }

    @Test(
        "every kind of object goes typed both ways: the documented examples saved, read back each as its kind from a feed that names no type"
    )
    func everyKindTyped() async throws {
        let examples = try Self.documentedExamples().map { try JSONDecoder().decode(HealthObject.self, from: $0) }
        #expect(Set(examples.map(\.kind)).count == 13, "\(examples.map(\.kind))")
        try await withNode(policy: Tokens.policy) { node, directory in
            try await node.application().test(.live) { http in
                let owner = try Self.nodeClient(http, token: Tokens.owner)
                let saved = try await owner.save(examples)
                #expect(saved == examples.map(\.uuid))
                // A feed that names no type follows every kind (it used to leave out all but four).
                let added = try await owner.changes(limit: 1_000).added
                let byUUID = Dictionary(added.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
                for example in examples {
                    let read = try #require(byUUID[example.uuid], "\(example.kind) \(example.uuid)")
                    #expect(read.kind == example.kind && read.typeIdentifier == example.typeIdentifier)
                    #expect(read.fields.startDate == example.fields.startDate)
                }
                for object in added {
                    switch object {
                    case .quantitySample(let sample) where sample.value1._type == "HKQuantityTypeIdentifierHeartRate":
                        #expect(sample.value2.quantity == .init(unit: "count/min", value: 72))
                        let motion = sample.value1.metadata?.additionalProperties["HKMetadataKeyHeartRateMotionContext"]
                        #expect(motion == .MetadataInteger(.init(integer: 1)))
                    case .correlation(let correlation):
                        #expect(correlation.value2.objects.count == 2)
                    case .workout(let workout):
                        #expect(workout.value2.workoutActivityType == 37 && workout.value2.duration == 2_100)
                        #expect(workout.value2.workoutActivities?.first?.locationType == ._3)
                    case .electrocardiogram(let ecg):
                        #expect(ecg.value2.classification == ._1 && ecg.value2.count == 4 && ecg.value2.voltages == nil)
                    case .stateOfMind(let mind):
                        #expect(mind.value2.valence == 0.45 && mind.value2.labels == [7, 15])
                    case .visionPrescription(let prescription):
                        #expect(prescription.value2.form == .glasses && prescription.value2.leftEye?.prism?.eye == ._1)
                    case .clinicalRecord(let record):
                        #expect(record.value2.fhirResource?.resourceType == "Immunization")
                    case .medicationDoseEvent(let event):
                        #expect(event.value2.logStatus == ._4 && event.value2.medicationConcept.code == "197361")
                    default:
                        break
                    }
                }
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("a node that cannot be reached is an unreachable error, without a status")
    func unreachable() async throws {
        // Nothing listens there: the connection is refused, and this pool does not try again.
        let port = try freeLoopbackPort()
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let client = AnchorageNodeClient(
            serverURL: URL(string: "http://127.0.0.1:\(port)")!,
            token: nil,
            httpClient: http
        )
        let error = await #expect(throws: AnchorageClientError.self) { try await client.changes() }
        try await http.shutdown()
        #expect(error?.code == .unreachable && error?.status == nil, "\(String(describing: error))")
        #expect(error?.message.contains("127.0.0.1:\(port)") == true, "\(String(describing: error))")
    }
}

/// `anchorage fleet status` reads each node's copies through the generated
/// client: against a stand-in for a fleet node's `GET /v1/fleet/status`.
@Suite("Fleet status through the generated client")
struct FleetStatusClientTests {
    static let secret = "fleet-secret-0123456789"

    @Test("the copies a fleet node reports, read with the fleet's secret; none with another")
    func copies() async throws {
        let router = Router()
        router.get("/v1/fleet/status") { request, _ -> Response in
            guard request.headers[.authorization] == "Bearer \(Self.secret)" else {
                return Response(
                    status: .unauthorized,
                    headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: #"{"code":"unauthenticated","message":"no"}"#))
                )
            }
            let status = """
                {"node":"n1","controller":true,"holdsLease":true,"leaseSecondsLeft":4.5,\
                "nodes":[{"id":"n1","address":"http://127.0.0.1:1"}],\
                "copies":[{"store":"alice","role":"primary","epoch":3,"ready":true,"head":12,"heldEpoch":3,"unconfirmed":2},\
                {"store":"bob","role":"replica","epoch":2,"ready":false,"heldEpoch":1}],\
                "promotions":1,"placementChanges":0}
                """
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: status))
            )
        }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            let address = "http://127.0.0.1:\(try #require(client.port))"
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            let copies = await FleetStatusCommand.copies(at: address, secret: Self.secret, http: http)
            let refused = await FleetStatusCommand.copies(at: address, secret: "another-secret-0123456789", http: http)
            try await http.shutdown()
            #expect(copies["alice"]?.heldEpoch == 3 && copies["alice"]?.unconfirmed == 2)
            #expect(copies["bob"]?.heldEpoch == 1 && copies["bob"]?.unconfirmed == nil)
            #expect(copies.count == 2)
            #expect(refused.isEmpty)
        }
    }
}

/// The client against one store of a multi-store node: the generated
/// operations are the single-store routes, and `store:` sends them to
/// `/v1/stores/{store}/…` (StorePathMiddleware), the node's own routes as
/// they are.
@Suite("Generated client against one store of a multi-store node")
struct ClientStoreTests {
    @Test(
        "with store: alice, saves and pages go to alice's routes, bob never sees them, the node's own routes are untouched; audit verify passes"
    )
    func storeRoutes() async throws {
        try await MultiStoreFixture.with { fixture in
            let admin = try MultiStoreAdminTests.admin(fixture)
            try await fixture.node.application().test(.live) { http in
                let port = try #require(http.port)
                let url = URL(string: "http://127.0.0.1:\(port)")!
                let alice = AnchorageNodeClient(serverURL: url, token: fixture.alice, store: "alice")
                let bob = AnchorageNodeClient(serverURL: url, token: fixture.bob, store: "bob")
                let saved = try await alice.save([try ClientFeedTests.steps(12), try ClientFeedTests.steps(13)])
                let page = try await alice.changes(types: ["stepCount"])
                #expect(page.added.map(\.uuid) == saved)
                #expect(try await bob.changes(types: ["stepCount"]).added.isEmpty, "alice's saves are alice's")
                // Alice's token on bob's routes: the node's 404 for a store it does not reach.
                let astray = AnchorageNodeClient(serverURL: url, token: fixture.alice, store: "bob")
                let refused = await #expect(throws: AnchorageClientError.self) { try await astray.changes() }
                #expect(refused?.code == .notFound && refused?.status == 404, "\(String(describing: refused))")
                // The node's own routes go as they are, with the administrator's token.
                let node = AnchorageNodeClient(serverURL: url, token: admin, store: "alice")
                let stores = try await node.generated.listStores().ok.body.json
                #expect(stores.stores.map(\.id).sorted() == ["alice", "bob"])
            }
            try await fixture.expectAudits()
        }
    }
}
