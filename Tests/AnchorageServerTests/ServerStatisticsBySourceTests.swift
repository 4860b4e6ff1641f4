import Anchorage
import AnchorageServer
import AnchorageStoreTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: statistics by source (ST-7..9)")
struct ServerStatisticsBySourceTests {
    @Test(
        "ST-9: separateBySource=true gives each source's own sums beside the merged one, as the reference evaluator does; sources= selects"
    )
    func bySource() async throws {
        try await withNode(policy: Tokens.policy) { node, directory in
            try await node.application().test(.router) { client in
                let saved = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json: SourcedHistory.jsonArray(90)
                )
                #expect(saved.status == .created, "\(saved.text)")
                let owner = HKHealthStore(directory: directory)
                for selected in [[], ["com.example.watch", "com.example.app"]] {
                    let reference = try await SourcedHistory.reference(owner, sources: selected)
                    let filter = selected.isEmpty ? "" : "&sources=" + selected.joined(separator: ",")
                    let answer = try await client.send(
                        .get,
                        "/v1/statistics?type=stepCount&interval=1h&from=2024-06-01T00:00:00Z&to=2024-06-01T23:59:59Z"
                            + "&separateBySource=true\(filter)",
                        token: Tokens.owner
                    )
                    #expect(answer.status == .ok, "\(answer.text)")
                    let object = try answer.object
                    #expect((object["options"] as? [String]) == ["sum", "separateBySource"])
                    let rows = try #require(object["statistics"] as? [[String: Any]])
                    #expect(rows.count == 24)
                    let parsed = try rows.map { row in
                        (
                            start: try #require(
                                (row["startDate"] as? String).flatMap { try? Date($0, strategy: .iso8601) }
                            ),
                            sum: row["sum"] as? Double,
                            sources: row["sources"] as? [[String: Any]] ?? []
                        )
                    }
                    let (compared, problems) = SourcedHistory.compare(rows: parsed, with: reference, selected: selected)
                    #expect(problems.isEmpty, "\(problems)")
                    #expect(compared > 20, "the history gives many per-source buckets to compare")
                }
                await owner.close()
                let bad = try await client.send(
                    .get,
                    "/v1/statistics?type=stepCount&from=2024-06-01&to=2024-06-02&separateBySource=maybe",
                    token: Tokens.owner
                )
                #expect(bad.status == .badRequest)
            }
            try await expectAuditPasses(directory)
        }
    }
}
