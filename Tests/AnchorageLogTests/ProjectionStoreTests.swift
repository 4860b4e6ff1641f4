import AnchorageTesting
import Foundation
import LMDB
import Synchronization
import Testing

@testable import AnchorageLog

/// The projections in their own file, committed without a sync after the
/// log's durable commit: where they live, how an open repairs them after a
/// process or a machine stopped, and what readers see meanwhile.
@Suite("Projections in their own file, behind a durable log")
struct ProjectionStoreTests {
    /// Opens `directory` with a ``KindIndex`` kept in `box`.
    static func open(_ directory: URL, _ box: ProjectionBox, idle: Duration? = .seconds(2)) throws -> EventLog {
        var configuration = fastConfiguration
        configuration.writerIdleTimeout = idle
        return try EventLog.open(at: directory, configuration: configuration, projections: box.factory)
    }

    static func appendBatches(_ log: EventLog, count: Int, seed: UInt64) async throws {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<count {
            try await log.append(
                (0..<Int.random(in: 1...8, using: &generator)).map { _ in LogEvent.random(using: &generator) }
            )
        }
    }

    /// The closed store's data file, opened directly.
    static func logFile(_ directory: URL) throws -> Environment {
        var options = Environment.Configuration()
        options.maxDatabases = 64
        return try Environment(path: directory.path, configuration: options)
    }

    static func state(_ directory: URL) throws -> ProjectionStore.State? {
        try ProjectionStore.recordedState(of: logFile(directory))
    }

    /// The projections' state the open `log` records.
    static func state(of log: EventLog) throws -> ProjectionStore.State? {
        try log.read { txn in
            try txn.value(forKey: ProjectionStore.stateKey, in: log.databases.meta).flatMap(ProjectionStore.State.init)
        }
    }

    /// A closed store in `directory`: `count` batches written and synced.
    static func closedStore(_ directory: URL, _ box: ProjectionBox, batches count: Int, seed: UInt64) async throws {
        let log = try open(directory, box)
        try await appendBatches(log, count: count, seed: seed)
        await log.close()
    }

    static func setState(_ state: ProjectionStore.State, _ directory: URL) throws {
        let environment = try logFile(directory)
        let meta = try environment.openDatabase(named: "meta", options: [])
        try environment.write { txn in try txn.put(state.bytes, forKey: ProjectionStore.stateKey, in: meta) }
    }

    static func names(_ directory: URL) throws -> [String] {
        try logFile(directory).write { txn in try txn.databaseNames() }
    }

    /// What a rebuild from the log gives, and the index as it is.
    static func dumps(_ log: EventLog, _ box: ProjectionBox) async throws -> (rebuilt: [[UInt8]], kept: [[UInt8]]) {
        let kept = try KindIndex.dump(log, box.index!)
        try await log.rebuildProjections()
        return (try KindIndex.dump(log, box.index!), kept)
    }

