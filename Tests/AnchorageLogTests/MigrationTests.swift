import AnchorageTestRun
import AnchorageTesting
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

#if canImport(Glibc)
import Glibc
#endif

/// Log format 2 and `EventLog.migrate`: a format-1 store keeps every entry,
/// digest and link, at every moment a crash may stop the migration.
@Suite("Log format 2: migration from format 1", .ownThread, .startsProcesses())
struct MigrationTests {
    /// A configuration that creates format-1 stores, as earlier versions did.
    static var format1: EventLog.Configuration {
        var configuration = fastConfiguration
        configuration.newStoreFormat = 1
        return configuration
    }

    /// Fills a format-1 store at `directory` with a generated history: its
    /// own saves and deletes in batches, version-1 entries of a second
    /// format-1 origin and version-2 entries of a format-2 origin (applied
    /// as replication does), and purged saves. Returns its entries.
    static func makeFormat1Store(at directory: URL, batches: Int, seed: UInt64) async throws -> [LogEntry] {
        var generator = SeededGenerator(seed: seed)
        let log = try EventLog.open(at: directory, configuration: format1)
        try await withTemporaryDirectory { peers in
            let old = try EventLog.open(at: peers.appendingPathComponent("old"), configuration: format1)
            let new = try EventLog.open(at: peers.appendingPathComponent("new"), configuration: fastConfiguration)
            for batch in 0..<batches {
                let events = (0..<Int.random(in: 1...30, using: &generator)).map { _ in
                    LogEvent.random(using: &generator)
                }
                switch batch % 5 {
                case 3:
                    let before = old.head
                    try await old.append(events)
                    try await log.apply(try old.entries(after: before, limit: 1_000).entries)
                case 4:
                    let before = new.head
                    try await new.append(events)
                    try await log.apply(try new.entries(after: before, limit: 1_000).entries)
                default:
                    try await log.append(events)
                }
            }
            await old.close()
            await new.close()
        }
        let saves = try readAll(log).filter { $0.operation == .save && $0.payload != nil }.map(\.seq)
        _ = try await log.purgePayloads(at: saves.enumerated().filter { $0.offset % 9 == 0 }.map(\.element))
        let entries = try readAll(log)
        #expect(log.format == 1)
        await log.close()
        return entries
    }

    @Test("a format-1 store migrates: every entry, digest and link the same, it verifies, and new entries are salted")
    func migrateKeepsEverything() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            let before = try await Self.makeFormat1Store(at: store, batches: 40, seed: 0x0F02)
            #expect(before.contains { $0.version == 2 } && before.contains { $0.isPurged })
            #expect(before.allSatisfy { $0.link != nil }, "format 1 stores every link")

            let report = try EventLog.migrate(at: store, configuration: fastConfiguration)
            #expect(report.fromFormat == 1 && report.toFormat == 2 && report.entries == before.count)
            #expect(report.bytesAfter < report.bytesBefore, "\(report)")

