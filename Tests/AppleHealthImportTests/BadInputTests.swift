import Anchorage
import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AppleHealthImport

/// Files as an attacker, a damaged disk or a cut-short copy hand them over:
/// a typed ``ImportError`` naming the place, nothing half-stored, and an
/// import that can be run again to finish.
@Suite("Bad and hostile exports", .ownThread)
final class BadInputTests {
    /// Where this test's files go; removed when the test ends.
    let folder = temporaryPath(prefix: "anchorage-import-files")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A minimal export body around `records`, after `prologue`.
    static func export(prologue: String = #"<?xml version="1.0" encoding="UTF-8"?>"#, _ records: String) -> [UInt8] {
        Array((prologue + "\n<HealthData locale=\"en_US\">\n" + records + "\n</HealthData>\n").utf8)
    }

    static let step =
        #"<Record type="HKQuantityTypeIdentifierStepCount" sourceName="Phone" unit="count" "#
        + #"startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:05:00 +0000" value="12"/>"#

    func write(_ bytes: [UInt8], _ name: String = "export.xml") throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    @Test("A file cut short fails with its line; what was saved stays valid; importing again finishes, nothing twice")
    func truncatedThenResumed() async throws {
        let full = Array(try Data(contentsOf: fixtureFile("export-v14.xml")))
        // Cut inside the Workout element, well after most records.
        let offset = try #require(byteOffset(of: "<WorkoutActivity", in: full))
        let truncated = try write(Array(full[..<offset]))
        try await withImportStore { store in
            let error = try #require(try await importError(truncated, into: store, batchSize: 4))
            #expect(error.code == .malformed)
            #expect(error.message.contains("cut short"), "\(error)")
            #expect(error.line != nil)
            let savedBefore = try await count(store, HKQuantityType(.stepCount))
            #expect(savedBefore == 3, "the batches before the cut were saved")
            try await expectAuditPasses(store)
            let summary = try await HealthExportImporter(store: store).importExport(at: fixtureFile("export-v14.xml"))
            #expect(summary.saved + summary.alreadyPresent == 36)
            #expect(summary.alreadyPresent > 0)
            #expect(try await count(store, HKQuantityType(.stepCount)) == 3, "nothing twice")
            #expect(try await count(store, HKWorkoutType.workoutType()) == 3)
            try await expectImportAddsNothing(fixtureFile("export-v14.xml"), into: store)
            try await expectAuditPasses(store)
        }
    }