    @Test("the projections live in projections.mdb: data.mdb holds only the log's databases, and the two agree")
    func ownFile() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            let log = try Self.open(directory, box)
            try await Self.appendBatches(log, count: 20, seed: 3)
            #expect(try log.read { txn in try log.projectedSeq(in: txn) } == log.head.seq)
            #expect(try await log.checkProjections() == nil)
            await log.close()
            #expect(FileManager.default.fileExists(atPath: directory.path + "/projections.mdb"))
            #expect(Set(try Self.names(directory)).isSubset(of: Set(LogDatabases.names)))
            #expect(!(try Self.names(directory)).contains("test.byKind"))
        }
    }

    @Test(
        "a process that ended before its projections caught up (same boot): the next open applies the log's later entries, and the index equals a rebuild"
    )
    func sameBootCatchUp() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            var log = try Self.open(directory, box)
            try await Self.appendBatches(log, count: 10, seed: 5)
            let early = log.head.seq
            await log.close()
            let saved = directory.appendingPathComponent("projections.saved")
            try FileManager.default.copyItem(at: directory.appendingPathComponent("projections.mdb"), to: saved)
            log = try Self.open(directory, box)
            try await Self.appendBatches(log, count: 10, seed: 6)
            let head = log.head.seq
            #expect(head > early)
            await log.close()
            // The projections as they were at `early`, recorded unsynced this boot.
            try FileManager.default.removeItem(at: directory.appendingPathComponent("projections.mdb"))
            try FileManager.default.moveItem(at: saved, to: directory.appendingPathComponent("projections.mdb"))
            try Self.setState(.dirty(boot: ProjectionStore.bootID), directory)

            log = try Self.open(directory, box)
            #expect(try log.read { txn in try log.projectedSeq(in: txn) } == head)
            #expect(try await log.checkProjections() == nil)
            let (rebuilt, kept) = try await Self.dumps(log, box)
            #expect(kept == rebuilt)
            #expect(kept.count > Int(head))
            await log.close()
        }
    }

    @Test(
        "after a machine stopped with unsynced projections (another boot), their file is discarded and rebuilt; a reader refuses the store until then"
    )
    func otherBootRebuilds() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            var log = try Self.open(directory, box)
            try await Self.appendBatches(log, count: 12, seed: 9)
            let expected = try KindIndex.dump(log, box.index!)
            await log.close()
            // Damage the file as a lost page cache might, and record it unsynced by another boot.
            let file = try FileHandle(forWritingTo: directory.appendingPathComponent("projections.mdb"))
            try file.write(contentsOf: [UInt8](repeating: 0xA5, count: 16_384))
            try file.close()
            try Self.setState(.dirty(boot: [UInt8](repeating: 7, count: 16)), directory)

            #expect {
                try EventLog.openForReading(at: directory)
            } throws: { error in
                (error as? LogError)?.code == .needsWriter
            }
            log = try Self.open(directory, box)
            #expect(try KindIndex.dump(log, box.index!) == expected)
            #expect(try await log.checkProjections() == nil)
            await log.close()
            #expect(try Self.state(directory) == .clean)

            // A damaged state record is not trusted: the projections are rebuilt.
            let environment = try Self.logFile(directory)
            let meta = try environment.openDatabase(named: "meta", options: [])
            try environment.write { txn in try txn.put([9], forKey: ProjectionStore.stateKey, in: meta) }
            #expect(ProjectionStore.mustDiscard(try ProjectionStore.recordedState(of: environment)))
        }
    }

    @Test("the writer records the projections unsynced while it writes, synced once idle and at close")
    func settlesWhenIdle() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            let log = try Self.open(directory, box, idle: .milliseconds(100))
            try await Self.appendBatches(log, count: 3, seed: 1)
            let state = { try Self.state(of: log) }
            let first = try state()
            if log.counters.projectionSettles == 0 { #expect(first == .dirty(boot: ProjectionStore.bootID)) }
            try await waitUntil("the idle writer syncs the projections") { (try? state()) == .clean }
            try await waitUntil("the settle is counted") { log.counters.projectionSettles > 0 }
            let settled = log.counters.projectionSettles
            try await Self.appendBatches(log, count: 1, seed: 2)
            let after = try state()
            // Unless the writer went idle again meanwhile (a slow machine), the write left them unsynced.
            if log.counters.projectionSettles == settled {
                #expect(after == .dirty(boot: ProjectionStore.bootID), "the next write records them unsynced first")
            }
            await log.close()
            #expect(try Self.state(directory) == .clean)
        }
    }

    @Test("a store written by an earlier version, its projections in data.mdb, moves them to their own file at open")
    func movesOutOfDataFile() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            var log = try Self.open(directory, box)
            try await Self.appendBatches(log, count: 8, seed: 4)
            let expected = try KindIndex.dump(log, box.index!)
            await log.close()
            // The earlier layout: the index's databases and their version in data.mdb, no projections file.
            try FileManager.default.removeItem(at: directory.appendingPathComponent("projections.mdb"))
            try FileManager.default.removeItem(at: directory.appendingPathComponent("projections.mdb-lock"))
            do {
                let environment = try Self.logFile(directory)
                try environment.write { txn in
                    let meta = try #require(try txn.openDatabase(named: "meta", options: []))
                    try txn.removeValue(forKey: ProjectionStore.stateKey, in: meta)
                    try txn.put([0, 0, 0, 1], forKey: MetaKey.projection("kind-index"), in: meta)
                    let old = try #require(try txn.openDatabase(named: "test.byKind"))
                    try txn.put([1], forKey: [1], in: old)
                }
            }
            #expect(try Self.names(directory).contains("test.byKind"))

            log = try Self.open(directory, box)
            #expect(try KindIndex.dump(log, box.index!) == expected)
            await log.close()
            #expect(!(try Self.names(directory)).contains("test.byKind"))
            #expect(Set(try Self.names(directory)).isSubset(of: Set(LogDatabases.names)))
        }
    }

    @Test("while a writer appends, every read sees the index exactly at the position it reports, never past the log")
    func readersSeeConsistentPairs() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            let log = try Self.open(directory, box)
            let done = DoneFlag()
            let writer = Task {
                defer { done.value.withLock { $0 = true } }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for caller in 0..<8 {
                        group.addTask { try await Self.appendBatches(log, count: 40, seed: UInt64(caller)) }
                    }
                    try await group.waitForAll()
                }
            }
            var positions = Set<UInt64>()
            while !done.value.withLock({ $0 }) {
                let (projected, last, rows) = try log.read { txn in
                    (
                        try log.projectedSeq(in: txn),
                        try log.lastSeq(in: txn),
                        try txn.statistics(of: box.index!.byKind).entries
                    )
                }
                #expect(projected <= last)
                #expect(rows == Int(projected), "one index row per entry applied")
                positions.insert(projected)
                await Task.yield()
            }
            try await writer.value
            #expect(positions.count > 1, "the reads saw the index at several positions")
            await log.close()
        }
    }
}

/// Set once the writers of a test are done.
final class DoneFlag: Sendable {
    let value = Mutex(false)
}
