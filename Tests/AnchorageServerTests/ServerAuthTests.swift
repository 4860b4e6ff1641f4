import Anchorage
import AnchorageLog
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: tokens and grants")
struct ServerAuthTests {
    @Test("no token or a wrong token is 401 with WWW-Authenticate; nothing is read or stored")
    func unauthenticated() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            try await node.application().test(.router) { client in
                let none = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1))]")
                #expect(none.status == .unauthorized)
                #expect(none.headers[.wwwAuthenticate] == "Bearer")
                #expect(none.errorCode == "unauthenticated")
                let wrong = try await client.send(.get, "/v1/changes", token: "owner-token-0123456788")
                #expect(wrong.status == .unauthorized)
                let listed = try await client.send(.get, "/v1/samples?type=stepCount", token: Tokens.owner)
                #expect(try #require(try listed.object["samples"] as? [Any]).isEmpty)
            }
        }
    }

    @Test("only GET /healthz, spelled so, needs no token: /healthz/, //healthz, /./healthz and such are 404 for anyone")
    func healthExemptionIsExact() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            // Live: the spellings go over the wire as written, not parsed first.
            try await node.application().test(.live) { client in
                #expect(try await client.send(.get, "/healthz").status == .ok)
                for spelling in ["/healthz/", "//healthz", "/./healthz", "/healthz/.", "/x/../healthz", "/healthz//"] {
                    for token in [nil, Tokens.owner] {
                        let answer = try await client.send(.get, spelling, token: token)
                        #expect(answer.status == .notFound, "\(spelling)")
                        #expect(answer.errorCode == "notFound", "\(spelling)")
                        #expect(!answer.text.contains("ok"), "\(spelling)")
                    }
                }
                // The same rule for every route: one spelling each, whoever asks.
                let saved = try await client.send(.post, "/v1/samples/", token: Tokens.owner, json: "[\(stepJSON(1))]")
                #expect(saved.status == .notFound)
                let doubled = try await client.send(.get, "//v1/samples?type=stepCount", token: Tokens.owner)
                #expect(doubled.status == .notFound)
                let listed = try await client.send(.get, "/v1/samples?type=stepCount", token: Tokens.owner)
                #expect(listed.status == .ok)
                #expect(try #require(try listed.object["samples"] as? [Any]).isEmpty)
            }
        }
    }

    @Test("AUTH-7, OBJ-34: an app saves only types it may share and deletes only its own samples (403)")
    func shareDenials() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            try await node.application().test(.router) { client in
                let mass = """
                    [{"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierBodyMass",\
                    "startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:00:00Z","quantity":{"unit":"kg","value":70}}]
                    """
                let denied = try await client.send(.post, "/v1/samples", token: Tokens.dashboard, json: mass)
                #expect(denied.status == .forbidden)
                #expect(denied.errorCode == "authorizationDenied")
                #expect(!denied.text.contains("70"))
                let ownerStep = UUID()
                _ = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json: "[\(stepJSON(9, uuid: ownerStep))]"
                )
                let delete = try await client.send(
                    .delete,
                    "/v1/samples/\(ownerStep.uuidString)",
                    token: Tokens.dashboard
                )
                #expect(delete.status == .forbidden)
                // The app's own save is stamped with its source, whatever the body says.
                let own = try await client.send(.post, "/v1/samples", token: Tokens.dashboard, json: "[\(stepJSON(4))]")
                #expect(own.status == .created)
                let sources = try await client.send(.get, "/v1/sources?type=stepCount", token: Tokens.owner)
                let names = try #require(try sources.object["sources"] as? [[String: Any]]).map {
                    $0["bundleIdentifier"] as? String
                }
                #expect(names == ["com.example.dashboard", "com.example.tests"])
            }
        }
    }

    @Test("AUTH-4, AUTH-5: reads an app may not make look empty, never refused; share-only reads its own")
    func hiddenReads() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            try await node.application().test(.router) { client in
                let mass = { (value: Int) in
                    """
                    {"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierBodyMass",\
                    "startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:00:00Z","quantity":{"unit":"kg","value":\(value)}}
                    """
                }
                _ = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json: "[\(stepJSON(9)),\(mass(70))]"
                )
                let scaleSave = try await client.send(.post, "/v1/samples", token: Tokens.scale, json: "[\(mass(71))]")
                #expect(scaleSave.status == .created)

                // The scale may not read steps: empty, exactly as with no data.
                let steps = try await client.send(.get, "/v1/samples?type=stepCount", token: Tokens.scale)
                #expect(steps.status == .ok)
                #expect(try #require(try steps.object["samples"] as? [Any]).isEmpty)
                let stats = try await client.send(
                    .get,
                    "/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-01",
                    token: Tokens.scale
                )
                #expect(stats.status == .ok)
                #expect(
                    try #require(try stats.object["statistics"] as? [[String: Any]]).allSatisfy { $0["sum"] == nil }
                )
                let sources = try await client.send(.get, "/v1/sources?type=stepCount", token: Tokens.scale)
                #expect(try #require(try sources.object["sources"] as? [Any]).isEmpty)

                // It shares body mass, so it reads its own body mass only.
                let own = try await client.send(.get, "/v1/samples?type=bodyMass", token: Tokens.scale)
                let ownSamples = try #require(try own.object["samples"] as? [[String: Any]])
                #expect(ownSamples.count == 1)
                let feed = try await client.send(.get, "/v1/changes", token: Tokens.scale)
                let added = try #require(try feed.object["added"] as? [[String: Any]])
                #expect(added.count == 1)
                #expect(added.first?["type"] as? String == "HKQuantityTypeIdentifierBodyMass")

                // The dashboard reads steps from every source.
                let dashboard = try await client.send(.get, "/v1/changes?types=stepCount", token: Tokens.dashboard)
                #expect(try #require(try dashboard.object["added"] as? [Any]).count == 1)
            }
        }
    }

    @Test("AUTH-11: the token file's grants are recorded as the owner's decisions, and revoked when removed")
    func grantsFollowTheTokenFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-grants-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = NodeConfiguration()
        configuration.accessPolicy = Tokens.policy
        let first = try await AnchorageNode(directory: directory, configuration: configuration)
        await first.close()
        var owner = HKHealthStore(directory: directory)
        let granted = try owner.grantedAuthorizations()
        let dashboard = try #require(granted.first { $0.key.bundleIdentifier == "com.example.dashboard" }?.value)
        #expect(dashboard.read == [HKQuantityType(.stepCount), HKQuantityType(.heartRate)])
        #expect(dashboard.share == [HKQuantityType(.stepCount)])
        let head = try owner.currentAnchor()
        await owner.close()

        // The same file again appends nothing.
        let again = try await AnchorageNode(directory: directory, configuration: configuration)
        await again.close()
        owner = HKHealthStore(directory: directory)
        #expect(try owner.currentAnchor() == head)
        await owner.close()

        // Without heart rate, the grant is revoked.
        configuration.accessPolicy.tokens[1].read = [HKQuantityType(.stepCount)]
        let third = try await AnchorageNode(directory: directory, configuration: configuration)
        await third.close()
        owner = HKHealthStore(directory: directory)
        let after = try owner.grantedAuthorizations().first { $0.key.bundleIdentifier == "com.example.dashboard" }
        #expect(after?.value.read == [HKQuantityType(.stepCount)])
        await owner.close()
    }

    @Test("AUTH-11: a principal removed from the token file has every grant recorded as denied")
    func removedPrincipalIsDenied() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-removed-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("store")
        let owner = #"{"token":"\#(Tokens.owner)","owner":true}"#
        let dashboard = """
            {"token":"\(Tokens.dashboard)","principal":{"name":"Dashboard","bundleIdentifier":"com.example.dashboard"},\
            "read":["stepCount","heartRate"],"share":["stepCount"]}
            """
        let scale = """
            {"token":"\(Tokens.scale)","principal":{"name":"Scale","bundleIdentifier":"com.example.scale"},\
            "share":["bodyMass"]}
            """
        let start = { (entries: [String]) async throws in
            let file = directory.appendingPathComponent("tokens-\(UUID()).json")
            try Data(#"{"tokens":[\#(entries.joined(separator: ","))]}"#.utf8).write(to: file)
            var configuration = NodeConfiguration()
            configuration.accessPolicy = try AccessPolicy(contentsOf: file)
            try await AnchorageNode(directory: store, configuration: configuration).close()
        }
        try await start([owner, dashboard, scale])
        try await start([owner, dashboard])

        let ownerStore = HKHealthStore(directory: store)
        let granted = try ownerStore.grantedAuthorizations()
        #expect(granted.keys.map(\.bundleIdentifier) == ["com.example.dashboard"], "the scale keeps no grant")
        let scaleStore = HKHealthStore(directory: store, principal: Tokens.scaleSource)
        #expect(scaleStore.authorizationStatus(for: HKQuantityType(.bodyMass)) == .sharingDenied)
        let dashboardStore = HKHealthStore(directory: store, principal: Tokens.dashboardSource)
        #expect(dashboardStore.authorizationStatus(for: HKQuantityType(.stepCount)) == .sharingAuthorized)
        let head = try ownerStore.currentAnchor()
        await scaleStore.close()
        await dashboardStore.close()
        #expect(try await ownerStore.eventLog().checkProjections() == nil, "audit: the index equals a replay")
        await ownerStore.close()

        // Starting again with the same file appends nothing.
        try await start([owner, dashboard])
        let reopened = HKHealthStore(directory: store)
        #expect(try reopened.currentAnchor() == head)
        #expect(try await reopened.eventLog().checkProjections() == nil, "audit: the index equals a replay")
        await reopened.close()
    }

    @Test("no tokens: loopback only, unless explicitly allowed")
    func loopbackWithoutTokens() async throws {
        var configuration = NodeConfiguration()
        configuration.host = "0.0.0.0"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-open-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        await #expect(throws: NodeConfigurationError.self) {
            _ = try await AnchorageNode(directory: directory, configuration: configuration)
        }
        configuration.allowsUnauthenticatedRemoteAccess = true
        let node = try await AnchorageNode(directory: directory, configuration: configuration)
        await node.close()
    }

    @Test("token files: owner and app tokens parse; short, repeated or ownerless tokens are refused")
    func tokenFiles() throws {
        let policy = try AccessPolicy(
            json: Data(
                """
                {"tokens":[{"token":"aaaaaaaaaaaaaaaaaaaa","owner":true},
                 {"token":"bbbbbbbbbbbbbbbbbbbb","principal":{"name":"D","bundleIdentifier":"com.d"},
                  "read":["stepCount","HKQuantityTypeIdentifierHeartRate"],"share":["stepCount"]}]}
                """.utf8
            )
        )
        #expect(policy.tokens.count == 2)
        #expect(policy.tokens[0].principal == nil)
        #expect(policy.tokens[1].read.count == 2)
        let bad = [
            #"{"tokens":[{"token":"short","owner":true}]}"#,
            #"{"tokens":[{"token":"aaaaaaaaaaaaaaaaaaaa","owner":true},{"token":"aaaaaaaaaaaaaaaaaaaa","owner":true}]}"#,
            #"{"tokens":[{"token":"aaaaaaaaaaaaaaaaaaaa"}]}"#,
            #"{"tokens":[{"token":"aaaaaaaaaaaaaaaaaaaa","principal":{"bundleIdentifier":"x"},"read":["nope"]}]}"#,
            #"{"tokens":[{"token":"aaaaaaaaaaaaaaaaaaaa","principal":{"bundleIdentifier":"x"},"share":["bloodPressure"]}]}"#,
            "not json",
        ]
        for text in bad {
            #expect(throws: NodeConfigurationError.self) { try AccessPolicy(json: Data(text.utf8)) }
        }
    }
}
