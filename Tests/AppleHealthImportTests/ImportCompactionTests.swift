import Anchorage
import AnchorageLog
import AnchorageTesting
import Foundation
import Testing

@testable import AppleHealthImport

/// After an import, the store's files without the pages its commits freed.
@Suite("Compacting a store after an import")
struct ImportCompactionTests {
    /// An export of `perType` readings a type of four types, one every four
    /// minutes over the same weeks, listed type by type as the Health app
    /// lists them: each type's records go back to the start of the
    /// identifiers' time order, so every commit rewrites pages all over the
    /// objects' index.
    static func export(perType: Int, in directory: URL) throws -> URL {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#, "<!DOCTYPE HealthData [", "]>",
            #"<HealthData locale="en_US">"#, #" <ExportDate value="2024-06-14 09:00:00 +0200"/>"#,
        ]
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        formatter.timeZone = TimeZone(identifier: "Europe/Paris")
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let types = [
            ("HeartRate", "count/min"), ("StepCount", "count"), ("DistanceWalkingRunning", "km"),
            ("ActiveEnergyBurned", "kcal"),
        ]
        for (type, unit) in types {
            for index in 0..<perType {
                let date = formatter.string(from: start.addingTimeInterval(Double(index) * 240))
                lines.append(
                    #" <Record type="HKQuantityTypeIdentifier\#(type)" sourceName="Watch" sourceVersion="10.5" "#
                        + #"unit="\#(unit)" creationDate="\#(date)" startDate="\#(date)" endDate="\#(date)" "#
                        + #"value="\#(60 + index % 50)"/>"#
                )
            }
        }
        lines.append("</HealthData>")
        let file = directory.appendingPathComponent("export.xml")
        try lines.joined(separator: "\n").write(to: file, atomically: false, encoding: .utf8)
        return file
    }

    /// The disk `file` takes (its allocated blocks), which is what
    /// compaction gives back.
    static func size(_ file: URL) -> Int {
        allocatedBytes(atPath: file.path)
    }

    @Test(
        "an import that leaves a tenth of a file free is compacted: the files shrink, the state, anchors and audit are unchanged, and a second pass does nothing"
    )
    func compactsAfterImport() async throws {
        try await withTemporaryDirectory { directory in
            let export = try Self.export(perType: 6_000, in: directory)
            let storeDirectory = directory.appendingPathComponent("store")
            let projectionsFile = storeDirectory.appendingPathComponent("projections.mdb")
            let store = HKHealthStore(directory: storeDirectory)
            // One type a commit: each commit rewrites most of the objects index.
            let summary = try await HealthExportImporter(store: store, batchSize: 6_000).importExport(at: export)
            #expect(summary.saved == 24_000)
            // Open, the store is not compacted, and nothing changes.
            let openSize = Self.size(projectionsFile)
            #expect {
                try HealthExportImporter.compactStore(at: storeDirectory)
            } throws: { ($0 as? LogError)?.code == .storeInUse }
            #expect(Self.size(projectionsFile) == openSize)
            let digest = try store.stateDigest()
            let head = try store.eventLog().head
            await store.close()

            #expect(try HealthExportImporter.compactStore(at: storeDirectory))
            let compacted = Self.size(projectionsFile)
            #expect(Double(compacted) <= 0.9 * Double(openSize), "\(openSize) → \(compacted) bytes")
            #expect(try !HealthExportImporter.compactStore(at: storeDirectory), "nothing left to free")
            #expect(Self.size(projectionsFile) == compacted)

            let reopened = HKHealthStore(directory: storeDirectory)
            #expect(try reopened.stateDigest() == digest)
            #expect(try reopened.eventLog().head == head)
            try await expectAuditPasses(reopened)
            let again = try await HealthExportImporter(store: reopened).importExport(at: export)
            #expect(again.saved == 0 && again.alreadyPresent == 24_000)
            await reopened.close()
        }
    }

    @Test("a small import leaves too little free to be worth a rewrite: the files stay as they are")
    func smallImportStays() async throws {
        try await withTemporaryDirectory { directory in
            let storeDirectory = directory.appendingPathComponent("store")
            let store = HKHealthStore(directory: storeDirectory)
            _ = try await HealthExportImporter(store: store).importExport(at: fixtureFile("export-small.xml"))
            await store.close()
            let data = storeDirectory.appendingPathComponent("data.mdb")
            let before = try FileManager.default.attributesOfItem(atPath: data.path)[.systemFileNumber] as? Int
            #expect(try !HealthExportImporter.compactStore(at: storeDirectory))
            #expect(try FileManager.default.attributesOfItem(atPath: data.path)[.systemFileNumber] as? Int == before)
        }
    }
}
