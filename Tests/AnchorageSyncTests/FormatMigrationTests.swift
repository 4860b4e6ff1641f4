import AnchorageLog
import AnchorageSync
import Foundation
import Testing

@testable import Anchorage

/// A real format-1 store (Fixtures/log-format-1, written by the version
/// before format 2) migrated, and stores of both formats replicating.
@Suite("Log format 2: the format-1 fixture, and peers of both formats")
struct FormatMigrationTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/log-format-1")
    /// The fixture's state digest, printed by `anchorage digest` when it was made.
    static let digest = "04b2ab584cfa4b4b1b67d7b78465737f57552905d876afc2b63f3befbab69d7f"

    /// Export lines of every entry of `log`, as `anchorage export` writes them.
    static func exportLines(_ log: EventLog) throws -> [String] {
        var writer = LogExportWriter()
        var bytes: [UInt8] = []
        var anchor: Anchor?
        while true {
            let page = try log.entries(after: anchor, limit: 1_000)
            for entry in page.entries { try writer.append(entry, anchor: log.anchor(atSeq: entry.seq), to: &bytes) }
            anchor = page.next
            if !page.hasMore { break }
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(
        "the format-1 fixture is read as it is, migrates, verifies, agrees with a replay, and keeps its digest and export"
    )
    func fixtureMigrates() async throws {
        let expected = try String(contentsOf: Self.fixture.appendingPathComponent("export.ndjson"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        try await withTemporaryDirectories(1) { directories in
            let directory = directories[0]
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: Self.fixture.appendingPathComponent("data.mdb"),
                to: directory.appendingPathComponent("data.mdb")
            )
            var configuration = HKHealthStore.Configuration()
            configuration.log.durability = .none
            var store = HKHealthStore(directory: directory, configuration: configuration)
            #expect(try store.eventLog().format == 1)
            #expect(try store.stateDigest() == Self.digest)
            #expect(try Self.exportLines(store.eventLog()) == expected)
            await store.close()

            let report = try EventLog.migrate(at: directory)
            #expect(report.fromFormat == 1 && report.entries == 255)

            store = HKHealthStore(directory: directory, configuration: configuration)
            let log = try store.eventLog()
            #expect(log.format == 2)
            #expect(try log.verify().isIntact)
            #expect(try await log.checkProjections() == nil)
            #expect(try store.stateDigest() == Self.digest)
            #expect(try Self.exportLines(log) == expected, "the same entries, digests, links and exchange bytes")
            await store.close()
        }
    }

    @Test("a format-1 store and a format-2 store replicate both ways and converge; both verify")
    func mixedFormatsReplicate() async throws {
        try await withTemporaryDirectories(2) { directories in
            var old = HKHealthStore.Configuration()
            old.log.durability = .none
            old.log.newStoreFormat = 1
            var new = HKHealthStore.Configuration()
            new.log.durability = .none
            let a = HKHealthStore(directory: directories[0], configuration: old)
            let b = HKHealthStore(directory: directories[1], configuration: new)
            func steps(_ count: Int, from start: Double) -> [HKQuantitySample] {
                (0..<count).map { index in
                    HKQuantitySample(
                        type: HKQuantityType(.stepCount),
                        quantity: HKQuantity(unit: .count(), doubleValue: Double(10 + index)),
                        start: Date(timeIntervalSince1970: start + Double(index) * 600),
                        end: Date(timeIntervalSince1970: start + Double(index) * 600 + 300)
                    )
                }
            }
            let first = steps(30, from: 1_717_200_000)
            try await a.save(first)
            try await b.save(steps(30, from: 1_717_300_000))
            _ = try await b.deleteObjects(withUUIDs: first[0..<3].map(\.uuid))  // not there yet: nothing
            let sync = { (into: HKHealthStore, from: HKHealthStore) in
                try await PeerReplicator(
                    log: try into.eventLog(),
                    peer: InMemoryTransport(serving: try from.eventLog())
                )
                .sync(.both)
            }
            _ = try await sync(a, b)
            _ = try await a.deleteObjects(withUUIDs: first[3..<6].map(\.uuid))
            _ = try await sync(b, a)
            #expect(try a.eventLog().format == 1 && b.eventLog().format == 2)
            let onA = try a.eventLog().entries(after: nil, limit: 1_000).entries
            #expect(Set(onA.map(\.version)) == [1, 2], "a format-1 store holds the format-2 peer's salted entries")
            #expect(try a.stateDigest() == b.stateDigest())
            for store in [a, b] {
                #expect(try store.eventLog().verify().isIntact)
                #expect(try await store.eventLog().checkProjections() == nil)
            }
            await a.close()
            await b.close()
        }
    }
}
