import Anchorage
import AnchorageTesting
import ArgumentParser
import Foundation
import Testing

@testable import AnchorageCLI

let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs `anchorage` with `arguments` in-process and returns what it wrote.
func runCLI(_ arguments: [String]) async throws -> String {
    let output = CLIOutput()
    try await CLIOutput.$current.withValue(output) {
        var command = try AnchorageCommand.parseAsRoot(arguments)
        if var command = command as? any AsyncParsableCommand {
            try await command.run()
        } else {
            try command.run()
        }
    }
    return output.captured
}

/// Runs `anchorage` with `arguments` in-process, expecting it to fail, and
/// returns the message it would print (a usage error's or the command's).
func runCLIFailure(_ arguments: [String]) async throws -> String {
    do {
        let output = try await runCLI(arguments)
        Issue.record("anchorage \(arguments.joined(separator: " ")) succeeded: \(output)")
        return output
    } catch {
        return AnchorageCommand.message(for: error)
    }
}

/// The expected output stored in Golden/`name`.
func golden(_ name: String) throws -> String {
    let url = try #require(Bundle.module.url(forResource: "Golden/" + name, withExtension: nil))
    return try String(contentsOf: url, encoding: .utf8)
}

@Suite("Command line")
struct CLITests {
    @Test("import, then stats as a table and as JSON, match their golden files")
    func importAndStats() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let fixture = repositoryRoot.appendingPathComponent("Fixtures/apple-health/export-small.xml").path
        #expect(try await runCLI(["import", fixture, "--store", store]) == golden("import-small.txt"))
        let steps = try await runCLI([
            "stats", "--store", store, "--type", "stepCount", "--from", "2024-06-12", "--to", "2024-06-14", "--tz",
            "Europe/Paris",
        ])
        #expect(steps == (try golden("stats-steps-daily.txt")))
        let heart = try await runCLI([
            "stats", "--store", store, "--type", "heartRate", "--options", "average,min,max", "--interval", "1h",
            "--from", "2024-06-13T06:00:00Z", "--to", "2024-06-13T07:00:00Z", "--tz", "UTC", "--format", "json",
        ])
        #expect(heart == (try golden("stats-heart-hourly.json")))
        #expect(try await runCLI(["sources", "--store", store, "--type", "stepCount"]) == golden("sources-steps.txt"))
        #expect(
            try await runCLI(["samples", "--store", store, "--type", "heartRate"]) == golden("samples-heart.ndjson")
        )
        let newest = try await runCLI([
            "samples", "--store", store, "--type", "heartRate", "--newest-first", "--limit", "1",
        ])
        #expect(newest.contains(#""value":88"#) && newest.split(separator: "\n").count == 1)
        let again = try await runCLI(["import", fixture, "--store", store])
        #expect(again.contains("saved: 0\nalready present: 17\n"))

        // The change feed; anchors name the store, so they are masked.
        let changes = try await runCLI(["changes", "--store", store, "--type", "stepCount"])
        let masked = changes.replacingOccurrences(
            of: #"\{"anchor":"[^"]*"\}"#,
            with: #"{"anchor":"…"}"#,
            options: .regularExpression
        )
        #expect(masked == (try golden("changes-steps.ndjson")))
        // Resuming from the last anchor prints nothing new but the anchor.
        let last = try #require(changes.split(separator: "\n").last)
        let anchor = String(last.dropFirst(#"{"anchor":""#.count).dropLast(2))
        let resumed = try await runCLI(["changes", "--store", store, "--type", "stepCount", "--since", anchor])
        #expect(resumed == "\(last)\n")
        let paged = try await runCLI(["changes", "--store", store, "--type", "stepCount", "--limit", "2"])
        #expect(paged.split(separator: "\n").filter { $0.hasPrefix(#"{"added""#) }.count == 2)
    }

    @Test("changes --follow prints what is committed after it starts, until cancelled")
    func follow() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = HKHealthStore(directory: directory)
        // The store exists before the command looks for it (it opens in the background otherwise).
        try await store.opened()
        let output = CLIOutput()
        let task = Task {
            try await CLIOutput.$current.withValue(output) {
                let command = try AnchorageCommand.parseAsRoot([
                    "changes", "--store", directory.path, "--type", "stepCount", "--follow",
                ])
                if var command = command as? any AsyncParsableCommand { try await command.run() }
            }
        }
        // The first page: nothing yet, only an anchor.
        do {
            try await waitUntil("the first page's anchor printed") { output.captured.contains("anchor") }
        } catch {
            task.cancel()
            Issue.record("the command ended with \(await task.result); it printed \(output.captured)")
            throw error
        }
        let sample = HKQuantitySample(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: 12),
            start: Date(timeIntervalSince1970: 1_718_000_000),
            end: Date(timeIntervalSince1970: 1_718_000_060)
        )
        try await store.save(sample)
        try await waitUntil("the saved sample printed") { output.captured.contains(sample.uuid.uuidString) }
        task.cancel()
        _ = try? await task.value
        #expect(output.captured.contains(#""uuid":"\#(sample.uuid.uuidString)""#))
        #expect(output.captured.split(separator: "\n").filter { $0.hasPrefix(#"{"anchor""#) }.count == 2)
        await store.close()
    }

    @Test("Usage mistakes are validation errors naming what is wrong")
    func usageErrors() async throws {
        for arguments in [
            ["stats", "--type", "nothing", "--from", "2024-06-12", "--to", "2024-06-14"],
            ["stats", "--type", "stepCount", "--options", "median", "--from", "2024-06-12", "--to", "2024-06-14"],
            ["stats", "--type", "stepCount", "--options", "min", "--from", "2024-06-12", "--to", "2024-06-14"],
            ["stats", "--type", "stepCount", "--interval", "0d", "--from", "2024-06-12", "--to", "2024-06-14"],
            ["stats", "--type", "stepCount", "--tz", "Mars/Olympus", "--from", "2024-06-12", "--to", "2024-06-14"],
            ["changes", "--type", "nothing"],
            ["changes", "--type", "stepCount", "--since", "not-an-anchor"],
            ["changes", "--type", "stepCount", "--limit", "0"],
            ["sources", "--type", "nothing"],
            ["samples", "--type", "stepCount", "--from", "yesterday"],
        ] {
            do {
                _ = try await runCLI(arguments)
                Issue.record("accepted \(arguments)")
            } catch {
                #expect(AnchorageCommand.exitCode(for: error) == .validationFailure, "\(arguments): \(error)")
            }
        }
        // ST-1 in the names --options takes, as the HTTP API says it, not in Swift's.
        let wrongKind = try await runCLIFailure([
            "stats", "--type", "stepCount", "--options", "min,max", "--from", "2024-06-12", "--to", "2024-06-14",
        ])
        #expect(
            wrongKind.contains(
                "--options: min and max are for discrete types such as heartRate; stepCount takes sum, mostRecent or duration (ST-1)"
            ),
            "\(wrongKind)"
        )
        #expect(!wrongKind.contains("discreteMin") && !wrongKind.contains("cumulativeSum"), "\(wrongKind)")
    }
}
