import AnchorageTestRun
import AnchorageTesting
import Foundation
import LMDB
import Synchronization
import Testing

@testable import AnchorageLog

/// Publishes the ids of each batch, and the batch's input, for `Tally`.
struct Announcer: Projection {
    var name: String { "announcer" }
    var version: Int { 1 }
    var databases: [Database] { [] }

    static let output = ProjectionOutputKey<(ids: [UUID], input: String?)>(producer: "announcer")

    func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        context.publish((ids: entries.map(\.id), input: context.input as? String), for: Self.output)
    }
}

/// Writes, per entry, what `Announcer` published for its batch: the input
/// of the append it came from, or "none"; counts its batches in scratch
/// and writes the count in `finish`.
struct Tally: Projection {
    let rows: Database
    var tallyVersion = 1
    var name: String { "tally" }
    var version: Int { tallyVersion }
    var databases: [Database] { [rows] }
    var consumes: [ConsumedOutput] { [Announcer.output.consumed] }
    static let batches = ProjectionScratchKey<Int>(owner: "tally")

    func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        let announced = context.output(of: Announcer.output)
        #expect(announced?.ids == entries.map(\.id), "the producer ran first, on this very batch")
        for entry in entries {
            try txn.put(Array((announced?.input ?? "none").utf8), forKey: entry.id.bytes, in: rows)
        }
        context.withScratch(Self.batches, 0) { $0 += 1 }
    }

    func finish(context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        let batches = context.withScratch(Self.batches, 0) { $0 }
        let key = Array("batches".utf8)
        let old = try txn.value(forKey: key, in: rows).flatMap { UInt64(bigEndianBytes: $0) } ?? 0
        try txn.put((old + UInt64(batches)).bigEndianBytes, forKey: key, in: rows)
    }
}

@Suite("Projection context")
struct ProjectionContextTests {
    struct Refused: Error {}

    @Test("a consumer runs after its producer whatever the factory's order, with each batch's output and input")
    func outputsAndInputs() async throws {
        let database = Mutex<Database?>(nil)
        let projections: ProjectionFactory = { txn in
            let rows = try #require(try txn.database(named: "tally"))
            database.withLock { $0 = rows }
            return [Tally(rows: rows), Announcer()]
        }
        try await withTemporaryLog(configuration: fastConfiguration, projections: projections) { log, _ in
            // Concurrent appends form group commits; some refuse in their precondition.
            let accepted = try await withThrowingTaskGroup(of: [(UUID, String)].self) { group in
                for task in 0..<40 {
                    group.addTask {
                        let events = (0..<2).map { _ in LogEvent.save(id: UUID(), kind: 1, payload: [UInt8(task)]) }
                        do {
                            _ = try await log.append(events) { _ in
                                if task % 4 == 0 { throw Refused() }
                                return task % 2 == 0 ? nil : "task \(task)"
                            }
                        } catch is Refused {
                            return []
                        }
                        return events.map { ($0.id, task % 2 == 0 ? "none" : "task \(task)") }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let rows = try #require(database.withLock { $0 })
            let stored = try log.read { txn in
                try accepted.map { id, _ in
                    try txn.value(forKey: id.bytes, in: rows).map { String(decoding: $0, as: UTF8.self) }
                }
            }
            #expect(stored == accepted.map { Optional($0.1) }, "each entry saw its own append's input")
            let batches = try log.read { txn in
                try txn.value(forKey: Array("batches".utf8), in: rows).flatMap { UInt64(bigEndianBytes: $0) }
            }
            #expect(batches == 30, "30 accepted appends; abandoned attempts left no count behind")
            let live = try KindIndexDump.all(log, rows)
            _ = try await log.rebuildProjections()
            let stale = try KindIndexDump.all(log, rows)
            // A replay has no inputs: every row says "none"; the batch count is the replay's chunks.
            #expect(stale.count == live.count)
        }
    }

    @Test(
        "typed keys: an output is read back as it was published, is absent for a batch it was not published in, and a reader of another type stops the process instead of reading nothing",
        .startsProcesses()
    )
    func typedOutputs() async throws {
        let context = ProjectionContext()
        let numbers = ProjectionOutputKey<[Int]>(producer: "numbers")
        context.beginBatch(input: nil)
        context.publish([1, 2, 3], for: numbers)
        #expect(context.output(of: numbers) == [1, 2, 3])
        context.beginBatch(input: nil)
        #expect(context.output(of: numbers) == nil, "outputs belong to one batch")
        let scratch = ProjectionScratchKey<Int>(owner: "numbers")
        context.withScratch(scratch, 40) { $0 += 2 }
        #expect(context.withScratch(scratch, 0) { $0 } == 42, "scratch lasts the transaction")
        await #expect(processExitsWith: .failure) {
            let context = ProjectionContext()
            context.beginBatch(input: nil)
            context.publish([1], for: ProjectionOutputKey<[Int]>(producer: "numbers"))
            _ = context.output(of: ProjectionOutputKey<String>(producer: "numbers"))
        }
    }

    /// What the projection named `producer` would publish, as a consumer lists it.
    static func key(_ producer: String) -> ConsumedOutput {
        ProjectionOutputKey<Int>(producer: producer).consumed
    }

    @Test(
        "a stale consumer is rebuilt with its producer, which publishes for it again; the producer alone is not rebuilt for nothing"
    )
    func staleConsumerRebuildsWithProducer() async throws {
        try await withTemporaryDirectory { directory in
            let opened = Mutex<Database?>(nil)
            func open(tally version: Int) throws -> EventLog {
                try EventLog.open(at: directory, configuration: fastConfiguration) { txn in
                    guard let rows = try txn.database(named: "tally") else { throw Refused() }
                    opened.withLock { $0 = rows }
                    return [Announcer(), Tally(rows: rows, tallyVersion: version)]
                }
            }
            var log = try open(tally: 1)
            try await log.append([.save(id: UUID(), kind: 1, payload: [1]), .save(id: UUID(), kind: 1, payload: [2])])
            await log.close()
            log = try open(tally: 2)
            let tally = try #require(opened.withLock { $0 })
            let dump = try KindIndexDump.all(log, tally)
            #expect(dump.count == 3, "two entries and the batch count, written again by the rebuild")
            #expect([EventLog.ProjectionDisagreement?.none] == [try await log.checkProjections()])
            await log.close()
        }
        let announcer: [any Projection] = [Announcer()]
        #expect(announcer.rebuildSet(for: []).isEmpty)
    }

    @Test("a projection consuming one that is not open, or two consuming each other, are refused at open")
    func badConsumption() async throws {
        struct Consumer: Projection {
            var name: String
            var consumes: [ConsumedOutput]
            var version: Int { 1 }
            var databases: [Database] { [] }
            func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {}
        }
        for factory: ProjectionFactory in [
            { _ in [Consumer(name: "a", consumes: [Self.key("missing")])] },
            { _ in [Consumer(name: "a", consumes: [Self.key("b")]), Consumer(name: "b", consumes: [Self.key("a")])] },
        ] {
            await #expect(throws: LogError.self) {
                try await withTemporaryLog(configuration: fastConfiguration, projections: factory) { _, _ in }
            }
        }
    }
}

/// Every key and value of one database.
enum KindIndexDump {
    static func all(_ log: EventLog, _ database: Database) throws -> [[UInt8]] {
        try log.read { txn in
            var rows: [[UInt8]] = []
            try txn.withCursor(on: database) { cursor in
                try cursor.scan { key, value in
                    rows.append(Array(key) + [0xFF] + Array(value))
                    return true
                }
            }
            return rows
        }
    }
}
