import AnchorageLog
import AnchorageService
import AnchorageTesting
import ArgumentParser
import Foundation
import LMDB
import Testing

@testable import AnchorageCLI

@Suite("Command line: migrate, one store or every store of a node")
struct CLIMigrateTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/log-format-1/data.mdb")

    @Test(
        "stores migrate: a format-1 store is migrated, a format-2 one left as it is, an empty one reported; a damaged one fails the command but not the others; every store verifies"
    )
    func everyStoreOfANode() async throws {
        try await withTemporaryDirectory { root in
            let node = ["--stores", root.path]
            _ = try await runCLI(["stores", "create", "alice", "bob", "carol", "dave"] + node)
            for name in ["alice", "dave"] {
                try FileManager.default.copyItem(at: Self.fixture, to: root.appending(path: "\(name)/data.mdb"))
            }
            let file = root.appending(path: "input.json").path
            try Data(("[" + CLIAuditTests.sample(0) + "]").utf8).write(to: URL(fileURLWithPath: file))
            _ = try await runCLI(["save", "--store", root.appending(path: "bob").path, "--file", file])
            // Damage dave's log: it must not be migrated, and stays as it was.
            let daveFile = root.appending(path: "dave/data.mdb")
            try Self.flipLastByte(ofEntry: 10, in: root.appending(path: "dave").path)
            let damaged = try Data(contentsOf: daveFile)

            let output = CLIOutput()
            let failure = await CLIOutput.$current.withValue(output) { () async -> (any Error)? in
                do {
                    var command = try AnchorageCommand.parseAsRoot(["stores", "migrate"] + node)
                    try command.run()
                    return nil
                } catch {
                    return error
                }
            }
            #expect(failure.map { "\($0)" }?.contains("1 of 4 stores were not migrated: dave") == true)
            let lines = output.captured.split(separator: "\n").map(String.init)
            #expect(lines.count == 4, "\(lines)")
            #expect(lines.first?.hasPrefix("alice: migrated from log format 1 to 2: 255 entries; data file ") == true)
            #expect(lines.dropFirst().first == "bob: already in log format 2; nothing to do")
            #expect(lines.dropFirst(2).first == "carol: nothing stored yet")
            #expect(lines.last?.hasPrefix("dave: cannot migrate: ") == true && lines.last?.contains("entry 10") == true)

            #expect(try Data(contentsOf: daveFile) == damaged, "the damaged store was not changed")
            _ = try await runCLI(["stores", "delete", "dave", "--yes"] + node)
            #expect(
                try await runCLI(["stores", "migrate"] + node)
                    == "alice: already in log format 2; nothing to do\nbob: already in log format 2; nothing to do\n"
                    + "carol: nothing stored yet\n"
            )
            for name in ["alice", "bob"] {
                let log = try EventLog.openForReading(at: root.appending(path: name))
                let intact = try log.verify().isIntact
                #expect(log.format == 2 && intact, "\(name)")
                await log.close()
            }
        }
    }

    /// Changes the last byte of entry `seq` behind the store's back.
    static func flipLastByte(ofEntry seq: UInt64, in path: String) throws {
        let environment = try Environment(path: path)
        try environment.write { txn in
            let log = try #require(try txn.openDatabase(named: "log"))
            var bytes = try #require(try txn.withValue(forKey: seq.bigEndianBytes, in: log) { Array($0) })
            bytes[bytes.count - 1] ^= 0x01
            try txn.put(bytes, forKey: seq.bigEndianBytes, in: log)
        }
    }
}
