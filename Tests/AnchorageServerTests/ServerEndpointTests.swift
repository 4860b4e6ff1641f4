import Anchorage
import AnchorageServer
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: endpoints")
struct ServerEndpointTests {
    @Test("healthz answers without a token; metrics count requests and committed entries")
    func healthAndMetrics() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            try await node.application().test(.live) { client in
                let health = try await client.send(.get, "/healthz")
                #expect(health.status == .ok)
                #expect(health.text == #"{"status":"ok"}"#)
                #expect(try await client.send(.get, "/metrics").status == .unauthorized)
                let saved = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: "[\(stepJSON(12))]")
                #expect(saved.status == .created)
                // The commit counter learns of the commit after it. It counts
                // every committed entry (a node may commit records of its own
                // meanwhile), so the save shows as at least one.
                try await waitUntil("the commit counted") {
                    let text = try await client.send(.get, "/metrics", token: Tokens.owner).text
                    let line = text.split(separator: "\n").first { $0.hasPrefix("anchorage_log_entries_total ") }
                    return (line?.split(separator: " ").last).flatMap { Double($0) }.map { $0 >= 1 } ?? false
                }
                let metrics = try await client.send(.get, "/metrics", token: Tokens.owner).text
                #expect(metrics.contains("anchorage_log_batches_total"))
                #expect(
                    metrics.contains(
                        #"anchorage_http_requests_total{route="/v1/samples",method="POST",status="201"} 1"#
                    )
                )
                #expect(metrics.contains("anchorage_http_request_duration_seconds"))
            }
        }
    }

    @Test("OBJ-31: POST /v1/samples saves all and answers with the uuids; GET lists them by date (SQ-*)")
    func saveAndList() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let first = UUID()
                let second = UUID()
                let body = """
                    {"samples":[\(stepJSON(30, start: "2024-06-01T09:00:00Z", end: "2024-06-01T09:10:00Z", uuid: second)),\
                    \(stepJSON(12, uuid: first))]}
                    """
                let saved = try await client.send(.post, "/v1/samples", json: body)
                #expect(saved.status == .created)
                #expect(try saved.object["saved"] as? Int == 2)
                let listed = try await client.send(.get, "/v1/samples?type=stepCount")
                #expect(listed.status == .ok)
                let samples = try #require(try listed.object["samples"] as? [[String: Any]])
                #expect(samples.map { $0["uuid"] as? String } == [first.uuidString, second.uuidString])
                let newest = try await client.send(.get, "/v1/samples?type=stepCount&sort=-startDate&limit=1")
                let one = try #require(try newest.object["samples"] as? [[String: Any]])
                #expect(one.map { $0["uuid"] as? String } == [second.uuidString])
                let ranged = try await client.send(
                    .get,
                    "/v1/samples?type=stepCount&start=2024-06-01T08:30:00Z&end=2024-06-01T10:00:00Z"
                )
                let inRange = try #require(try ranged.object["samples"] as? [[String: Any]])
                #expect(inRange.map { $0["uuid"] as? String } == [second.uuidString])
            }
        }
    }

    @Test("OBJ-34: DELETE /v1/samples/{uuid} deletes once; then 404; the feed reports the deletion")
    func deleteSample() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let id = UUID()
                _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(5, uuid: id))]")
                #expect(try await client.send(.delete, "/v1/samples/\(id.uuidString)").status == .noContent)
                let again = try await client.send(.delete, "/v1/samples/\(id.uuidString)")
                #expect(again.status == .notFound)
                #expect(again.errorCode == "notFound")
                #expect(try await client.send(.delete, "/v1/samples/not-a-uuid").errorCode == "invalidArgument")
                let feed = try await client.send(.get, "/v1/changes?types=stepCount")
                let deleted = try #require(try feed.object["deleted"] as? [[String: Any]])
                #expect(deleted.map { $0["uuid"] as? String } == [id.uuidString])
                #expect(try #require(try feed.object["added"] as? [Any]).isEmpty)
            }
        }
    }

    @Test("ST-*: GET /v1/statistics answers a collection query in the asked unit and zone")
    func statistics() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let body = [
                    stepJSON(100, start: "2024-06-01T08:00:00Z", end: "2024-06-01T09:00:00Z"),
                    stepJSON(50, start: "2024-06-01T23:00:00Z", end: "2024-06-02T01:00:00Z"),
                    stepJSON(7, start: "2024-06-02T12:00:00Z", end: "2024-06-02T12:10:00Z"),
                ]
                _ = try await client.send(.post, "/v1/samples", json: "[\(body.joined(separator: ","))]")
                let response = try await client.send(
                    .get,
                    "/v1/statistics?type=stepCount&options=sum,duration&interval=1d&from=2024-06-01&to=2024-06-02&tz=UTC"
                )
                #expect(response.status == .ok)
                let object = try response.object
                #expect(object["unit"] as? String == "count")
                #expect(object["timeZone"] as? String == "UTC")
                let rows = try #require(object["statistics"] as? [[String: Any]])
                #expect(rows.map { $0["startDate"] as? String } == ["2024-06-01T00:00:00Z", "2024-06-02T00:00:00Z"])
                // The sample over midnight is prorated: 25 steps each side (ST-16).
                #expect(rows.map { $0["sum"] as? Double } == [125, 32])
                #expect(rows.map { $0["duration"] as? Double } == [7_200, 4_200])

                let paris = try await client.send(
                    .get,
                    "/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-01&tz=Europe/Paris"
                )
                let parisRows = try #require(try paris.object["statistics"] as? [[String: Any]])
                #expect(parisRows.map { $0["startDate"] as? String } == ["2024-05-31T22:00:00Z"])
                // 22:00 to 22:00 UTC: all of the first, 0 of the second, none of the third.
                #expect(parisRows.map { $0["sum"] as? Double } == [100])
            }
        }
    }

    @Test("GET /v1/sources lists the sources of a type")
    func sources() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            try await node.application().test(.router) { client in
                _ = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: "[\(stepJSON(3))]")
                _ = try await client.send(.post, "/v1/samples", token: Tokens.dashboard, json: "[\(stepJSON(4))]")
                let response = try await client.send(.get, "/v1/sources?type=stepCount", token: Tokens.owner)
                let sources = try #require(try response.object["sources"] as? [[String: Any]])
                #expect(
                    sources.map { $0["bundleIdentifier"] as? String } == ["com.example.dashboard", "com.example.tests"]
                )
            }
        }
    }

    @Test("AQ-9: GET /v1/changes pages with limit, reports hasMore, and resumes from newAnchor")
    func changesPaging() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let ids = (0..<5).map { _ in UUID() }
                for id in ids { _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1, uuid: id))]") }
                var seen: [String] = []
                var anchor: String?
                var pages = 0
                while true {
                    let since = anchor.map { "&since=\($0)" } ?? ""
                    let page = try await client.send(.get, "/v1/changes?types=stepCount,heartRate&limit=2\(since)")
                    #expect(page.status == .ok)
                    let object = try page.object
                    let added = try #require(object["added"] as? [[String: Any]])
                    seen += added.compactMap { $0["uuid"] as? String }
                    anchor = try #require(object["newAnchor"] as? String)
                    pages += 1
                    #expect(object["hasMore"] as? Bool == (added.count == 2))
                    if object["hasMore"] as? Bool != true { break }
                }
                #expect(seen == ids.map(\.uuidString))
                #expect(pages == 3)
                // A type named many times is read once.
                let repeated = Array(repeating: "stepCount", count: 500).joined(separator: ",")
                let once = try await client.send(
                    .get,
                    "/v1/changes?types=\(repeated)&type=HKQuantityTypeIdentifierStepCount"
                )
                let added = try #require(try once.object["added"] as? [[String: Any]])
                #expect(added.compactMap { $0["uuid"] as? String } == ids.map(\.uuidString))
            }
        }
    }
}
