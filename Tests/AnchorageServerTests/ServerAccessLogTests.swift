import Anchorage
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: the access log")
struct ServerAccessLogTests {
    @Test("each read route leaves one entry with principal, route, types, range and count; never a value")
    func readsAreRecorded() async throws {
        try await withNode(policy: Tokens.policy) { node, directory in
            try await node.application().test(.router) { client in
                let uuid = UUID()
                let saved = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json: "[\(stepJSON(12345.678, uuid: uuid))]"
                )
                #expect(saved.status.code < 300)
                let reads: [(String, String, String?)] = [
                    ("/v1/samples?type=stepCount&start=2024-06-01&end=2024-06-02", Tokens.owner, "GET /v1/samples"),
                    ("/v1/samples?type=stepCount", Tokens.dashboard, "GET /v1/samples"),
                    (
                        "/v1/statistics?type=stepCount&options=sum&interval=1h&from=2024-06-01&to=2024-06-02",
                        Tokens.owner, "GET /v1/statistics"
                    ),
                    ("/v1/sources?type=stepCount", Tokens.owner, "GET /v1/sources"),
                    ("/v1/changes?types=stepCount", Tokens.owner, "GET /v1/changes"),
                    (
                        "/v1/activity-summaries?from=2024-06-01&to=2024-06-02", Tokens.owner,
                        "GET /v1/activity-summaries"
                    ),
                ]
                for (path, token, _) in reads {
                    let response = try await client.send(.get, path, token: token)
                    #expect(response.status == .ok, "\(path): \(response.text)")
                }
                let log = try await client.send(.get, "/v1/access-log?limit=1000", token: Tokens.owner)
                #expect(log.status == .ok)
                let entries = try #require(try log.object["entries"] as? [[String: Any]])
                #expect(entries.compactMap { $0["action"] as? String } == reads.compactMap(\.2))
                #expect(entries.map { $0["principal"] as? String }[1] == "app:com.example.dashboard")
                #expect(entries.first?["count"] as? Int == 1)
                #expect(entries.first?["types"] as? [String] == ["HKQuantityTypeIdentifierStepCount"])
                #expect(entries.first?["from"] as? String == "2024-06-01T00:00:00Z")
                #expect(entries[2]["count"] as? Int == 25, "statistics: the buckets (to is included)")
                #expect(entries[4]["until"] is String, "changes: the anchor answered")
                #expect(!log.text.contains("12345"), "no health value")
                #expect(!log.text.contains(uuid.uuidString), "no sample uuid")
                #expect(!log.text.contains(Tokens.owner) && !log.text.contains(Tokens.dashboard), "no token")
                #expect(try log.object["next"] is NSNull)
                let before = entries.count
                let again = try await client.send(.get, "/v1/access-log?limit=1000", token: Tokens.owner)
                #expect((try again.object["entries"] as? [Any])?.count == before, "reading the log is not recorded")
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("owner only: an app's token is refused, no token is 401; hostile parameters are typed 400s")
    func ownerOnlyAndHostile() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            try await node.application().test(.router) { client in
                let app = try await client.send(.get, "/v1/access-log", token: Tokens.dashboard)
                #expect(app.status == .forbidden)
                #expect(app.errorCode == "authorizationDenied")
                let none = try await client.send(.get, "/v1/access-log")
                #expect(none.status == .unauthorized)
                let bad: [(String, String)] = [
                    ("limit=100000000000000000000", "invalidArgument"),
                    ("limit=0", "invalidArgument"),
                    ("limit=1001", "invalidArgument"),
                    ("after=nonsense", "invalidCursor"),
                    ("after=1-2-3", "invalidCursor"),
                    ("after=", "invalidCursor"),
                    ("from=yesterday", "invalidArgument"),
                    ("to=2024-13-45", "invalidArgument"),
                    ("from=2024-06-02&to=2024-06-01", "invalidArgument"),
                ]
                for (query, code) in bad {
                    let response = try await client.send(.get, "/v1/access-log?\(query)", token: Tokens.owner)
                    #expect(response.status == .badRequest, "\(query)")
                    #expect(response.errorCode == code, "\(query): \(response.text)")
                }
                for index in 0..<3 {
                    _ = try await client.send(.get, "/v1/sources?type=stepCount", token: Tokens.owner)
                    _ = index
                }
                let first = try await client.send(.get, "/v1/access-log?limit=2", token: Tokens.owner)
                let next = try #require(try first.object["next"] as? String)
                let second = try await client.send(.get, "/v1/access-log?limit=2&after=\(next)", token: Tokens.owner)
                #expect((try second.object["entries"] as? [Any])?.count == 1)
                // Well formed, but no page showed it: the docs' 400, not a page.
                let parts = next.split(separator: "-").compactMap { UInt64($0) }
                let forged = "\(parts[0] + 1)-\(parts[1])"
                let refused = try await client.send(.get, "/v1/access-log?after=\(forged)", token: Tokens.owner)
                #expect(refused.status == .badRequest && refused.errorCode == "invalidCursor", "\(refused.text)")
            }
        }
    }
}
