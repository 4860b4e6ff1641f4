import Anchorage
import AnchorageLog
import ArgumentParser
import Foundation
import Testing

@testable import AnchorageCLI

/// Runs `arguments` as the `anchorage` executable does, expecting it to
/// fail: what it prints on standard error, and its exit status.
func cliFailure(_ arguments: [String]) async -> (message: String, status: Int32) {
    var parsed: (any ParsableCommand.Type)?
    do {
        var command = try AnchorageCommand.parseAsRoot(arguments)
        parsed = type(of: command)
        let output = CLIOutput()
        try await CLIOutput.$current.withValue(output) {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        }
        return ("", 0)
    } catch {
        // The executable exits with 2 for usage errors (ArgumentParser's is 64).
        let code = AnchorageCommand.exitCode(for: error)
        if code == .validationFailure {
            return (AnchorageCommand.usageMessage(for: error, from: parsed), 2)
        }
        return ("Error: " + AnchorageCommand.message(for: error), code.rawValue)
    }
}

/// The findings of a new user running every documented command (issue 20),
/// each checked as that user met it.
@Suite("Command line, as users meet it")
struct CLIAsUsersMeetItTests {
    private func withStore<R>(_ body: (String, HKHealthStore) async throws -> R) async throws -> R {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = HKHealthStore(directory: URL(fileURLWithPath: path))
        try await store.save(
            HKQuantitySample(
                type: HKQuantityType(.stepCount),
                quantity: HKQuantity(unit: .count(), doubleValue: 42),
                start: Date(timeIntervalSince1970: 1_717_200_000),
                end: Date(timeIntervalSince1970: 1_717_200_060)
            )
        )
        do {
            let result = try await body(path, store)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }

    @Test("2: an anchor past the end of the log is refused by changes --since and replay --to (AQ-11, anchorAhead)")
    func anchorsAhead() async throws {
        try await withStore { path, store in
            let log = try store.eventLog()
            let ahead = Anchor(storeID: log.storeID, incarnation: log.incarnation, seq: 10_000_000).stringValue
            await store.close()
            let changes = await cliFailure(["changes", "--store", path, "--type", "stepCount", "--since", ahead])
            #expect(changes.status == 1 && changes.message.contains("anchorAhead"), "\(changes.message)")
            let into = path + "-replayed"
            defer { try? FileManager.default.removeItem(atPath: into) }
            let replay = await cliFailure(["replay", "--store", path, "--to", ahead, "--into", into])
            #expect(replay.status == 1 && replay.message.contains("anchorAhead"), "\(replay.message)")
            #expect(!FileManager.default.fileExists(atPath: into + "/data.mdb"))
        }
    }

    @Test("5: help and output say what the commands do: delete is partial, units, rebuild's time, history's anchors")
    func helpAndOutput() async throws {
        let delete = AnchorageCommand.helpMessage(for: DeleteCommand.self)
        #expect(!delete.contains("all or none") && delete.contains("those found are deleted"))
        let stats = AnchorageCommand.helpMessage(for: StatsCommand.self)
        #expect(stats.contains("a unit people read"))
        #expect(AnchorageCommand.helpMessage(for: DemoCommand.self).contains("7 to 3660"))
        try await withStore { path, store in
            let id = try #require(
                try await HKSampleQueryDescriptor(
                    predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                    sortDescriptors: []
                ).result(for: store).first?.uuid
            )
            await store.close()
            let rebuilt = try await runCLI(["rebuild", "--store", path])
            #expect(
                rebuilt.range(of: #"from 1 entries in \d+\.\d s\n$"#, options: .regularExpression) != nil,
                "\(rebuilt)"
            )
            let history = try await runCLI(["history", "--store", path, id.uuidString]).split(separator: "\n")
            #expect(history.first?.hasSuffix("anchor") == true, "\(history)")
            let anchor = try #require(history.last?.split(separator: " ").last)
            #expect(try HKQueryAnchor(string: String(anchor)).stringValue == String(anchor))
        }
    }

