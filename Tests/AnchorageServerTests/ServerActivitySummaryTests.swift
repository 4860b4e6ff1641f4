import Anchorage
import AnchorageLog
import AnchorageServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: activity summaries")
struct ServerActivitySummaryTests {
    static let rings = "rings-token-0123456789"

    static var policy: AccessPolicy {
        var policy = Tokens.policy
        policy.tokens.append(
            .init(
                secret: rings,
                principal: HKSource(name: "Rings", bundleIdentifier: "com.example.rings"),
                read: [HKObjectType.activitySummaryType()],
                share: []
            )
        )
        return policy
    }

    @Test("GET /v1/activity-summaries: the days in range for readers, none for others; bad and long ranges refused")
    func list() async throws {
        try await withNode(policy: Self.policy) { node, directory in
            var configuration = HKHealthStore.Configuration()
            configuration.log.durability = .none
            let owner = HKHealthStore(directory: directory, configuration: configuration)
            let calendar = Calendar(identifier: .gregorian)
            var summaries: [HKActivitySummary] = []
            for (day, energy) in [(8, 611.8), (9, 702.2), (12, 88.5)] {
                let summary = try HKActivitySummary(
                    dateComponents: DateComponents(calendar: calendar, year: 2026, month: 1, day: day)
                )
                summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: energy)
                summaries.append(summary)
            }
            try await owner.saveActivitySummaries(summaries)
            try await node.application().test(.router) { client in
                let path = "/v1/activity-summaries?from=2026-01-09&to=2026-01-31"
                for token in [Tokens.owner, Self.rings] {
                    let response = try await client.send(.get, path, token: token)
                    #expect(response.status == .ok)
                    let list = try #require(try response.object["activitySummaries"] as? [[String: Any]])
                    #expect(list.map { $0["date"] as? String } == ["2026-01-09", "2026-01-12"])
                    let energy = try #require(list.first?["activeEnergyBurned"] as? [String: Any])
                    #expect(energy["value"] as? Double == 702.2)
                    #expect(energy["unit"] as? String == "kcal")
                }
                let hidden = try await client.send(.get, path, token: Tokens.dashboard)
                #expect(hidden.status == .ok)
                #expect(
                    (try hidden.object["activitySummaries"] as? [Any])?.isEmpty == true,
                    "unreadable: empty (AUTH-4)"
                )
                for bad in [
                    "/v1/activity-summaries?from=2026-01-09", "/v1/activity-summaries?from=2026-13-01&to=2026-01-02",
                    "/v1/activity-summaries?from=2026-01-09&to=2026-01-01",
                    "/v1/activity-summaries?from=1900-01-01&to=2026-01-01",
                ] {
                    #expect(try await client.send(.get, bad, token: Tokens.owner).status == .badRequest, "\(bad)")
                }
                #expect(try await client.send(.get, path).status == .unauthorized)
            }
            await owner.close()
        }
    }

    @Test("tokens.json grants reading activity summaries by name")
    func tokenFile() throws {
        let text = #"""
            {"tokens": [{"token": "rings-token-0123456789", "principal": {"bundleIdentifier": "com.example.rings"},
              "read": ["activitySummary", "stepCount"]}]}
            """#
        let policy = try AccessPolicy(json: Data(text.utf8))
        #expect(policy.tokens.first?.read.contains(HKObjectType.activitySummaryType()) == true)
        #expect(policy.tokens.first?.read.contains(HKQuantityType(.stepCount)) == true)
    }

    static func summary(day: Int, energy: Double) throws -> HKActivitySummary {
        let summary = try HKActivitySummary(
            dateComponents: DateComponents(calendar: Calendar(identifier: .gregorian), year: 2026, month: 1, day: day)
        )
        summary.activeEnergyBurned = HKQuantity(unit: .kilocalorie(), doubleValue: energy)
        return summary
    }

    /// The dates of a change-feed page's activity summaries.
    static func dates(_ page: [String: Any]) throws -> [String] {
        let list = try #require(page["activitySummaries"] as? [[String: Any]])
        return list.compactMap { $0["date"] as? String }
    }

    @Test("GET /v1/changes: activity summaries by default and by name, each day once, for readers only")
    func changeFeed() async throws {
        try await withNode(policy: Self.policy) { node, directory in
            var configuration = HKHealthStore.Configuration()
            configuration.log.durability = .none
            let owner = HKHealthStore(directory: directory, configuration: configuration)
            try await owner.saveActivitySummaries([
                try Self.summary(day: 8, energy: 1), try Self.summary(day: 9, energy: 2),
            ])
            try await node.application().test(.router) { client in
                _ = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: "[\(stepJSON(5))]")
                try await owner.saveActivitySummaries([try Self.summary(day: 8, energy: 3)])

                let everything = try await client.send(.get, "/v1/changes", token: Tokens.owner).object
                #expect(try Self.dates(everything) == ["2026-01-09", "2026-01-08"], "the 8th once, at its change")
                #expect((everything["added"] as? [Any])?.count == 1)
                let named = try await client.send(.get, "/v1/changes?types=activitySummary", token: Tokens.owner).object
                #expect(try Self.dates(named) == ["2026-01-09", "2026-01-08"])
                #expect((named["added"] as? [Any])?.isEmpty == true)
                let steps = try await client.send(.get, "/v1/changes?types=stepCount", token: Tokens.owner).object
                #expect(try Self.dates(steps).isEmpty)
                #expect((steps["added"] as? [Any])?.count == 1)

                // Pages of one, resumed from each page's anchor.
                var since = ""
                var paged: [String] = []
                for _ in 0..<10 {
                    let page = try await client.send(.get, "/v1/changes?limit=1\(since)", token: Tokens.owner).object
                    let dates = try Self.dates(page)
                    let added = (page["added"] as? [Any])?.count ?? 0
                    if dates.isEmpty && added == 0 { break }
                    paged += dates + Array(repeating: "sample", count: added)
                    since = "&since=\(try #require(page["newAnchor"] as? String))"
                }
                #expect(paged == ["2026-01-09", "sample", "2026-01-08"])

                let rings = try await client.send(.get, "/v1/changes", token: Self.rings).object
                #expect(try Self.dates(rings) == ["2026-01-09", "2026-01-08"])
                #expect((rings["added"] as? [Any])?.isEmpty == true, "rings reads no steps")
                let dashboard = try await client.send(.get, "/v1/changes", token: Tokens.dashboard).object
                #expect(try Self.dates(dashboard).isEmpty, "no grant: none, as if there were none (AUTH-4)")
                #expect((dashboard["added"] as? [Any])?.count == 1)
                let bad = try await client.send(.get, "/v1/changes?types=activitySummaries", token: Tokens.owner)
                #expect(bad.status == .badRequest)
                #expect(bad.text.contains("activitySummary"), "the message names the accepted form")
            }
            #expect(try await owner.eventLog().checkProjections() == nil, "audit: the index equals a replay")
            await owner.close()
        }
    }

    @Test("GET /v1/changes?stream=ndjson: activity summary lines, then each later change of a day")
    func changeStream() async throws {
        // Short heartbeats: a stream notices a consumer that left at the next one.
        try await withNode(configuration: nodeConfiguration { $0.heartbeatInterval = .milliseconds(100) }) {
            node,
            directory in
            var configuration = HKHealthStore.Configuration()
            configuration.log.durability = .none
            let owner = HKHealthStore(directory: directory, configuration: configuration)
            try await owner.saveActivitySummaries([try Self.summary(day: 8, energy: 1)])
            try await node.application().test(.live) { client in
                let port = try #require(client.port)
                let consumer = FeedConsumer()
                _ = try await consumer.follow(port: port, query: "types=activitySummary") { applied, _ in
                    applied.count >= 1
                }
                try await owner.saveActivitySummaries([
                    try Self.summary(day: 8, energy: 4), try Self.summary(day: 10, energy: 5),
                ])
                _ = try await consumer.follow(port: port, query: "types=activitySummary") { applied, _ in
                    applied.count >= 3
                }
                #expect(
                    await consumer.applied == [
                        "summary 2026-01-08 1.0", "summary 2026-01-08 4.0", "summary 2026-01-10 5.0",
                    ]
                )
            }
            #expect(try await owner.eventLog().checkProjections() == nil, "audit: the index equals a replay")
            await owner.close()
        }
    }
}
