import AnchorageTestRun
import AnchorageTesting
import Foundation
import LMDB
import Synchronization
import Testing

@testable import AnchorageLog

#if canImport(Glibc)
import Glibc
#endif

/// Logs opened for reading (`EventLog.openForReading`) beside a writer in
/// another process: Tests/LogCrashWriter, which appends until it is killed.
@Suite("Reading beside a writer", .startsProcesses())
struct ReadingTests {
    @Test(
        "a log opened for reading follows another process's appends, batch by batch, across map growth, and refuses to write"
    )
    func followsAnotherProcess() async throws {
        try await withTemporaryDirectory { directory in
            // A 256 KiB map: the writer grows it several times while the reader follows.
            let child = try AppendingChild(directory: directory, initialMapSize: 256 << 10)
            defer { child.kill() }
            try await child.waitForAcks(10)
            let reader = try EventLog.openForReading(at: directory)
            #expect(reader.isReadOnly)

            // The writer holds the store; a second writer is told who.
            #expect {
                _ = try EventLog.open(at: directory)
            } throws: { error in
                let error = error as? LogError
                return error?.code == .storeInUse
                    && error?.message.contains("in use by process \(child.pid) (LogCrashWriter)") == true
            }

            // Batches as the writer commits them: contiguous, growing.
            let batches = reader.committedBatches()
            let start = reader.head.seq
            var covered = start
            for await batch in batches {
                #expect(batch.first.seq <= covered + 1 && batch.last.seq > covered, "\(batch) after \(covered)")
                covered = batch.last.seq
                if covered >= start + 5_000 { break }
            }
            #expect(reader.head.seq >= covered)
            #expect(try reader.store().environment.mapSize > 256 << 10, "the reader adopted the grown map")

            // A consistent snapshot: dense, and its chain verifies while the writer appends.
            let entries = try readAll(reader, limit: 500)
            #expect(entries.map(\.seq) == (0..<entries.count).map { UInt64($0 + 1) })
            #expect(try reader.verify().isIntact)

            await #expect {
                try await reader.append([.save(id: UUID(), kind: 1, payload: [1])])
            } throws: { error in
                (error as? LogError)?.code == .readOnly
            }

            let acks = try await child.killAndCollectAcks()
            let final = try readAll(reader, limit: 4_096)
            // A reader's head moves when its poll finds the writer's last
            // commit, which may come after the read above: wait for it,
            // then it must be exactly the last entry, never past it.
            try await waitUntil("the reader's head reaches entry \(final.count)") {
                reader.head.seq >= UInt64(final.count)
            }
            #expect(reader.head.seq == UInt64(final.count))
            for (seq, id) in acks {
                #expect(seq <= UInt64(final.count) && final[Int(seq) - 1].id == id, "acknowledged entry \(seq)")
            }
            await reader.close()
        }
    }

    @Test("opening for reading creates nothing, and refuses what only a writer can settle")
    func refusals() async throws {
        try await withTemporaryDirectory { directory in
            let missing = directory.appendingPathComponent("missing")
            #expect { _ = try EventLog.openForReading(at: missing) } throws: { ($0 as? LogError)?.code == .noStore }
            #expect(!FileManager.default.fileExists(atPath: missing.path))
            // A data file without databases, as while a first open has not committed.
            let empty = directory.appendingPathComponent("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            do { _ = try Environment(path: empty.path) }
            #expect { _ = try EventLog.openForReading(at: empty) } throws: { ($0 as? LogError)?.code == .noStore }

            // A backup copy starts a new incarnation when first opened for writing.
            let original = directory.appendingPathComponent("original")
            let log = try EventLog.open(at: original, configuration: fastConfiguration)
            try await log.append([.save(id: UUID(), kind: 1, payload: [1])])
            let copy = directory.appendingPathComponent("copy")
            try log.backup(to: copy)
            await log.close()
            #expect { _ = try EventLog.openForReading(at: copy) } throws: { ($0 as? LogError)?.code == .needsWriter }
            let restored = try EventLog.open(at: copy, configuration: fastConfiguration)
            await restored.close()
            let reader = try EventLog.openForReading(at: copy)
            #expect(reader.head.seq == 1)
            await reader.close()

            // Projections of another version are rebuilt by a writer only.
            let box = ProjectionBox()
            let indexed = try EventLog.open(at: original, configuration: fastConfiguration) { txn in
                [try KindIndex(in: txn)]
            }
            await indexed.close()
            #expect {
                _ = try EventLog.openForReading(at: original) { txn in [try KindIndex(in: txn, version: 2)] }
            } throws: { ($0 as? LogError)?.code == .needsWriter }
            let reading = try EventLog.openForReading(at: original) { txn in
                let index = try KindIndex(in: txn)
                box.index = index
                return [index]
            }
            #expect(try KindIndex.dump(reading, box.index!).count == 4)
            #expect(try await reading.checkProjections() == nil)
            await reading.close()
        }
    }

    @Test("a log opened for reading checks its projections in a copy, and finds a damaged one")
    func checksProjectionsInACopy() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            let log = try EventLog.open(at: directory, configuration: fastConfiguration) { txn in
                let index = try KindIndex(in: txn)
                box.index = index
                return [index]
            }
            try await log.append((0..<30).map { _ in .save(id: UUID(), kind: 3, payload: [7]) })
            try log.store().environment.write { txn in try txn.removeAll(in: box.index!.byID) }
            await log.close()

            let scratch = directory.appendingPathComponent("scratch")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            var configuration = EventLog.Configuration()
            configuration.scratchDirectory = scratch
            let reader = try EventLog.openForReading(at: directory, configuration: configuration) { txn in
                [try KindIndex(in: txn)]
            }
            let disagreement = try await reader.checkProjections()
            #expect(disagreement?.projection == "kind-index" && disagreement?.database == "test.byID")
            await reader.close()
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty, "the copy is removed")
        }
    }
}

