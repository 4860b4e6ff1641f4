import Anchorage
import AnchorageServer
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: the owner's source priority (ST-22..27)")
struct ServerSourcePriorityTests {
    /// One step sample of `count` from `bundle`, over the same ten minutes
    /// as every other one here.
    static func step(_ count: Int, from bundle: String) -> String {
        stepJSON(Double(count)).replacingOccurrences(of: "com.example.tests", with: bundle)
    }

    static func mergedSum(_ client: some TestClientProtocol) async throws -> Double? {
        let answer = try await client.send(
            .get,
            "/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-01",
            token: Tokens.owner
        )
        let buckets = try #require(try answer.object["statistics"] as? [[String: Any]])
        return buckets.first?["sum"] as? Double
    }

    @Test(
        "ST-22, ST-27: the owner's order decides which of two overlapping sources merged statistics count, GET /v1/sources answers it, an app may not set it, bad input is a 400; audit verify passes"
    )
    func ownerOrder() async throws {
        try await withNode(policy: Tokens.policy) { node, directory in
            try await node.application().test(.router) { client in
                let saved = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json: "[\(Self.step(100, from: "com.example.watch")),\(Self.step(300, from: "com.example.phone"))]"
                )
                #expect(saved.status == .created, "\(saved.text)")
                for (order, sum) in [
                    (["com.example.watch"], 100.0), (["com.example.phone", "com.example.watch"], 300),
                ] {
                    let set = try await client.send(
                        .put,
                        "/v1/source-priority",
                        token: Tokens.owner,
                        json:
                            #"{"type":"stepCount","sources":\#(String(decoding: try JSONEncoder().encode(order), as: UTF8.self))}"#
                    )
                    #expect(set.status == .ok, "\(set.text)")
                    #expect(try set.object["priority"] as? [String] == order)
                    #expect(try await Self.mergedSum(client) == sum, "\(order) first")
                    let sources = try await client.send(.get, "/v1/sources?type=stepCount", token: Tokens.owner)
                    #expect(try sources.object["priority"] as? [String] == order, "\(sources.text)")
                }

                // An app that may read steps sees the order; it may not set one.
                let seen = try await client.send(.get, "/v1/sources?type=stepCount", token: Tokens.dashboard)
                #expect(try seen.object["priority"] as? [String] == ["com.example.phone", "com.example.watch"])
                let refused = try await client.send(
                    .put,
                    "/v1/source-priority",
                    token: Tokens.dashboard,
                    json: #"{"type":"stepCount","sources":["com.example.dashboard"]}"#
                )
                #expect(refused.status == .forbidden && refused.errorCode == "authorizationDenied", "\(refused.text)")
                // A token that cannot read the type sees no order.
                let hidden = try await client.send(.get, "/v1/sources?type=stepCount", token: Tokens.scale)
                #expect(try hidden.object["priority"] as? [String] == [], "\(hidden.text)")

                for (json, code) in [
                    (#"{"type":"sleepAnalysis","sources":[]}"#, "invalidArgument"),
                    (#"{"type":"zork","sources":[]}"#, "unknownType"),
                    (#"{"type":"stepCount","sources":["a","a"]}"#, "invalidArgument"),
                    (#"{"type":"stepCount","sources":[""]}"#, "invalidArgument"),
                    (#"{"type":"stepCount"}"#, "invalidJSON"),
                ] {
                    let bad = try await client.send(.put, "/v1/source-priority", token: Tokens.owner, json: json)
                    #expect(bad.status == .badRequest && bad.errorCode == code, "\(json): \(bad.text)")
                }
                // A body past what 1,000 identifiers need is refused before it is read.
                let huge = #"{"type":"stepCount","sources":["# + String(repeating: #""a","#, count: 200_000) + #""a"]}"#
                let oversized = try await client.send(.put, "/v1/source-priority", token: Tokens.owner, json: huge)
                #expect(oversized.status == .contentTooLarge && oversized.errorCode == "bodyTooLarge")
                #expect(try await Self.mergedSum(client) == 300, "nothing refused changed the order")

                // An empty list clears it.
                let cleared = try await client.send(
                    .put,
                    "/v1/source-priority",
                    token: Tokens.owner,
                    json: #"{"type":"stepCount","sources":[]}"#
                )
                #expect(try cleared.object["priority"] as? [String] == [])
            }
            try await expectAuditPasses(directory)
        }
    }
}