    @Test("5 and 6: mistakes in stats are usage errors (exit status 2) with the usage of stats, not of anchorage")
    func usageErrors() async throws {
        try await withStore { path, store in
            await store.close()
            let cases: [([String], String)] = [
                (["--type", "stepCount", "--from", "2024-06-02", "--to", "2024-06-01"], "--from is after --to"),
                (
                    [
                        "--type", "stepCount", "--from", "2024-06-01", "--to", "2024-06-02", "--chart", "--format",
                        "json",
                    ],
                    "--chart draws a table"
                ),
                (
                    ["--type", "sleepAnalysis", "--unit", "kg", "--from", "2024-06-01", "--to", "2024-06-02"],
                    "is not a quantity type"
                ),
                (["--type", "stepCount", "--from", "yesterday", "--to", "2024-06-02"], "--from must be a day"),
                (["--type", "stepCount", "--unit", "zork", "--from", "2024-06-01", "--to", "2024-06-02"], "(UNIT-1)"),
                (
                    ["--type", "stepCount", "--interval", "1s", "--from", "2024-01-01", "--to", "2024-06-02"],
                    "more than the 100000 one request may compute"
                ),
                (
                    ["--type", "stepCount", "--tz", "Mars/Olympus", "--from", "2024-06-01", "--to", "2024-06-02"],
                    "--tz: "
                ),
            ]
            for (arguments, words) in cases {
                let failure = await cliFailure(["stats", "--store", path] + arguments)
                #expect(failure.status == 2, "\(arguments)")
                #expect(failure.message.contains(words), "\(arguments): \(failure.message)")
                #expect(failure.message.contains("Usage: anchorage stats"), "\(arguments): \(failure.message)")
                #expect(!failure.message.contains("<subcommand>"), "\(arguments)")
            }
        }
        let tokens = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID()).json").path
        try Data("not json".utf8).write(to: URL(fileURLWithPath: tokens))
        defer { try? FileManager.default.removeItem(atPath: tokens) }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        for (arguments, words) in [
            (["--host", "0.0.0.0"], "without tokens"),
            (["--tokens", "/nonexistent/tokens.json"], "/nonexistent/tokens.json: no such file"),
            (["--tokens", tokens], "the file is not valid JSON"),
        ] {
            let failure = await cliFailure(["serve", "--store", store, "--port", "0"] + arguments)
            #expect(failure.status == 2, "\(arguments)")
            #expect(failure.message.contains(words), "\(arguments): \(failure.message)")
            #expect(failure.message.contains("Usage: anchorage serve"), "\(arguments): \(failure.message)")
            #expect(!failure.message.contains("DecodingError"), "\(arguments)")
        }
    }

    @Test("7: messages a person can act on: said once, in words, naming the field and the expected form")
    func messages() async throws {
        try await withStore { path, store in
            await store.close()
            let garbage = await cliFailure(["changes", "--store", path, "--type", "stepCount", "--since", "garbage"])
            #expect(garbage.message.components(separatedBy: "is not an anchor").count == 2, "\(garbage.message)")
            let negative = await cliFailure(["changes", "--store", path, "--type", "stepCount", "--limit", "-1"])
            #expect(negative.message.contains("--limit must be at least 1"), "\(negative.message)")

            let id = UUID()
            func sample(
                uuid: String = id.uuidString,
                kind: String = "quantitySample",
                metadata: String = "{}"
            ) -> String {
                """
                [{"kind":"\(kind)","uuid":"\(uuid)","type":"HKQuantityTypeIdentifierStepCount",\
                "quantity":{"unit":"count","value":1},"startDate":"2024-06-01T08:00:00Z",\
                "endDate":"2024-06-01T08:05:00Z","metadata":\(metadata)}]
                """
            }
            let file = path + "-input.json"
            defer { try? FileManager.default.removeItem(atPath: file) }
            func save(_ json: String) async -> String {
                try? Data(json.utf8).write(to: URL(fileURLWithPath: file))
                return await cliFailure(["save", "--store", path, "--file", file]).message
            }
            let outOfRange = await save(sample().replacingOccurrences(of: #""value":1"#, with: #""value":-40"#))
            #expect(outOfRange.contains("(VAL-1)") && !outOfRange.contains("-40"), "\(outOfRange)")
            let untagged = await save(sample(metadata: #"{"level":3}"#))
            #expect(
                untagged.contains("[0].metadata.level: a metadata value is an object naming its kind"),
                "\(untagged)"
            )
            let kind = await save(sample(kind: "foo"))
            #expect(kind.contains("[0].kind: 'foo' is not a kind of object; use quantitySample"), "\(kind)")
            #expect(!kind.contains("Kind from"), "\(kind)")
            let uuid = await save(sample(uuid: "nope"))
            #expect(uuid.contains("[0].uuid: not a uuid") && !uuid.contains("UUID string"), "\(uuid)")

            // A deleted uuid is never used again, and the message says so.
            try Data(sample().utf8).write(to: URL(fileURLWithPath: file))
            _ = try await runCLI(["save", "--store", path, "--file", file])
            _ = try await runCLI(["delete", "--store", path, id.uuidString])
            let deleted = await save(sample())
            #expect(deleted.contains("was deleted") && deleted.contains("(OBJ-32)"), "\(deleted)")

            let missing = await cliFailure(["save", "--store", path, "--file", "/nonexistent/input.json"])
            #expect(missing.message.contains("cannot read /nonexistent/input.json: no such file"), "\(missing.message)")

            // A mistyped --store creates nothing for a command that reads.
            let mistyped = path + "-mistyped"
            for command in [["samples", "--type", "stepCount"], ["digest"], ["audit", "verify"]] {
                let failure = await cliFailure(command + ["--store", mistyped])
                #expect(failure.status == 1 && failure.message.contains("no store at"), "\(command)")
                #expect(!FileManager.default.fileExists(atPath: mistyped), "\(command)")
            }
        }
    }
}
