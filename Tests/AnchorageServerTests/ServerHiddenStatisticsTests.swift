import Anchorage
import AnchorageLog
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: statistics an app may not read (AUTH-4)")
struct ServerHiddenStatisticsTests {
    static let queries = [
        "/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-02&interval=1h",
        "/v1/statistics?type=heartRate&options=average,min,max&from=2024-06-01T08:00:00Z&to=2024-06-01T09:00:00Z"
            + "&interval=15m",
        "/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-01",
    ]

    /// Each query's body for `token` on a node holding `samples`.
    static func answers(token: String, samples: [String]) async throws -> [String] {
        try await withNode(policy: Tokens.policy) { node, directory in
            let bodies = try await node.application().test(.router) { client in
                if !samples.isEmpty {
                    let saved = try await client.send(
                        .post,
                        "/v1/samples",
                        token: Tokens.owner,
                        json: "[\(samples.joined(separator: ","))]"
                    )
                    #expect(saved.status == .created, "\(saved.text)")
                }
                var bodies: [String] = []
                for query in queries {
                    let response = try await client.send(.get, query, token: token)
                    #expect(response.status == .ok, "\(query): \(response.text)")
                    bodies.append(response.text)
                }
                return bodies
            }
            var configuration = HKHealthStore.Configuration()
            configuration.log.durability = .none
            let owner = HKHealthStore(directory: directory, configuration: configuration)
            #expect(try await owner.eventLog().checkProjections() == nil, "audit: the index equals a replay")
            await owner.close()
            return bodies
        }
    }

    @Test("a type the app may not read answers exactly as a readable type without data, buckets included")
    func deniedLooksEmpty() async throws {
        let data = [
            stepJSON(900, start: "2024-06-01T08:00:00Z", end: "2024-06-01T09:30:00Z"),
            stepJSON(
                71,
                start: "2024-06-01T08:20:00Z",
                end: "2024-06-01T08:20:00Z",
                type: "HKQuantityTypeIdentifierHeartRate"
            ).replacingOccurrences(of: "\"unit\":\"count\"", with: "\"unit\":\"count/min\""),
        ]
        // The scale app reads neither type; the dashboard reads both.
        let denied = try await Self.answers(token: Tokens.scale, samples: data)
        let empty = try await Self.answers(token: Tokens.dashboard, samples: [])
        let readable = try await Self.answers(token: Tokens.dashboard, samples: data)
        #expect(denied == empty)
        #expect(readable != empty, "the data shows to an app that may read it")
        // Empty buckets are listed: 25 hours, 5 quarter hours, 1 day.
        let counts = try empty.map { body in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            return try #require(object["statistics"] as? [[String: Any]]).count
        }
        #expect(counts == [25, 5, 1])
    }
}
