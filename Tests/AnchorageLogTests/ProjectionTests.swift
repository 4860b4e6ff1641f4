import AnchorageTesting
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// A small index: kind ‖ seq → id, and id → last operation. Enough state to
/// compare incremental maintenance against a rebuild byte for byte.
struct KindIndex: Projection {
    let byKind: Database
    let byID: Database
    var version: Int = 1

    init(in txn: borrowing DatabaseOpener, version: Int = 1) throws {
        byKind = try txn.database(named: "test.byKind")!
        byID = try txn.database(named: "test.byID")!
        self.version = version
    }

    var name: String { "kind-index" }
    var databases: [Database] { [byKind, byID] }

    func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        for entry in entries {
            try txn.put(
                entry.id.bytes,
                forKey: entry.kind.rawValue.bigEndianBytes + entry.seq.bigEndianBytes,
                in: byKind
            )
            try txn.put([entry.operation.rawValue], forKey: entry.id.bytes, in: byID)
        }
    }

    /// Every key and value of both databases, in order.
    static func dump(_ log: EventLog, _ index: KindIndex) throws -> [[UInt8]] {
        try log.read { txn in
            var rows: [[UInt8]] = []
            for database in index.databases {
                try txn.withCursor(on: database) { cursor in
                    try cursor.scan { key, value in
                        rows.append(Array(key) + [0xFF] + Array(value))
                        return true
                    }
                }
                rows.append([])
            }
            return rows
        }
    }
}

/// Collects the projections a factory made, so tests can reach them.
final class ProjectionBox: @unchecked Sendable {
    var index: KindIndex?

    /// A factory that opens a ``KindIndex`` and keeps it here.
    var factory: ProjectionFactory {
        { txn in
            let index = try KindIndex(in: txn)
            self.index = index
            return [index]
        }
    }
}

@Suite("Projections")
struct ProjectionTests {
    @Test("incrementally maintained projection equals a rebuild from the log, byte for byte")
    func rebuildMatchesIncremental() async throws {
        let box = ProjectionBox()
        try await withTemporaryLog(configuration: fastConfiguration, projections: box.factory) { log, _ in
            var generator = SeededGenerator(seed: 8)
            for _ in 0..<30 {
                try await log.append(
                    (0..<Int.random(in: 1...10, using: &generator)).map { _ in
                        LogEvent.random(using: &generator)
                    }
                )
            }
            let incremental = try KindIndex.dump(log, box.index!)
            #expect(incremental.count > 100)
            let replayed = try await log.rebuildProjections()
            #expect(UInt64(replayed) == log.head.seq)
            #expect(try KindIndex.dump(log, box.index!) == incremental)
        }
    }

    @Test("a changed projection version rebuilds the projection on open")
    func versionChangeRebuilds() async throws {
        try await withTemporaryDirectory { directory in
            let box = ProjectionBox()
            // First without the projection: it must be built from the existing log.
            let plain = try EventLog.open(at: directory, configuration: fastConfiguration)
            try await plain.append((0..<20).map { _ in .save(id: UUID(), kind: 2, payload: [1]) })
            await plain.close()

            let indexed = try EventLog.open(at: directory, configuration: fastConfiguration) { txn in
                let index = try KindIndex(in: txn)
                box.index = index
                return [index]
            }
            let built = try KindIndex.dump(indexed, box.index!)
            // 20 rows by kind, a separator, 20 rows by id, a separator.
            #expect(built.count == 42)
            // Damage the projection behind the log's back, then reopen with a new version.
            try indexed.store().environment.write { txn in try txn.removeAll(in: box.index!.byKind) }
            await indexed.close()
            let upgraded = try EventLog.open(at: directory, configuration: fastConfiguration) { txn in
                let index = try KindIndex(in: txn, version: 2)
                box.index = index
                return [index]
            }
            #expect(try KindIndex.dump(upgraded, box.index!) == built)
            await upgraded.close()
        }
    }

    @Test("a projection that throws aborts the whole batch: no entry, no projection change")
    func throwingProjectionAbortsBatch() async throws {
        let box = ProjectionBox()
        let projections: ProjectionFactory = { txn in
            let index = try KindIndex(in: txn)
            box.index = index
            return [index, RejectingProjection(kind: 7)]
        }
        try await withTemporaryLog(configuration: fastConfiguration, projections: projections) { log, _ in
            try await log.append([.save(id: UUID(), kind: 1, payload: [1])])
            let before = try KindIndex.dump(log, box.index!)
            await #expect(throws: RejectingProjection.Rejected.self) {
                try await log.append([
                    .save(id: UUID(), kind: 1, payload: [2]), .save(id: UUID(), kind: 7, payload: [3]),
                ])
            }
            #expect(try KindIndex.dump(log, box.index!) == before)
            #expect(log.head.seq == 1)
            let after = try await log.append([.delete(id: UUID(), kind: 1)])
            #expect(after.map(\.seq) == [2])
            #expect(try log.verify().isIntact)
        }
    }
}
