// A child process for AnchorageLogTests' crash-safety test.
//
//   LogCrashWriter <store directory> <tasks> [<initial map size in bytes>]
//   LogCrashWriter migrate <store directory>
//   LogCrashWriter check <store directory>
//
// (A small initial map makes the writer grow it while others read: the
// reading tests use that.)
//
// Its choices (batch sizes, ids, pauses) come from the seed in the
// environment variable LOG_CRASH_WRITER_SEED (0 without it), so a test
// that gives each child a seed of its own can replay one.
//
// Opens the log, prints "ready", then appends batches from several tasks at
// once, forever, pausing up to 2 ms between batches (so kills land at varied
// points of the commit cycle and the store stays small), printing one "ack <seq> <id>" line per entry of each
// acknowledged batch. The test kills it with SIGKILL at a random moment and
// checks that every acknowledged entry survived. Each payload is derived
// from its id (see `payload(for:)`), so the test can check contents too.

import AnchorageLog
import AnchorageTesting
import Foundation
import LMDB

#if canImport(Glibc)
import Glibc
#endif

/// The payload the test expects for `id`: between 0 and 299 bytes.
func payload(for id: UUID) -> [UInt8] {
    let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
    let count = (Int(bytes[0]) << 8 | Int(bytes[1])) % 300
    return (0..<count).map { bytes[$0 % 16] &+ UInt8(truncatingIfNeeded: $0) }
}

/// Writes `text` to standard output in one `write` call, so a line is never
/// torn by the kill (lines of one batch stay under PIPE_BUF).
func emit(_ text: String) {
    var bytes = Array(text.utf8)
    _ = bytes.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
// `LogCrashWriter migrate <directory>`: migrates the store to log format 2,
// printing "migrated <entries>" once done (the migration test kills it on
// the way).
if arguments.count == 3, arguments[1] == "migrate" {
    let report = try EventLog.migrate(at: URL(fileURLWithPath: arguments[2]))
    emit("migrated \(report.entries)\n")
    exit(0)
}
// `LogCrashWriter check <directory>`: opens the store with the writer's
// projection (which applies what a killed writer's projections missed),
// checks it against a replay and prints "checked <rows> <head> <ok|…>".
if arguments.count == 3, arguments[1] == "check" {
    let box = SeqIndexBox()
    let log = try EventLog.open(at: URL(fileURLWithPath: arguments[2])) { txn in
        let index = try SeqIndex(in: txn)
        box.index = index
        return [index]
    }
    let disagreement = try await log.checkProjections()
    let rows = try log.withReadTransaction { txn in try txn.statistics(of: box.index!.bySeq).entries }
    emit("checked \(rows) \(log.head.seq) \(disagreement.map { "\($0)" } ?? "ok")\n")
    await log.close()
    exit(0)
}
guard (3...4).contains(arguments.count), let tasks = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: LogCrashWriter <directory> <tasks> [<initial map size>]\n".utf8))
    exit(2)
}
var configuration = EventLog.Configuration()
if arguments.count == 4, let size = Int(arguments[3]) { configuration.initialMapSize = size }

let seed = ProcessInfo.processInfo.environment["LOG_CRASH_WRITER_SEED"].flatMap { UInt64($0) } ?? 0
let log = try EventLog.open(at: URL(fileURLWithPath: arguments[1]), configuration: configuration) { txn in
    [try SeqIndex(in: txn)]
}
emit("ready\n")

/// Appends batches forever, as one of the writer's tasks.
func appendForever(task: Int, seed: UInt64, log: EventLog) async throws {
    var generator = SeededGenerator(seed: seed &+ UInt64(task) &* 0x9E37_79B9)
    while true {
        let count = Int.random(in: 1...40, using: &generator)
        var events: [LogEvent] = []
        for index in 0..<count {
            let id = UUID.random(using: &generator)
            events.append(
                index % 7 == 6 && task % 2 == 1
                    ? .delete(id: id, kind: EntryKind(rawValue: UInt32(task)))
                    : .save(id: id, kind: EntryKind(rawValue: UInt32(task)), payload: payload(for: id))
            )
        }
        let anchors = try await log.append(events)
        var lines = ""
        for (event, anchor) in zip(events, anchors) {
            lines += "ack \(anchor.stringValue) \(event.operation) \(event.id.uuidString)\n"
        }
        emit(lines)
        // Paced writer: the pauses only vary where in the commit cycle a kill
        // lands and keep the store small; the test's checks hold at any pace.
        try await Task.sleep(for: .microseconds(Int.random(in: 0...2_000, using: &generator)))
    }
}

await withThrowingTaskGroup(of: Void.self) { group in
    for task in 0..<tasks {
        group.addTask { try await appendForever(task: task, seed: seed, log: log) }
    }
}
