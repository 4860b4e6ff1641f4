import Foundation
import LMDB
import Testing

@testable import AnchorageLog

@Suite("Group commit")
struct GroupCommitTests {
    @Test("many tasks appending at once get dense seqs, nothing lost or duplicated, fewer commits than batches")
    func concurrentAppends() async throws {
        try await withTemporaryLog { log, _ in
            let tasks = 32
            let batchesPerTask = 20
            let results = try await withThrowingTaskGroup(of: [(UUID, Anchor)].self) { group in
                for task in 0..<tasks {
                    group.addTask {
                        var acknowledged: [(UUID, Anchor)] = []
                        for batch in 0..<batchesPerTask {
                            let events = (0...(task + batch) % 5).map { _ in
                                LogEvent.save(
                                    id: UUID(),
                                    kind: EntryKind(rawValue: UInt32(task)),
                                    payload: [UInt8(batch)]
                                )
                            }
                            let anchors = try await log.append(events)
                            #expect(anchors.count == events.count)
                            // A batch is contiguous: nothing interleaves with it.
                            #expect(zip(anchors, anchors.dropFirst()).allSatisfy { $0.seq + 1 == $1.seq })
                            acknowledged += zip(events.map(\.id), anchors)
                        }
                        return acknowledged
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let entries = try readAll(log)
            #expect(entries.map(\.seq) == Array(1...UInt64(results.count)))
            #expect(Set(entries.map(\.id)).count == results.count)
            let bySeq = Dictionary(uniqueKeysWithValues: entries.map { ($0.seq, $0.id) })
            #expect(results.allSatisfy { bySeq[$0.1.seq] == $0.0 })
            let statistics = log.statistics
            #expect(statistics.batches == tasks * batchesPerTask)
            #expect(statistics.entries == results.count)
            #expect(statistics.commits < statistics.batches, "\(statistics)")
            #expect(try log.verify().isIntact)
        }
    }

    @Test("a batch whose projection throws fails alone; the batches committed with it are stored")
    func failingBatchInGroup() async throws {
        let poison: EntryKind = 666
        let projections: ProjectionFactory = { _ in [RejectingProjection(kind: poison)] }
        try await withTemporaryLog(configuration: fastConfiguration, projections: projections) {
            log,
            _ in
            let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
                for task in 0..<40 {
                    group.addTask {
                        let kind: EntryKind = task % 4 == 0 ? poison : 1
                        let events = [
                            LogEvent.save(id: UUID(), kind: 1, payload: [1]),
                            .save(id: UUID(), kind: kind, payload: [2]),
                        ]
                        do {
                            try await log.append(events)
                            return (task, true)
                        } catch {
                            #expect(error is RejectingProjection.Rejected)
                            return (task, false)
                        }
                    }
                }
                return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(outcomes.count == 40)
            #expect(outcomes.allSatisfy { $0.value == ($0.key % 4 != 0) })
            let entries = try readAll(log)
            #expect(entries.count == 30 * 2)
            #expect(entries.map(\.seq) == Array(1...60))
            #expect(!entries.contains { $0.kind == poison })
            #expect(try log.verify().isIntact)
        }
    }
}

/// A projection that refuses entries of one kind.
struct RejectingProjection: Projection {
    struct Rejected: Error {}
    let kind: EntryKind
    var name: String { "rejecting" }
    var version: Int { 1 }
    var databases: [Database] { [] }

    func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        if entries.contains(where: { $0.kind == kind }) { throw Rejected() }
    }
}
