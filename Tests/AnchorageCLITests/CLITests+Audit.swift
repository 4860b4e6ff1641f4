import Anchorage
import ArgumentParser
import Foundation
import LMDB
import Testing

@testable import AnchorageCLI

@Suite("Command line: audit verify, digest, rebuild")
struct CLIAuditTests {
    static func sample(_ hour: Int) -> String {
        """
        {"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
        "startDate":"2024-06-01T\(String(hour + 10)):00:00Z","endDate":"2024-06-01T\(String(hour + 10)):30:00Z",\
        "quantity":{"value":\(100 + hour),"unit":"count"}}
        """
    }

    @Test(
        "verify passes on an intact store; digest is stable across a rebuild; a changed byte fails verify at its entry"
    )
    func auditCommands() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-audit-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        let file = store + ".json"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(("[" + (0..<6).map(Self.sample).joined(separator: ",") + "]").utf8).write(
            to: URL(fileURLWithPath: file)
        )
        _ = try await runCLI(["save", "--store", store, "--file", file])

        let verified = try await runCLI(["audit", "verify", "--store", store])
        #expect(verified.contains("hash chain and payload digests: intact (6 entries, head 6)"))
        #expect(verified.contains("indices and statistics views: agree with a replay of the log"))
        let digest = try await runCLI(["digest", "--store", store])
        #expect(digest.count == 65 && digest.allSatisfy { $0.isHexDigit || $0 == "\n" })
        let rebuilt = try await runCLI(["rebuild", "--store", store])
        #expect(rebuilt.hasPrefix("rebuilt the indices and views from 6 entries"))
        #expect(try await runCLI(["digest", "--store", store]) == digest)

        // Change the last payload byte of entry 4 behind the store's back.
        do {
            let environment = try Environment(path: store)
            try environment.write { txn in
                let log = try #require(try txn.openDatabase(named: "log"))
                let key = UInt64(4).bigEndianBytes
                var bytes = try #require(try txn.withValue(forKey: key, in: log) { Array($0) })
                bytes[bytes.count - 1] ^= 0x01
                try txn.put(bytes, forKey: key, in: log)
            }
        }
        do {
            _ = try await runCLI(["audit", "verify", "--store", store, "--chain-only"])
            Issue.record("verify passed a changed entry")
        } catch {
            #expect(AnchorageCommand.exitCode(for: error) == .failure)
            // Format 2 stores the link of a transaction's last entry: entry 6
            // finds the change and names the entries it covers.
            #expect("\(error)".contains("entry 6") && "\(error)".contains("entries 1…6"), "\(error)")
            #expect("\(error)".contains("(anchor "), "\(error)")
        }
    }

    @Test("export writes the log as JSON lines, resumable by anchor; import-log rebuilds a store with the same digest")
    func exportAndImportLog() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-export-\(UUID())")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let store = base.appendingPathComponent("source").path
        let file = base.appendingPathComponent("samples.json")
        try Data(("[" + (0..<6).map(Self.sample).joined(separator: ",") + "]").utf8).write(to: file)
        _ = try await runCLI(["save", "--store", store, "--file", file.path])
        let listed = try await runCLI(["samples", "--store", store, "--type", "stepCount", "--format", "json"])
        let first = try #require(listed.split(separator: "\"uuid\":\"").dropFirst().first?.prefix(36))
        _ = try await runCLI(["delete", "--store", store, String(first)])

        let exported = try await runCLI(["export", "--store", store])
        let lines = exported.split(separator: "\n")
        #expect(lines.count == 7)
        let objects = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["operation"] as? String } == Array(repeating: "save", count: 6) + ["delete"])
        #expect(
            objects.prefix(6).allSatisfy { ($0["object"] as? [String: Any])?["kind"] as? String == "quantitySample" }
        )
        // Resumable: from the third line's anchor, the last four.
        let anchor = try #require(objects[2]["anchor"] as? String)
        let rest = try await runCLI(["export", "--store", store, "--since", anchor])
        #expect(rest.split(separator: "\n") == Array(lines.suffix(4)))

        // Replay to that anchor, twice: three entries, the same digest.
        let replays = try await [1, 2].asyncMap { index in
            try await runCLI([
                "replay", "--store", store, "--to", anchor, "--into",
                base.appendingPathComponent("as-of-\(index)").path,
            ])
        }
        #expect(replays.allSatisfy { $0.hasPrefix("replayed 3 entries into ") })
        #expect(Set(replays.map { $0.split(separator: ";").last }).count == 1)

        let log = base.appendingPathComponent("log.ndjson")
        try Data(exported.utf8).write(to: log)
        let copy = base.appendingPathComponent("copy").path
        let imported = try await runCLI(["import-log", "--store", copy, log.path])
        let digest = try await runCLI(["digest", "--store", store]).trimmingCharacters(in: .newlines)
        #expect(imported == "imported 7 entries; digest \(digest)\n")
        #expect(try await runCLI(["digest", "--store", copy]).trimmingCharacters(in: .newlines) == digest)
        // Not into a store that holds entries; not a damaged line.
        do {
            _ = try await runCLI(["import-log", "--store", copy, log.path])
            Issue.record("import-log wrote into a store that is not empty")
        } catch {
            #expect("\(error)".contains("not empty"))
        }
        var damaged = exported
        let entryField = try #require(damaged.range(of: "\"entry\":\""))
        damaged.replaceSubrange(
            entryField.upperBound..<damaged.index(entryField.upperBound, offsetBy: 8),
            with: "AAAAAAAA"
        )
        try Data(damaged.utf8).write(to: log)
        do {
            _ = try await runCLI(["import-log", "--store", base.appendingPathComponent("other").path, log.path])
            Issue.record("import-log accepted a damaged entry")
        } catch {
            #expect("\(error)".contains("line 1"), "\(error)")
        }
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}

@Suite("Command line: a fleet copy's epochs")
struct CLIFleetEpochTests {
    @Test("history --epochs lists the epoch entries and audit verify names the highest")
    func epochs() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-cli-epochs-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: store) }
        do {
            let copy = HKHealthStore(directory: URL(fileURLWithPath: store))
            try await copy.setPreferredUnits([:])
            let none = try await runCLI(["history", "--epochs", "--store", store])
            #expect(none.contains("no fleet epochs"))
            try await copy.beginFleetEpoch(FleetEpoch(epoch: 1, primary: "n1", revision: 12))
            try await copy.beginFleetEpoch(FleetEpoch(epoch: 4, primary: "n3", revision: 40))
            await copy.close()
        }
        let table = try await runCLI(["history", "--epochs", "--store", store])
        #expect(table == "seq  epoch  primary  revision\n2    1      n1       12\n3    4      n3       40\n")
        let json = try await runCLI(["history", "--epochs", "--format", "json", "--store", store])
        #expect(json.contains(#""epoch":4"#) && json.contains(#""primary":"n3""#))
        let verified = try await runCLI(["audit", "verify", "--store", store])
        #expect(verified.contains("fleet epochs: 2 in the log; the highest is 4 (primary n3)"))
        await #expect(throws: (any Error).self) {
            _ = try await runCLI(["history", "--store", store])
        }
    }
}
