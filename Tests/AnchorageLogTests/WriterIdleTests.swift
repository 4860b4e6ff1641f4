import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("The writer's thread ends when the log is idle and starts again with the next write")
struct WriterIdleTests {
    static func configuration(idle: Duration?) -> EventLog.Configuration {
        var configuration = fastConfiguration
        configuration.writerIdleTimeout = idle
        return configuration
    }

    @Test(
        "an idle log holds no writer thread; the next write starts one, commits, and is read back; closing a parked log ends it"
    )
    func parksAndWakes() async throws {
        try await withTemporaryLog(configuration: Self.configuration(idle: .milliseconds(20))) { log, directory in
            try await waitUntil("the writer's thread ends while nothing is written") {
                log.writerThreadState?.running == false
            }
            let before = try #require(log.writerThreadState).started
            for round in 1...3 {
                let anchors = try await log.append([
                    .save(id: UUID(), kind: EntryKind(rawValue: 1), payload: [UInt8(round)])
                ])
                #expect(anchors.map(\.seq) == [UInt64(round)])
                try await waitUntil("the thread ends again after round \(round)") {
                    log.writerThreadState?.running == false
                }
            }
            #expect(try #require(log.writerThreadState).started == before + 3, "one thread per burst of writes")
            #expect(try readAll(log).map(\.payload) == [[1], [2], [3]])
            try await finishes("closing a parked writer") { await log.close() }
            let reopened = try EventLog.open(at: directory, configuration: fastConfiguration)
            #expect(reopened.head.seq == 3, "what the parked writer committed is there")
            #expect(try reopened.verify().problem == nil)
            await reopened.close()
        }
    }

    @Test(
        "writes racing the thread's end are never lost: many tasks writing in bursts with pauses around the idle time",
        arguments: [UInt64(1), 2, 3]
    )
    func racingWrites(seed: UInt64) async throws {
        try await withTemporaryLog(configuration: Self.configuration(idle: .milliseconds(2))) { log, _ in
            let ids = try await withThrowingTaskGroup(of: [UUID].self) { group in
                for task in 0..<8 {
                    group.addTask {
                        var generator = SeededGenerator(seed: seed &* 31 &+ UInt64(task))
                        var written: [UUID] = []
                        for _ in 0..<25 {
                            let id = UUID()
                            _ = try await log.append([.save(id: id, kind: EntryKind(rawValue: 1), payload: [1])])
                            written.append(id)
                            let pause = Int.random(in: 0...4, using: &generator)
                            // Paced writer: pauses around the idle time let some writes
                            // race the thread's end; whatever the pace, no write may be lost.
                            if pause > 0 { try await Task.sleep(for: .milliseconds(pause)) }
                        }
                        return written
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let entries = try readAll(log)
            #expect(entries.map(\.seq) == Array(1...UInt64(ids.count)))
            #expect(Set(entries.map(\.id)) == Set(ids))
            #expect(try log.verify().problem == nil)
        }
    }

    @Test("with no idle time set the thread runs for as long as the log is open")
    func keptWithoutIdle() async throws {
        try await withTemporaryLog(configuration: Self.configuration(idle: nil)) { log, _ in
            _ = try await log.append([.save(id: UUID(), kind: EntryKind(rawValue: 1), payload: [1])])
            // A log with an idle time of 50 ms, written after this one: once its
            // writer's thread has ended, this one has been idle for longer than
            // that too (however slow the machine), and its thread still runs.
            try await withTemporaryLog(configuration: Self.configuration(idle: .milliseconds(50))) { witness, _ in
                _ = try await witness.append([.save(id: UUID(), kind: EntryKind(rawValue: 1), payload: [1])])
                try await waitUntil("the witness's writer thread ends after 50 ms idle") {
                    witness.writerThreadState?.running == false
                }
            }
            #expect(log.writerThreadState?.running == true)
            #expect(log.writerThreadState?.started == 1)
        }
    }
}