            let log = try EventLog.open(at: store, configuration: fastConfiguration)
            #expect(log.format == 2)
            let after = try readAll(log)
            #expect(after == before)
            var link = EntryDigest.zero
            for (old, new) in zip(before, after) {
                link = new.link(after: link)
                #expect(link == old.link, "entry \(new.seq)")
                if let stored = new.link { #expect(stored == link) }
            }
            let linked = after.filter { $0.link != nil }.map(\.seq)
            #expect(linked == after.map(\.seq).filter { $0 % 64 == 0 || $0 == UInt64(after.count) })
            for seq in [0, 1, 63, 64, 65, UInt64(after.count)] {
                let found = try log.link(at: seq)
                #expect(found == (seq == 0 ? .zero : before[Int(seq) - 1].link), "link(at: \(seq))")
            }
            #expect(try log.verify().isIntact)
            try await log.append([.save(id: UUID(), kind: 1, payload: [7, 7, 7])])
            let appended = try readAll(log).last!
            #expect(appended.version == 2 && appended.salt != nil)
            #expect(try log.verify().isIntact)
            await log.close()

            let again = try EventLog.migrate(at: store, configuration: fastConfiguration)
            #expect(again.fromFormat == 2 && again.entries == 0, "a format-2 store is left as it is")
        }
    }

    @Test("a store that does not verify is not migrated, and not changed")
    func damagedStoreIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            let entries = try await Self.makeFormat1Store(at: store, batches: 6, seed: 0x0F03)
            let target = try #require(entries.first { $0.payload.map { $0.count > 0 } ?? false })
            do {
                let environment = try Environment(path: store.path)
                try environment.write { txn in
                    let log = try #require(try txn.openDatabase(named: "log"))
                    var bytes = try #require(
                        try txn.withValue(forKey: target.seq.bigEndianBytes, in: log) { Array($0) }
                    )
                    bytes[bytes.count - 1] ^= 0x01
                    try txn.put(bytes, forKey: target.seq.bigEndianBytes, in: log)
                }
            }
            let file = store.appendingPathComponent("data.mdb")
            let damaged = try Data(contentsOf: file)
            #expect {
                try EventLog.migrate(at: store, configuration: fastConfiguration)
            } throws: { error in
                let error = error as? LogError
                return error?.code == .malformedEntry && error?.seq == target.seq
                    && error?.message.contains("not migrated") == true
            }
            #expect(try Data(contentsOf: file) == damaged, "nothing was written")
        }
    }

    @Test("an open store is not migrated")
    func openStoreIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory.appendingPathComponent("store")
            _ = try await Self.makeFormat1Store(at: store, batches: 2, seed: 0x0F04)
            let log = try EventLog.open(at: store, configuration: fastConfiguration)
            #expect(throws: LogError.self) { try EventLog.migrate(at: store, configuration: fastConfiguration) }
            #expect(log.format == 1)
            await log.close()
        }
    }

    @Test(
        "SIGKILL at any moment of a migration leaves the store in format 1 or 2 with the same entries, verifying",
        .timeLimit(.minutes(10))
    )
    func killedMigration() async throws {
        let child = try crashWriterExecutable()
        var generator = SeededGenerator(seed: 0x0F05)
        try await withTemporaryDirectory { directory in
            let original = directory.appendingPathComponent("original")
            let before = try await Self.makeFormat1Store(at: original, batches: 1_500, seed: 0x0F05)
            // How long one whole migration takes here, to spread the kills over it.
            let timing = directory.appendingPathComponent("timing")
            try FileManager.default.copyItem(at: original, to: timing)
            let clock = ContinuousClock()
            // In this process, plus what starting the child takes.
            let whole =
                try clock.measure {
                    _ = try EventLog.migrate(at: timing, configuration: EventLog.Configuration())
                } + .milliseconds(30)
            var formats: [UInt32: Int] = [:]
            for round in 0..<12 {
                let copy = directory.appendingPathComponent("round-\(round)")
                try FileManager.default.copyItem(at: original, to: copy)
                let fraction = Double.random(in: 0...1.2, using: &generator)
                _ = try await CrashTests().runAndKill(
                    child,
                    arguments: ["migrate", copy.path],
                    seed: 0,
                    after: .nanoseconds(Int64(Double(whole.nanosecondCount) * fraction))
                )
                let log = try EventLog.open(at: copy, configuration: fastConfiguration)
                formats[log.format, default: 0] += 1
                #expect(try readAll(log) == before, "round \(round)")
                let report = try log.verify()
                #expect(report.isIntact, "round \(round): \(String(describing: report.problem))")
                await log.close()
                // A later migration finishes the job.
                _ = try EventLog.migrate(at: copy, configuration: fastConfiguration)
                let migrated = try EventLog.open(at: copy, configuration: fastConfiguration)
                let entries = try readAll(migrated)
                let intact = try migrated.verify().isIntact
                #expect(migrated.format == 2 && entries == before && intact, "round \(round)")
                await migrated.close()
                try FileManager.default.removeItem(at: copy)
            }
            #expect(formats.values.reduce(0, +) == 12)
        }
    }
}
