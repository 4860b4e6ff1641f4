import AnchorageTesting
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// An open with nothing to write commits nothing: a store opened to be
/// read costs no sync to disk, at open or at close (issue 51: cold reads).
@Suite("Opening a store that needs no change")
struct OpenUnchangedTests {
    /// The bytes of the store's two files.
    static func files(_ directory: URL) throws -> [Data] {
        try ["data.mdb", ProjectionStore.fileName].map {
            try Data(contentsOf: directory.appendingPathComponent($0))
        }
    }

    @Test("a synced store opened and read: no commit, no writer thread, its files unchanged, byte for byte")
    func readOnlyOpen() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            var log = try ProjectionStoreTests.open(directory, box)
            try await ProjectionStoreTests.appendBatches(log, count: 5, seed: 7)
            let written = try readAll(log).count
            await log.close()
            #expect(try ProjectionStoreTests.state(directory) == .clean)
            let before = try Self.files(directory)

            log = try ProjectionStoreTests.open(directory, box)
            #expect(log.writerThreadState?.started == 0, "nothing to write: no thread")
            #expect(try readAll(log).count == written)
            #expect(try ProjectionStoreTests.state(of: log) == .clean)
            await log.close()
            #expect(try Self.files(directory) == before, "neither file was written")
        }
    }

    @Test("the first write after such an open starts the writer and records the projections unsynced; close syncs")
    func firstWriteAfterOpen() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            try await ProjectionStoreTests.closedStore(directory, box, batches: 3, seed: 8)

            // No idle time: the thread the first write starts runs until close, however slow the machine.
            let log = try ProjectionStoreTests.open(directory, box, idle: nil)
            #expect(log.writerThreadState?.started == 0)
            try await ProjectionStoreTests.appendBatches(log, count: 2, seed: 9)
            #expect(log.writerThreadState?.started == 1)
            #expect(
                try ProjectionStoreTests.state(of: log) == .dirty(boot: ProjectionStore.bootID),
                "as the first commit left them"
            )
            let (rebuilt, kept) = try await ProjectionStoreTests.dumps(log, box)
            #expect(kept == rebuilt, "the projections equal a replay of the log")
            await log.close()
            #expect(try ProjectionStoreTests.state(directory) == .clean)
        }
    }

    @Test("projections left unsynced in this boot: the open writes nothing and the writer syncs them")
    func dirtyThisBoot() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            try await ProjectionStoreTests.closedStore(directory, box, batches: 3, seed: 10)
            try ProjectionStoreTests.setState(.dirty(boot: ProjectionStore.bootID), directory)

            let log = try ProjectionStoreTests.open(directory, box, idle: .milliseconds(50))
            #expect(log.writerThreadState?.started == 1, "a thread to sync them once idle")
            try await waitUntil("the idle writer syncs the projections") {
                (try? ProjectionStoreTests.state(of: log)) == .clean
            }
            await log.close()
        }
    }

    @Test("an open that must write still does: a projection left out is forgotten, then rebuilt when it returns")
    func writesWhenNeeded() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            try await ProjectionStoreTests.closedStore(directory, box, batches: 4, seed: 11)

            // Without the index: the open forgets it (a write).
            var log = try EventLog.open(at: directory, configuration: fastConfiguration) { _ in [] }
            try await ProjectionStoreTests.appendBatches(log, count: 2, seed: 12)
            await log.close()

            // With it again: rebuilt from the whole log, entries written meanwhile included.
            log = try ProjectionStoreTests.open(directory, box)
            let (rebuilt, kept) = try await ProjectionStoreTests.dumps(log, box)
            #expect(kept == rebuilt)
            await log.close()
        }
    }
}
