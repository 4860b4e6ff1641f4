import Anchorage
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: each app's share of writes")
struct ServerWriteQuotaTests {
    /// A JSON array of `count` one-minute step samples.
    static func batch(_ count: Int) -> String {
        let start = Date(timeIntervalSince1970: 1_717_200_000)
        let samples = (0..<count).map { index in
            let from = start.addingTimeInterval(Double(index) * 60)
            return stepJSON(
                10,
                start: from.formatted(.iso8601),
                end: from.addingTimeInterval(60).formatted(.iso8601)
            )
        }
        return "[" + samples.joined(separator: ",") + "]"
    }

    /// 100 objects a second (bursts of 100), a turn waited for 1 s at most,
    /// shares refilled only as `clock` is moved.
    static func configuration(requestObjects: Int = 10, clock: HandClock) -> NodeConfiguration {
        nodeConfiguration {
            $0.appWriteObjectsPerSecond = 100
            $0.writeRequestObjects = requestObjects
            $0.writeTurnWait = .seconds(1)
            $0.clock = clock.store
        }
    }

    static func stepCount(_ client: some TestClientProtocol) async throws -> Int {
        let listed = try await client.send(.get, "/v1/samples?type=stepCount&limit=10000", token: Tokens.owner)
        return try #require(try listed.object["samples"] as? [Any]).count
    }

    @Test(
        "beyond its share an app's save and delete wait their turn, then 429 rateLimited with Retry-After, storing nothing; the owner and other apps are not slowed"
    )
    func share() async throws {
        let clock = HandClock()
        try await withNode(policy: Tokens.policy, configuration: Self.configuration(clock: clock)) { node, directory in
            try await node.application().test(.router) { client in
                // One request larger than the whole burst passes a full share, into debt.
                let large = try await client.send(.post, "/v1/samples", token: Tokens.dashboard, json: Self.batch(300))
                #expect(large.status == .created, "\(large.text)")
                // The next turn would come after 2 s of repaying: more than the wait allowed.
                let (refused, waited) = try await clock.driving {
                    try await client.send(.post, "/v1/samples", token: Tokens.dashboard, json: Self.batch(1))
                }
                #expect(waited == .seconds(1), "a refused write waited its turn as long as it may, and no longer")
                #expect(refused.status == .tooManyRequests, "\(refused.text)")
                #expect(refused.errorCode == "rateLimited")
                #expect(refused.text.contains("objects written"), "\(refused.text)")
                let retryAfter = try #require(refused.headers[.retryAfter].flatMap { Int($0) })
                #expect((1...3).contains(retryAfter))
                let (deleteRefused, _) = try await clock.driving {
                    try await client.send(.delete, "/v1/samples/\(UUID().uuidString)", token: Tokens.dashboard)
                }
                #expect(deleteRefused.status == .tooManyRequests, "deletes count too: \(deleteRefused.text)")
                #expect(try await Self.stepCount(client) == 300, "the refused save stored nothing")

                // Others are not slowed: the owner, and another app with its own share.
                let owner = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: Self.batch(2_000))
                #expect(owner.status == .created)
                let mass = """
                    [{"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierBodyMass",\
                    "startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:00:00Z","quantity":{"unit":"kg","value":70}}]
                    """
                let scale = try await client.send(.post, "/v1/samples", token: Tokens.scale, json: mass)
                #expect(scale.status == .created, "\(scale.text)")

                // After Retry-After seconds the app's share has grown back.
                clock.advance(by: .seconds(retryAfter))
                let (later, _) = try await clock.driving {
                    try await client.send(.post, "/v1/samples", token: Tokens.dashboard, json: Self.batch(1))
                }
                #expect(later.status == .created, "\(later.text)")
                #expect(try await Self.stepCount(client) == 2_301)
            }
            try await expectAuditPasses(directory)
        }
    }

    /// The statuses of four one-object saves by an app that may not wait
    /// for a turn (the clock does not move).
    static func smallSaves(requestObjects: Int) async throws -> [HTTPResponse.Status] {
        let clock = HandClock()
        var configuration = configuration(requestObjects: requestObjects, clock: clock)
        configuration.writeTurnWait = .zero
        return try await withNode(policy: Tokens.policy, configuration: configuration) { node, directory in
            let statuses = try await node.application().test(.router) { client in
                var statuses: [HTTPResponse.Status] = []
                for _ in 0..<4 {
                    let (response, _) = try await clock.driving {
                        try await client.send(.post, "/v1/samples", token: Tokens.dashboard, json: batch(1))
                    }
                    statuses.append(response.status)
                }
                return statuses
            }
            try await expectAuditPasses(directory)
            return statuses
        }
    }

    @Test("a request counts as at least writeRequestObjects objects, however few it carries")
    func requestCost() async throws {
        // 100 a request: the first empties the 100-object burst; the next
        // turn is a wait away, and no wait is allowed.
        #expect(
            try await Self.smallSaves(requestObjects: 100) == [
                .created, .tooManyRequests, .tooManyRequests, .tooManyRequests,
            ]
        )
        #expect(try await Self.smallSaves(requestObjects: 1) == [.created, .created, .created, .created])
    }

    @Test("a share of 0 is no limit")
    func unlimited() async throws {
        var configuration = Self.configuration(clock: HandClock())
        configuration.appWriteObjectsPerSecond = 0
        try await withNode(policy: Tokens.policy, configuration: configuration) { node, directory in
            try await node.application().test(.router) { client in
                for _ in 0..<3 {
                    let response = try await client.send(
                        .post,
                        "/v1/samples",
                        token: Tokens.dashboard,
                        json: Self.batch(1_500)
                    )
                    #expect(response.status == .created)
                }
            }
            try await expectAuditPasses(directory)
        }
    }
}