    @Test("Bytes that are not UTF-8, in an element name or a value, name the line and column")
    func invalidUTF8() async throws {
        var inName = Self.export(Self.step + "\n" + Self.step)
        inName[try #require(byteOffset(of: "Record", in: inName, last: true)) + 2] = 0xFF
        var inValue = Self.export(Self.step.replacingOccurrences(of: "Phone", with: "Ph\u{1}one"))
        let marker = try #require(inValue.firstIndex(of: 0x01))
        inValue[marker] = 0xFE
        for (bytes, line) in [(inName, 4), (inValue, 3)] {
            try await withImportStore { store in
                let error = try #require(try await importError(try write(bytes), into: store))
                #expect(error.code == .malformed)
                #expect(error.message.contains("UTF-8"), "\(error)")
                #expect(error.line == line, "\(error)")
                #expect(error.column != nil)
                #expect(!error.description.contains("Ph"), "no value of the file in the message")
            }
        }
    }

    @Test("A 100 MB attribute is refused at libxml2's 10 MB limit, without holding the file")
    func hugeAttribute() async throws {
        var bytes = Array(#"<?xml version="1.0"?>"#.utf8) + Array("\n<HealthData>\n<Record type=\"".utf8)
        bytes += [UInt8](repeating: 0x41, count: 100 << 20)
        bytes += Array("\"/>\n</HealthData>\n".utf8)
        let url = try write(bytes)
        bytes = []
        try await withImportStore { store in
            let error = try #require(try await importError(url, into: store))
            #expect(error.code == .tooLarge, "\(error)")
            #expect(error.line == 3)
        }
    }

    @Test("Billion laughs and an external entity naming /etc/passwd: the DTD is never read, no entity expands")
    func entityAttacks() async throws {
        var laughs = #"<!ENTITY lol "lol">"# + "\n"
        for level in 1...9 {
            laughs +=
                "<!ENTITY lol\(level) \""
                + String(repeating: "&lol\(level - 1 == 0 ? "" : String(level - 1));", count: 10)
                + "\">\n"
        }
        let bomb = Self.export(
            prologue: #"<?xml version="1.0"?>"# + "\n<!DOCTYPE HealthData [\n" + laughs + "]>",
            Self.step.replacingOccurrences(of: "Phone", with: "&lol9;")
        )
        let external = Self.export(
            prologue: #"<?xml version="1.0"?>"# + "\n"
                + #"<!DOCTYPE HealthData [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> "#
                + #"<!ENTITY % remote SYSTEM "http://127.0.0.1:9/x.dtd"> %remote; ]>"#,
            Self.step + "\n<Note>&xxe;</Note>"
        )
        for bytes in [bomb, external] {
            try await withImportStore { store in
                let error = try #require(try await importError(try write(bytes), into: store))
                #expect(error.code == .malformed)
                #expect(error.message.contains("entity"), "\(error)")
                #expect(!error.description.contains("root:"), "nothing of /etc/passwd")
                // The record before the reference was read whole; the one with
                // it never was.
                #expect(try await count(store, HKQuantityType(.stepCount)) <= 1)
                let sources = try await samples(store, HKQuantityType(.stepCount)).map(\.sourceRevision.source.name)
                #expect(sources.allSatisfy { !$0.contains("lol") && !$0.contains("root") })
            }
        }
    }

    @Test("A zip without a data file, a zip bomb, and a file that is no zip nor XML")
    func badZips() async throws {
        let empty = folder.appendingPathComponent("empty.zip")
        try writeZip(
            [
                ("apple_health_export/export_cda.xml", Array("<?xml version=\"1.0\"?><ClinicalDocument/>".utf8)),
                ("apple_health_export/workout-routes/a.gpx", Array("<gpx/>".utf8)),
            ],
            to: empty
        )
        let bomb = folder.appendingPathComponent("bomb.zip")
        let zeros = [UInt8](repeating: 0, count: 64 << 20)
        try writeZip([("apple_health_export/export.xml", Self.export(Self.step) + zeros)], to: bomb)
        let damaged = folder.appendingPathComponent("damaged.zip")
        var bytes = Array(try Data(contentsOf: empty))
        bytes.removeLast(bytes.count / 2)
        try Data(bytes).write(to: damaged)
        let expected: [(URL, ImportError.Code, String)] = [
            (empty, .notAnExport, "no Health export"), (bomb, .tooLarge, "zip bomb"),
            (damaged, .unreadable, "not a zip"),
        ]
        for (url, code, words) in expected {
            try await withImportStore { store in
                let error = try #require(try await importError(url, into: store))
                #expect(error.code == code, "\(url.lastPathComponent): \(error)")
                #expect(error.message.contains(words), "\(url.lastPathComponent): \(error)")
                #expect(try await count(store, HKQuantityType(.stepCount)) == 0)
            }
        }
        try await withImportStore { store in
            var generator = SeededGenerator(seed: 0xB1)
            let random = try write((0..<4_096).map { _ in UInt8.random(in: 0...255, using: &generator) }, "random.bin")
            let error = try #require(try await importError(random, into: store))
            #expect(error.code == .notAnExport || error.code == .malformed, "\(error)")
        }
    }

    @Test("Limits no export comes near: too many children, long names, too many distinct names")
    func structuralLimits() async throws {
        let beats = String(
            repeating: #"<InstantaneousBeatsPerMinute bpm="60" time="1:00:00.00 AM"/>"#,
            count: ExportParser.Limits.elementsPerTopLevel + 1
        )
        let cases = [
            Self.export(
                Self.step.replacingOccurrences(of: "/>", with: ">")
                    + "<HeartRateVariabilityMetadataList>\(beats)</HeartRateVariabilityMetadataList></Record>"
            ),
            Self.export("<" + String(repeating: "R", count: 300) + "/>"),
            Self.export((0..<2_100).map { "<Unknown\($0)/>" }.joined()),
        ]
        for bytes in cases {
            try await withImportStore { store in
                let error = try #require(try await importError(try write(bytes), into: store))
                #expect(error.code == .tooLarge, "\(error)")
                #expect(error.line != nil)
            }
        }
    }
}
