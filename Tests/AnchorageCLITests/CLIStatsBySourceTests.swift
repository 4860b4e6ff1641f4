import Anchorage
import AnchorageStoreTesting
import Foundation
import Testing

@Suite("Command line: stats by source")
struct CLIStatsBySourceTests {
    @Test(
        "ST-9: stats --by-source prints each source's sums beside the merged ones, as the reference evaluator; --source selects"
    )
    func bySource() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try Data(SourcedHistory.jsonArray(90).utf8).write(to: input)
        _ = try await runCLI(["save", "--store", path, "--file", input.path])
        for selected in [[], ["com.example.phone"]] {
            let json = try await runCLI(
                [
                    "stats", "--store", path, "--type", "stepCount", "--interval", "1h", "--from",
                    "2024-06-01T00:00:00Z", "--to", "2024-06-01T23:59:59Z", "--tz", "UTC", "--by-source", "--format",
                    "json",
                ] + selected.flatMap { ["--source", $0] }
            )
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            #expect(rows.count == 24)
            let store = HKHealthStore(directory: URL(fileURLWithPath: path))
            let reference = try await SourcedHistory.reference(store, sources: selected)
            await store.close()
            let parsed = try rows.map { row in
                (
                    start: try #require((row["start"] as? String).flatMap { try? Date($0, strategy: .iso8601) }),
                    sum: row["sum"] as? Double,
                    sources: row["sources"] as? [[String: Any]] ?? []
                )
            }
            let (compared, problems) = SourcedHistory.compare(rows: parsed, with: reference, selected: selected)
            #expect(problems.isEmpty, "\(problems)")
            #expect(compared > 10)
        }
        // The table and CSV name each line's source: "all" for the merged values.
        let csv = try await runCLI([
            "stats", "--store", path, "--type", "stepCount", "--interval", "1d", "--from", "2024-06-01", "--to",
            "2024-06-01", "--tz", "UTC", "--by-source", "--format", "csv",
        ])
        let lines = csv.split(separator: "\n").map(String.init)
        #expect(lines.first == "start,end,source,sum")
        #expect(
            lines.dropFirst().map { String($0.split(separator: ",")[2]) }
                == ["all", "com.example.app", "com.example.phone", "com.example.watch"]
        )
    }
}
