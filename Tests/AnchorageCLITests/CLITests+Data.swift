import Anchorage
import ArgumentParser
import Foundation
import Testing

@testable import AnchorageCLI

@Suite("Command line: save, delete, formats, chart, demo")
struct CLIDataTests {
    /// A temporary store directory, removed afterwards.
    private func withStorePath<R>(_ body: (String) async throws -> R) async throws -> R {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-\(UUID())").path
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + "-peer")
        }
        return try await body(path)
    }

    private func step(_ id: UUID, _ value: Int, hour: Int) -> String {
        let start = String(format: "2024-06-01T%02d:00:00Z", hour)
        let end = String(format: "2024-06-01T%02d:30:00Z", hour)
        return """
            {"kind":"quantitySample","uuid":"\(id.uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
            "startDate":"\(start)","endDate":"\(end)","quantity":{"value":\(value),"unit":"count"},\
            "sourceRevision":{"source":{"name":"Tests","bundleIdentifier":"com.example.tests"}}}
            """
    }

    @Test("OBJ-31, OBJ-34: save reads JSON (all or none), delete removes by uuid, changes reports both")
    func saveAndDelete() async throws {
        try await withStorePath { store in
            let input = FileManager.default.temporaryDirectory.appendingPathComponent("samples-\(UUID()).json")
            defer { try? FileManager.default.removeItem(at: input) }
            let first = UUID()
            let second = UUID()
            try Data("[\(step(first, 100, hour: 8)),\(step(second, 200, hour: 9))]".utf8).write(to: input)
            #expect(try await runCLI(["save", "--store", store, "--file", input.path]) == "saved 2\n")

            // A batch with one bad sample stores nothing.
            try Data(#"[\#(step(UUID(), 5, hour: 10)),{"kind":"quantitySample"}]"#.utf8).write(to: input)
            await #expect(throws: CommandFailure.self) {
                _ = try await runCLI(["save", "--store", store, "--file", input.path])
            }
            #expect(try await runCLI(["delete", "--store", store, first.uuidString]) == "deleted 1\n")
            await #expect(throws: CommandFailure.self) {
                _ = try await runCLI(["delete", "--store", store, first.uuidString])
            }
            let json = try await runCLI(["changes", "--store", store, "--type", "stepCount", "--format", "json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let added = try #require(object["added"] as? [[String: Any]])
            #expect(added.map { $0["uuid"] as? String } == [second.uuidString])
            // A deletion as in GET /v1/changes: {"uuid": …}.
            let deleted = try #require(object["deleted"] as? [[String: Any]])
            #expect(deleted.map { $0["uuid"] as? String } == [first.uuidString])
            #expect(object["hasMore"] as? Bool == false)
            #expect(object["newAnchor"] is String)
            let lines = try await runCLI(["changes", "--store", store, "--type", "stepCount"])
            #expect(lines.contains(#"{"deleted":{"uuid":"\#(first.uuidString)"}}"# + "\n"), "\(lines)")

            let csv = try await runCLI(["changes", "--store", store, "--type", "stepCount", "--format", "csv"])
            #expect(
                csv == """
                    change,uuid,type,start,end,value,unit,source
                    added,\(second.uuidString),stepCount,2024-06-01T09:00:00Z,2024-06-01T09:30:00Z,200,count,com.example.tests
                    deleted,\(first.uuidString),,,,,,

                    """
            )
            let table = try await runCLI(["samples", "--store", store, "--type", "stepCount", "--format", "table"])
            #expect(
                table == """
                    uuid                                  type       start                 end                   value  unit   source
                    \(second.uuidString)  stepCount  2024-06-01T09:00:00Z  2024-06-01T09:30:00Z  200    count  com.example.tests

                    """
            )
        }
    }

    @Test("stats prints doubles in full in JSON and CSV, as HTTP does; the table rounds")
    func fullDoubles() async throws {
        try await withStorePath { store in
            let input = FileManager.default.temporaryDirectory.appendingPathComponent("samples-\(UUID()).json")
            defer { try? FileManager.default.removeItem(at: input) }
            try Data("[\(step(UUID(), 100, hour: 8))]".utf8).write(to: input)
            _ = try await runCLI(["save", "--store", store, "--file", input.path])
            let query = [
                "stats", "--store", store, "--type", "stepCount", "--interval", "10m", "--from", "2024-06-01T08:00:00Z",
                "--to", "2024-06-01T08:20:00Z", "--tz", "UTC", "--format",
            ]
            // 100 steps over 30 minutes: a third in each 10-minute bucket.
            let third = 100.0 * 600 / 1_800
            let json = try await runCLI(query + ["json"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            #expect(rows.map { $0["sum"] as? Double } == [third, third, third], "\(json)")
            #expect(json.contains("\(third)"))
            let csv = try await runCLI(query + ["csv"])
            let sums = csv.split(separator: "\n").dropFirst().map { $0.split(separator: ",").last.map(String.init) }
            #expect(sums == ["\(third)", "\(third)", "\(third)"], "\(csv)")
            let table = try await runCLI(query + ["table"])
            #expect(table.contains("33.33\n") && !table.contains("\(third)"), "\(table)")
        }
    }

    @Test("stats --chart draws bars scaled to the largest value")
    func chart() async throws {
        try await withStorePath { store in
            let input = FileManager.default.temporaryDirectory.appendingPathComponent("samples-\(UUID()).json")
            defer { try? FileManager.default.removeItem(at: input) }
            try Data("[\(step(UUID(), 100, hour: 8)),\(step(UUID(), 50, hour: 9))]".utf8).write(to: input)
            _ = try await runCLI(["save", "--store", store, "--file", input.path])
            let chart = try await runCLI([
                "stats", "--store", store, "--type", "stepCount", "--interval", "1h", "--from", "2024-06-01T08:00:00Z",
                "--to", "2024-06-01T10:00:00Z", "--tz", "UTC", "--chart",
            ])
            let lines = chart.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.first == "sum [count], GMT" || lines.first == "sum [count], UTC")
            #expect(lines[1] == "2024-06-01 08:00  " + String(repeating: "█", count: 48) + "  100")
            #expect(
                lines[2] == "2024-06-01 09:00  " + String(repeating: "█", count: 24) + String(repeating: " ", count: 25)
                    + " 50"
            )
            #expect(lines[3] == "2024-06-01 10:00")
        }
    }

    @Test("demo fills a store, runs the four scenarios, and adds nothing when run again")
    func demo() async throws {
        try await withStorePath { store in
            let first = try await runCLI(["demo", "--store", store, "--days", "14"])
            #expect(first.contains("1. Weekly steps"))
            #expect(first.contains("2. Meals of at least 800 kcal"))
            #expect(first.contains("After saving one walk, from that anchor: 1 added, 0 deleted"))
            #expect(first.contains("After deleting it, from the next anchor: 0 added, 1 deleted"))
            #expect(first.contains("What to try next"))
            // A second store replicates with it, both ways.
            #expect(first.contains("this store's anchored pull reports 1 added"))
            #expect(first.contains("the peer shows it no more"))
            let totals = try #require(first.split(separator: "\n").first { $0.contains("All-time steps: ") })
            let figures = totals.split(separator: ":").last?.split(separator: ",").map { $0.filter(\.isNumber) }
            #expect(figures?.count == 2 && figures?.first == figures?.last && figures?.first?.isEmpty == false)
            let saved = try #require(first.split(separator: "\n").first { $0.hasPrefix("Saved ") })
            #expect(!saved.hasPrefix("Saved 0 "))
            // Every panel of the web page has something to show: active energy, and runs with their routes.
            let energy = try await runCLI(["samples", "--store", store, "--type", "activeEnergyBurned", "--limit", "1"])
            #expect(energy.contains("HKQuantityTypeIdentifierActiveEnergyBurned"), "\(energy)")
            let routes = try await runCLI(["samples", "--store", store, "--type", "workoutRoute"])
            let runs = try await runCLI(["samples", "--store", store, "--type", "workout"])
            let routeLines = routes.split(separator: "\n").filter { $0.contains("\"kind\":\"workoutRoute\"") }
            #expect(!routeLines.isEmpty && routeLines.count == runs.split(separator: "\n").count, "a route a run")
            // Both stores as the first run left them: their digests and their logs' heads.
            let state = { () async throws -> [String] in
                var lines: [String] = []
                for directory in [store, store + "-peer"] {
                    lines.append(try await runCLI(["digest", "--store", directory]))
                    lines.append(try await runCLI(["audit", "verify", "--chain-only", "--store", directory]))
                }
                return lines
            }
            let before = try await state()
            let again = try await runCLI(["demo", "--store", store, "--days", "14"])
            #expect(again.contains("Saved 0 new objects"))
            #expect(again.contains("This run added nothing."))
            #expect(!again.contains("Sync: the peer pulled"))
            #expect(try await state() == before, "a second run on the same day adds nothing to either store")
            // The weekly sums are the merged statistics: recomputed, not stored, so equal on both runs.
            let weeks = { (text: String) in text.split(separator: "\n").filter { $0.contains(" 03:00  ") } }
            #expect(weeks(first) == weeks(again) && !weeks(first).isEmpty)
        }
    }
}

