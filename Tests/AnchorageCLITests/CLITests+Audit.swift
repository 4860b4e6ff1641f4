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
            #expect("\(error)".contains("entry 4"), "\(error)")
        }
    }
}
