import Anchorage
import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AppleHealthImport

/// Mutated exports: bytes flipped, cut, duplicated and inserted, in the
/// prologue and in the body. The reader and the object builder must only
/// ever end with a typed error or a result; a trap would end the test run.
@Suite("Fuzzing the export reader", .ownThread)
struct FuzzTests {
    /// Parses `bytes` in chunks of varying size and builds every top-level
    /// element as the importer does. Returns the error, if any.
    static func read(_ bytes: [UInt8], chunk: Int) -> ImportError? {
        var builder = ExportObjects()
        do throws(ImportError) {
            let parser = try ExportParser(batchSize: 8) { batch in
                for element in batch.topLevel {
                    switch element.name {
                    case .record: _ = try? builder.sample(element)
                    case .correlation: _ = try? builder.correlation(element)
                    case .workout: _ = try? builder.workout(element)
                    default: _ = element.children.count
                    }
                }
                return true
            }
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + chunk)
                var failure: ImportError?
                bytes[offset..<end].withUnsafeBytes { chunk in
                    do throws(ImportError) { try parser.parse(chunk) } catch { failure = error }
                }
                if let failure { throw failure }
                offset = end
            }
            try parser.finish()
            return nil
        } catch {
            return error
        }
    }

    static func mutate(_ original: [UInt8], bodyStart: Int, using random: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        // Half the mutations land in the prologue, half in the body.
        func position() -> Int {
            Bool.random(using: &random)
                ? Int.random(in: 0..<bodyStart, using: &random)
                : Int.random(in: bodyStart..<bytes.count, using: &random)
        }
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard bytes.count > bodyStart + 1 else { break }
            switch Int.random(in: 0..<6, using: &random) {
            case 0:  // Flip bits of a few bytes.
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    bytes[position()] ^= UInt8.random(in: 1...255, using: &random)
                }
            case 1:  // Cut the file short.
                bytes.removeLast(Int.random(in: 1..<(bytes.count - bodyStart), using: &random))
            case 2:  // Duplicate a range somewhere else.
                let start = position()
                let length = min(Int.random(in: 1...400, using: &random), bytes.count - start)
                bytes.insert(contentsOf: bytes[start..<start + length], at: position())
            case 3:  // Insert markup-like bytes.
                let pieces = ["<", ">", "&", "\"", "</Record>", "<Record ", "&amp;", "&#0;", "]]>", "<!--", "\u{0}"]
                bytes.insert(contentsOf: Array(pieces.randomElement(using: &random)!.utf8), at: position())
            case 4:  // Remove a range.
                let start = position()
                bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...60, using: &random)))
            default:  // Random bytes, C0 controls and broken UTF-8 among them.
                let count = Int.random(in: 1...16, using: &random)
                bytes.insert(
                    contentsOf: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) },
                    at: position()
                )
            }
        }
        return bytes
    }

    @Test("10,000 mutated exports end in a result or a typed error, never a crash")
    func mutations() throws {
        let original = Array(try Data(contentsOf: fixtureFile("export-v12-malformed-dtd.xml")))
        let start = try #require(byteOffset(of: "<HealthData ", in: original))
        #expect(Self.read(original, chunk: 4_096) == nil, "the unmutated file reads")
        var random = SeededGenerator(seed: 0x15)
        var outcomes: [ImportError.Code?: Int] = [:]
        for _ in 0..<10_000 {
            let bytes = Self.mutate(original, bodyStart: start, using: &random)
            let chunk = [1, 7, 64, 4_096, 1 << 20][Int.random(in: 0..<5, using: &random)]
            let error = Self.read(bytes, chunk: chunk)
            outcomes[error?.code, default: 0] += 1
            if let error {
                #expect(!error.message.isEmpty)
            }
        }
        // Both ends are met: damage that is refused, and damage that the
        // reader survives (a flipped byte inside a value, a dropped
        // control character, the prologue's own damage).
        #expect((outcomes[.malformed] ?? 0) > 1_000, "\(outcomes)")
        #expect((outcomes[nil] ?? 0) > 1_000, "\(outcomes)")
    }

    @Test("Mutated exports imported into a store leave it consistent: audit verify passes after each")
    func mutationsIntoStore() async throws {
        let original = Array(try Data(contentsOf: fixtureFile("export-v14.xml")))
        let bodyStart = original.count / 3
        var random = SeededGenerator(seed: 0x16)
        try await withTemporaryDirectory(prefix: "anchorage-import-files") { folder in
            try await withImportStore { store in
                for index in 0..<40 {
                    let url = folder.appendingPathComponent("mutated-\(index).xml")
                    try Data(Self.mutate(original, bodyStart: bodyStart, using: &random)).write(to: url)
                    do {
                        _ = try await HealthExportImporter(store: store, batchSize: 5).importExport(at: url)
                    } catch is ImportError {
                        // Refused, in words; what was saved before stays valid.
                    }
                }
                try await expectAuditPasses(store)
            }
        }
    }
}