/// Tests/LogCrashWriter appending to a store in a child process, its
/// output read as it comes (and kept in a file).
final class AppendingChild: Sendable {
    private let child: ChildProcess
    private let output: ChildOutput
    private let log = temporaryPath(prefix: "anchorage-appending").appendingPathExtension("log")

    var pid: Int32 { child.pid }

    init(directory: URL, initialMapSize: Int) throws {
        output = try ChildOutput(log: log)
        child = try ChildProcess.spawn(
            try crashWriterExecutable().path,
            [directory.path, "1", "\(initialMapSize)"],
            watched: output
        )
    }

    deinit {
        kill()
        _ = child.wait(timeout: 10)
        try? FileManager.default.removeItem(at: log)
    }

    /// Waits, on the child's output pipe, until it acknowledged `count`
    /// entries.
    func waitForAcks(_ count: Int) async throws {
        try await output.wait(for: "\(count) acknowledged entries") { text in
            ((try? Self.acks(in: text)) ?? [:]).count >= count
        }
    }

    /// Kills the child and returns every entry it acknowledged, by seq.
    func killAndCollectAcks() async throws -> [UInt64: UUID] {
        kill()
        guard await child.exit(within: 60) != nil else { throw ChildTimedOut() }
        return try Self.acks(in: try await output.end())
    }

    func kill() {
        child.signal(SIGKILL)
    }

    /// Complete `ack <anchor> <operation> <uuid>` lines.
    private static func acks(in text: String) throws -> [UInt64: UUID] {
        var acks: [UInt64: UUID] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("ack ") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let id = UUID(uuidString: String(fields[3])) else { continue }
            acks[try Anchor(parsing: String(fields[1])).seq] = id
        }
        return acks
    }
}

struct ChildTimedOut: Error {}

extension ReadingTests {
    @Test(
        "compaction, which replaces the data file, is refused while another process reads the store; the reader reads on"
    )
    func compactionWaitsForReaders() async throws {
        try await withTemporaryDirectory { directory in
            let writer = try EventLog.open(at: directory)
            try await writer.append([.save(id: UUID(), kind: 1, payload: [1, 2, 3])])
            await writer.close()
            let reader = try EventLog.openForReading(at: directory)
            #expect(throws: LogError.self) { try EventLog.compact(at: directory) }
            do {
                try EventLog.compact(at: directory)
            } catch let error as LogError {
                #expect(error.code == .storeInUse && error.message.contains("read by another process"), "\(error)")
            }
            #expect(try reader.entries(after: nil, limit: 10).entries.count == 1)
            await reader.close()
            // Once nobody reads, it runs, and the store reads as before.
            try EventLog.compact(at: directory)
            let again = try EventLog.openForReading(at: directory)
            #expect(try again.entries(after: nil, limit: 10).entries.count == 1)
            await again.close()
        }
    }
}
