import Anchorage
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: each app's share of statistics buckets")
struct ServerQuotaTests {
    /// `count` one-second buckets of step counts.
    static func query(buckets count: Int) -> String {
        let from = Date(timeIntervalSince1970: 1_717_200_000)
        let to = from.addingTimeInterval(Double(count - 1))
        return "/v1/statistics?type=stepCount&interval=1s&from=\(from.formatted(.iso8601))&to=\(to.formatted(.iso8601))"
    }

    /// The statuses of four requests by `token`: the whole burst, most of a
    /// second burst (into debt), one bucket beyond the share, and one bucket
    /// once `clock` has moved on as Retry-After told.
    static func turns(_ client: some TestClientProtocol, token: String, clock: HandClock) async throws -> [String] {
        var seen: [String] = []
        for buckets in [4_000, 3_000] {
            // The second goes into debt after a turn of a millisecond.
            let (response, _) = try await clock.driving {
                try await client.send(.get, query(buckets: buckets), token: token)
            }
            seen.append("\(response.status.code)")
            #expect(response.status == .ok, "\(response.text)")
        }
        let (refused, waited) = try await clock.driving { try await client.send(.get, query(buckets: 1), token: token) }
        #expect(waited == .seconds(1), "a refused request waited its turn as long as it may, and no longer")
        #expect(refused.status == .tooManyRequests)
        #expect(refused.errorCode == "rateLimited")
        #expect(refused.text.contains("1000 a second"), "\(refused.text)")
        let retryAfter = try #require(refused.headers[.retryAfter].flatMap { Int($0) })
        #expect((1...3).contains(retryAfter))
        seen.append("\(refused.status.code)")
        clock.advance(by: .seconds(retryAfter))
        let (later, _) = try await clock.driving { try await client.send(.get, query(buckets: 1), token: token) }
        #expect(later.status == .ok, "after Retry-After seconds, the request passes: \(later.text)")
        seen.append("\(later.status.code)")
        return seen
    }

    @Test(
        "beyond its share an app waits its turn, then 429 rateLimited with Retry-After; other principals are not slowed; a type it may not read costs the same (AUTH-4)"
    )
    func share() async throws {
        let clock = HandClock()
        let configuration = nodeConfiguration {
            $0.statisticsBucketsPerSecond = 1_000
            $0.statisticsTurnWait = .seconds(1)
            // Buckets only: CPU time differs from machine to machine; and
            // shares refill only as the test moves the clock.
            $0.statisticsBucketsPerCPUSecond = 0
            $0.clock = clock.store
        }
        try await withNode(policy: Tokens.policy, configuration: configuration) { node, directory in
            try await node.application().test(.router) { client in
                let saved = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json: "[\(stepJSON(40, start: "2024-06-01T00:00:10Z", end: "2024-06-01T00:00:20Z"))]"
                )
                #expect(saved.status == .created, "\(saved.text)")
                // The dashboard reads steps; the scale app may not.
                let readable = try await Self.turns(client, token: Tokens.dashboard, clock: clock)
                let denied = try await Self.turns(client, token: Tokens.scale, clock: clock)
                #expect(readable == ["200", "200", "429", "200"])
                // Also: had the two apps shared one bucket, the scale app's
                // first request would have found the dashboard's debt.
                #expect(denied == readable, "the statuses do not tell a denied type from an empty one")
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("a request counts its CPU time when that is more than its buckets; 0 counts buckets only")
    func cpuTime() async throws {
        func statuses(bucketsPerCPUSecond: Double) async throws -> [HTTPResponse.Status] {
            let clock = HandClock()
            let configuration = nodeConfiguration {
                $0.statisticsBucketsPerSecond = 1_000
                $0.statisticsTurnWait = .zero
                $0.clock = clock.store
                // A nanosecond of CPU counts as a bucket: any computation
                // costs more than the 4,000 buckets of a full share.
                $0.statisticsBucketsPerCPUSecond = bucketsPerCPUSecond
            }
            return try await withNode(policy: Tokens.policy, configuration: configuration) { node, directory in
                let statuses = try await node.application().test(.router) { client in
                    var statuses: [HTTPResponse.Status] = []
                    for _ in 0..<2 {
                        let (response, _) = try await clock.driving {
                            try await client.send(.get, Self.query(buckets: 1_000), token: Tokens.dashboard)
                        }
                        statuses.append(response.status)
                    }
                    return statuses
                }
                try await expectAuditPasses(directory)
                return statuses
            }
        }
        #expect(try await statuses(bucketsPerCPUSecond: 1e9) == [.ok, .tooManyRequests])
        #expect(try await statuses(bucketsPerCPUSecond: 0) == [.ok, .ok])
    }

    @Test("a share of 0 is no limit")
    func unlimited() async throws {
        let configuration = nodeConfiguration {
            $0.statisticsBucketsPerSecond = 0
            $0.statisticsTurnWait = .zero
        }
        try await withNode(policy: Tokens.policy, configuration: configuration) { node, directory in
            try await node.application().test(.router) { client in
                for _ in 0..<5 {
                    let response = try await client.send(.get, Self.query(buckets: 20_000), token: Tokens.dashboard)
                    #expect(response.status == .ok)
                }
            }
            try await expectAuditPasses(directory)
        }
    }
}
