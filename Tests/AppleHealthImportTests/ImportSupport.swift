import Anchorage
import AnchorageLog
import Foundation
import Testing
import ZIPFoundation

@testable import AppleHealthImport

/// A committed fixture under Fixtures/apple-health.
func fixtureFile(_ name: String) -> URL {
    fixture.deletingLastPathComponent().appendingPathComponent(name)
}

/// `audit verify` on a store: the hash chain and digests are intact, and
/// every projection equals a replay of the log.
func expectAuditPasses(_ store: HKHealthStore, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let log = try store.eventLog()
    let report = try log.verify()
    #expect(report.problem == nil, "\(String(describing: report.problem))", sourceLocation: sourceLocation)
    let disagreement = try await log.checkProjections()
    #expect(disagreement == nil, "\(String(describing: disagreement))", sourceLocation: sourceLocation)
}

/// Imports `url` and returns the typed error it must fail with.
/// Imports `file` into `store` again and expects it to add nothing: not a
/// sample (the summary), not an entry (the log's head), not a change of
/// the visible state (the digest). Returns the summary.
@discardableResult
func expectImportAddsNothing(
    _ file: URL,
    into store: HKHealthStore,
    batchSize: Int? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> HealthExportImporter.Summary {
    let head = try store.eventLog().head.seq
    let digest = try store.stateDigest()
    let importer = HealthExportImporter(store: store, batchSize: batchSize ?? 1_000)
    let summary = try await importer.importExport(at: file)
    #expect(summary.saved == 0, "\(file.lastPathComponent): saved again", sourceLocation: sourceLocation)
    #expect(
        try store.eventLog().head.seq == head,
        "\(file.lastPathComponent): the log grew",
        sourceLocation: sourceLocation
    )
    #expect(
        try store.stateDigest() == digest,
        "\(file.lastPathComponent): the state changed",
        sourceLocation: sourceLocation
    )
    return summary
}

func importError(
    _ url: URL,
    into store: HKHealthStore,
    batchSize: Int = 1_000,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> ImportError? {
    do {
        let summary = try await HealthExportImporter(store: store, batchSize: batchSize).importExport(at: url)
        Issue.record("the import succeeded: \(summary)", sourceLocation: sourceLocation)
        return nil
    } catch let error as ImportError {
        return error
    }
}

/// Writes a zip holding `entries` (path → bytes), deflated.
func writeZip(_ entries: [(String, [UInt8])], to url: URL) throws {
    let archive = try Archive(url: url, accessMode: .create)
    for (path, bytes) in entries {
        let data = Data(bytes)
        try archive.addEntry(
            with: path,
            type: .file,
            uncompressedSize: Int64(data.count),
            compressionMethod: .deflate
        ) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}

/// The objects of `type` in the store.
func samples(_ store: HKHealthStore, _ type: HKSampleType) async throws -> [HKSample] {
    try await HKSampleQueryDescriptor(predicates: [.sample(type: type)], sortDescriptors: []).result(for: store)
}

/// Where `text` first (or last) occurs in `bytes`.
func byteOffset(of text: String, in bytes: [UInt8], last: Bool = false) -> Int? {
    let needle = Array(text.utf8)
    guard bytes.count >= needle.count else { return nil }
    let starts = Array(0...(bytes.count - needle.count))
    for start in last ? starts.reversed() : starts where bytes[start..<start + needle.count].elementsEqual(needle) {
        return start
    }
    return nil
}
