import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("Applying replicated entries")
struct ApplyTests {
    @Test("entries applied from another log keep their dots; re-applying covered dots changes nothing")
    func reapplyIsNoOp() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { source, _ in
            try await withTemporaryLog(configuration: fastConfiguration) { replica, _ in
                var generator = SeededGenerator(seed: 21)
                for _ in 0..<10 {
                    try await source.append(
                        (0..<Int.random(in: 1...8, using: &generator)).map { _ in
                            LogEvent.random(using: &generator)
                        }
                    )
                }
                try await replica.append([.save(id: UUID(), kind: 9, payload: [9])])
                let entries = try readAll(source)
                let first = try await replica.apply(entries, checkpoint: source.head)
                #expect(first.applied == entries.count && first.skipped == 0)
                let applied = try readAll(replica).dropFirst()
                #expect(applied.map(\.dot) == entries.map(\.dot))
                #expect(applied.map(\.event) == entries.map(\.event))
                #expect(applied.map(\.timestamp) == entries.map(\.timestamp))
                #expect(applied.map(\.seq) == Array(2...UInt64(entries.count + 1)))
                #expect(try replica.checkpoint(for: source.storeID) == source.head)

                let snapshot = try readAll(replica)
                let vector = try replica.versionVector()
                // Again, in pieces, shuffled within what is already covered, and with the replica's own entries.
                for chunk in stride(from: 0, to: entries.count, by: 7) {
                    let again = try await replica.apply(Array(entries[chunk..<min(chunk + 7, entries.count)]))
                    #expect(again.applied == 0)
                }
                let again = try await replica.apply(snapshot.shuffled(using: &generator))
                #expect(again.applied == 0 && again.skipped == snapshot.count)
                #expect(try readAll(replica) == snapshot)
                #expect(try replica.versionVector() == vector)
                #expect(try replica.verify().isIntact)
                #expect(vector == [source.originID: UInt64(entries.count), replica.originID: 1])
            }
        }
    }

    @Test("an entry that skips counters of its origin fails the whole batch with originGap")
    func gap() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { source, _ in
            try await withTemporaryLog(configuration: fastConfiguration) { replica, _ in
                try await source.append((0..<5).map { _ in .save(id: UUID(), kind: 1, payload: [1]) })
                let entries = try readAll(source)
                await #expect {
                    try await replica.apply([entries[0], entries[1], entries[3]], checkpoint: source.head)
                } throws: { error in
                    (error as? LogError)?.code == .originGap
                }
                #expect(try readAll(replica).isEmpty)
                #expect(try replica.checkpoint(for: source.storeID) == nil)
                #expect(try replica.versionVector().isEmpty)
                let result = try await replica.apply(entries)
                #expect(result.applied == 5)
            }
        }
    }

    @Test("a payload that does not match its digest is refused before anything is applied")
    func damagedPayload() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { source, _ in
            try await withTemporaryLog(configuration: fastConfiguration) { replica, _ in
                try await source.append([.save(id: UUID(), kind: 1, payload: [1, 2, 3])])
                var bytes = try readAll(source)[0].encoded()
                bytes[bytes.count - 1] ^= 1
                let damaged = try LogEntry(seq: 1, encoded: bytes)
                await #expect {
                    try await replica.apply([damaged])
                } throws: { error in
                    (error as? LogError)?.code == .invalidEvent
                }
                #expect(try readAll(replica).isEmpty)
            }
        }
    }

    @Test(
        "in a batch large enough to be hashed on several cores, one damaged payload deep in it refuses the whole batch; undamaged, the same batch applies"
    )
    func damagedPayloadInALargeBatch() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { source, _ in
            try await withTemporaryLog(configuration: fastConfiguration) { replica, _ in
                try await source.append((0..<1_000).map { .save(id: UUID(), kind: 1, payload: [UInt8($0 % 251), 7]) })
                let entries = try readAll(source, limit: 2_000)
                var bytes = entries[700].encoded()
                bytes[bytes.count - 1] ^= 1
                var damaged = entries
                damaged[700] = try LogEntry(seq: 701, encoded: bytes)
                await #expect {
                    try await replica.apply(damaged)
                } throws: { error in
                    (error as? LogError)?.code == .invalidEvent && (error as? LogError)?.seq == 701
                }
                #expect(try readAll(replica).isEmpty)
                #expect(try await replica.apply(entries).applied == 1_000)
                #expect(try readAll(replica, limit: 2_000).map(\.payloadDigest) == entries.map(\.payloadDigest))
                #expect(try replica.verify().isIntact)
            }
        }
    }

    @Test("the checkpoint is stored with the batch it describes, and only with it")
    func checkpointWithBatch() async throws {
        let projections: ProjectionFactory = { _ in [RejectingProjection(kind: 13)] }
        try await withTemporaryLog(configuration: fastConfiguration, projections: projections) {
            replica,
            _ in
            try await withTemporaryLog(configuration: fastConfiguration) { source, _ in
                try await source.append([.save(id: UUID(), kind: 1, payload: [1])])
                let good = source.head
                try await source.append([.save(id: UUID(), kind: 13, payload: [2])])
                let entries = try readAll(source)
                try await replica.apply([entries[0]], checkpoint: good)
                await #expect(throws: RejectingProjection.Rejected.self) {
                    try await replica.apply([entries[1]], checkpoint: source.head)
                }
                #expect(try replica.checkpoint(for: source.storeID) == good)
                #expect(try readAll(replica).count == 1)
            }
        }
    }
}
