import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("Verification")
struct VerifyTests {
    @Test("an intact log verifies, and reports how much it checked")
    func intact() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            var generator = SeededGenerator(seed: 11)
            for _ in 0..<20 {
                try await log.append((0..<5).map { _ in LogEvent.random(using: &generator) })
            }
            let report = try log.verify()
            #expect(report.isIntact && report.entriesChecked == 100 && report.head == 100)
        }
    }

    @Test(
        "flipping any byte of an entry in the data file makes verify() name that entry, or the next one storing its link"
    )
    func everyByteFlip() async throws {
        try await withTemporaryDirectory { directory in
            let target: UInt64 = 25
            // One commit, so each entry's bytes appear once in the file.
            let log = try EventLog.open(at: directory)
            try await log.append(
                (1...50).map { index in
                    .save(
                        id: UUID(),
                        kind: EntryKind(rawValue: UInt32(index)),
                        payload: Array("payload-\(index)-".utf8)
                    )
                }
            )
            let entry = try log.entries(after: nil, limit: 50).entries[Int(target) - 1]
            let encoded = try log.storedForm(of: entry, link: entry.link)
            #expect(entry.link == nil, "format 2 links only the transaction's last entry here")
            await log.close()

            let file = directory.appendingPathComponent("data.mdb")
            let original = try Data(contentsOf: file)
            let offsets = occurrences(of: encoded, in: original)
            #expect(!offsets.isEmpty)
            for index in encoded.indices {
                var damaged = original
                for offset in offsets { damaged[offset + index] ^= 0x5A }
                try damaged.write(to: file)
                let reopened = try EventLog.open(at: directory)
                let report = try reopened.verify()
                // Damage to the structure is found at the entry itself; to
                // what the chain hashes, at entry 50, the next stored link.
                let found = try #require(report.problem, "byte \(index) went unnoticed")
                if found.seq == 50 {
                    #expect(found.reason.contains("link"), "byte \(index): \(found)")
                    #expect(report.entriesChecked == 49)
                } else {
                    #expect(found.seq == target, "byte \(index): \(found)")
                    #expect(report.entriesChecked == Int(target) - 1)
                }
                // Reading the damaged entry never crashes: it decodes (the
                // damage is in hashed content) or is a typed error naming it.
                do {
                    let page = try reopened.entries(after: nil, limit: 50)
                    #expect(page.entries.count == 50)
                } catch let error as LogError {
                    #expect(error.code == .malformedEntry && error.seq == target, "byte \(index): \(error)")
                }
                await reopened.close()
            }
            try original.write(to: file)
            let restored = try EventLog.open(at: directory)
            #expect(try restored.verify().isIntact)
            await restored.close()
        }
    }

    /// Byte offsets at which `needle` occurs in `haystack`.
    private func occurrences(of needle: [UInt8], in haystack: Data) -> [Int] {
        let bytes = [UInt8](haystack)
        guard let first = needle.first, bytes.count >= needle.count else { return [] }
        return (0...(bytes.count - needle.count)).filter { start in
            bytes[start] == first && bytes[start..<start + needle.count].elementsEqual(needle)
        }
    }
}