extension CLITests {
    @Test("import of a damaged or wrong file fails with exit status 1 and the place, in words")
    func importFailures() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let full = try Data(contentsOf: repositoryRoot.appendingPathComponent("Fixtures/apple-health/export-v14.xml"))
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID()).xml")
        defer { try? FileManager.default.removeItem(at: cut) }
        try full.prefix(full.count * 2 / 3).write(to: cut)
        do {
            _ = try await runCLI(["import", cut.path, "--store", store])
            Issue.record("a cut-short file imported")
        } catch {
            #expect(AnchorageCommand.exitCode(for: error) == ExitCode(1))
            #expect("\(error)".contains("cut short") && "\(error)".contains("at line"), "\(error)")
        }
        let done = try await runCLI([
            "import", repositoryRoot.appendingPathComponent("Fixtures/apple-health/export-v14.xml").path, "--store",
            store,
        ])
        #expect(done.contains("export version: 14"), "\(done)")
        #expect(done.contains("read Workout: 3"), "\(done)")
    }
}

extension CLITests {
    @Test("activity prints the imported activity summaries as a table, CSV or JSON; a bad day is a usage error")
    func activity() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let export = repositoryRoot.appendingPathComponent("Fixtures/apple-health/export-v12-malformed-dtd.xml").path
        _ = try await runCLI(["import", export, "--store", store])
        let table = try await runCLI(["activity", "--store", store, "--from", "2022-10-01", "--to", "2022-10-23"])
        let lines = table.split(separator: "\n")
        #expect(lines.count == 2, "\(table)")
        #expect(lines.last?.hasPrefix("2022-10-23  1944.60") == true, "\(table)")
        #expect(lines.last?.contains("kJ") == true)
        let csv = try await runCLI([
            "activity", "--store", store, "--from", "2022-10-01", "--to", "2022-10-31", "--format", "csv",
        ])
        #expect(csv.split(separator: "\n").last == "2022-10-24,1533.05,1700,kJ,31,30,0,0,9,12")
        let json = try await runCLI([
            "activity", "--store", store, "--from", "2022-10-24", "--to", "2022-10-24", "--format", "json",
        ])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(list.map { $0["date"] as? String } == ["2022-10-24"])
        do {
            _ = try await runCLI(["activity", "--store", store, "--from", "2022-13-01", "--to", "2022-10-24"])
            Issue.record("a bad day was accepted")
        } catch {
            #expect(AnchorageCommand.exitCode(for: error) == .validationFailure)
        }

        // The change feed carries them too, one line per day, then the anchor.
        let changes = try await runCLI(["changes", "--store", store, "--type", "activitySummary"])
        let feed = changes.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
        }
        let days = feed.compactMap { ($0["activitySummary"] as? [String: Any])?["date"] as? String }
        #expect(days.sorted() == ["2022-10-23", "2022-10-24"], "\(changes)")
        #expect(feed.last?["anchor"] is String)
        #expect(!feed.contains { $0["added"] != nil }, "only the type asked for")
        let rows = try await runCLI([
            "changes", "--store", store, "--type", "activitySummary", "--type", "stepCount", "--format", "csv",
        ])
        #expect(rows.contains("summary,,activitySummary,2022-10-24,,1533.05,kJ,"), "\(rows)")
    }
}
