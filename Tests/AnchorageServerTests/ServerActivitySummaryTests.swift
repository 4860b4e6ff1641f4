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
}
