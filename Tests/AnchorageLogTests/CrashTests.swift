import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

#if canImport(Glibc)
import Glibc
#endif

/// Kills a child process that appends in a loop (Tests/LogCrashWriter) with
/// SIGKILL at random moments, and checks the store after each kill.
///
/// The child's output is read as it comes (``ChildOutput``): most kills are
/// timed from the child's first acknowledged append, so they land while it
/// appends however long it takes to start; a few are timed from its start
/// and may land while it opens the store.
@Suite("Crash safety", .ownThread, .startsProcesses())
struct CrashTests {
    @Test(
        "every acknowledged append survives SIGKILL; seqs stay dense, the chain verifies, and the projections come back equal to a replay",
        .timeLimit(.minutes(10)),
        arguments: testSeeds([0x5EED_C4A5])
    )
    func sigkillAtRandomMoments(seed: UInt64) async throws {
        let writer = try crashWriterExecutable()
        // The kill moments and each child's choices come from the seed; where
        // a kill lands in the child's work still varies with the machine.
        var generator = SeededGenerator(seed: seed)
        try await withTemporaryDirectory { directory in
            var acknowledged: [UInt64: (operation: String, id: UUID)] = [:]
            var killsAfterAcks = 0
            for round in 0..<24 {
                let output = try await runAndKill(
                    writer,
                    arguments: [directory.path, "3"],
                    seed: generator.next(),
                    after: .milliseconds(Int.random(in: 40...400, using: &generator)),
                    fromStart: round % 6 == 0
                )
                let acks = try parseAcks(output)
                if !acks.isEmpty { killsAfterAcks += 1 }
                for (seq, ack) in acks {
                    if let earlier = acknowledged[seq] {
                        #expect(
                            earlier.id == ack.id,
                            "round \(round): seq \(seq) acknowledged twice with different ids"
                        )
                    }
                    acknowledged[seq] = ack
                }

                // The writer's projection, opened first: the open applies what
                // the kill kept from it, and it must equal a replay.
                let checked = try await runToEnd(writer, arguments: ["check", directory.path])
                let fields = checked.split(separator: " ")
                #expect(
                    fields.count == 4 && fields[0] == "checked" && fields[1] == fields[2] && fields[3] == "ok",
                    "round \(round): after the kill the projection reads \(checked) (want one row per entry, ok)"
                )

                // Read only: an open for writing without the projection would
                // forget it, and the next child would rebuild it from scratch.
                // Reading and verifying the whole log is long work: on a thread
                // of its own, off the cooperative pool.
                let log = try await runBlocking { try EventLog.openForReading(at: directory) }
                let entries = try await runBlocking { try readAll(log, limit: 4_096) }
                #expect(
                    entries.map(\.seq) == (0..<entries.count).map { UInt64($0 + 1) },
                    "round \(round): seqs not dense"
                )
                for (seq, ack) in acknowledged {
                    guard seq <= UInt64(entries.count) else {
                        Issue.record(
                            "round \(round): acknowledged entry \(seq) is missing (log ends at \(entries.count))"
                        )
                        continue
                    }
                    let entry = entries[Int(seq) - 1]
                    #expect(
                        entry.id == ack.id && entry.operation.description == ack.operation,
                        "round \(round), seq \(seq)"
                    )
                    if entry.operation == .save {
                        #expect(
                            entry.payload == EntryPayload(crashWriterPayload(for: ack.id)),
                            "round \(round), seq \(seq)"
                        )
                    }
                }
                let report = try await runBlocking { try log.verify() }
                #expect(report.isIntact, "round \(round): \(String(describing: report.problem))")
                await log.close()
            }
            // 20 of the 24 kills wait for an acknowledged append.
            #expect(killsAfterAcks >= 20, "only \(killsAfterAcks) kills landed while the child was appending")
        }
    }

    /// Runs `executable`, kills it with SIGKILL `delay` after its start (or,
    /// unless `fromStart`, after its first acknowledged append), and returns
    /// everything it wrote to standard output.
    func runAndKill(
        _ executable: URL,
        arguments: [String],
        seed: UInt64,
        after delay: Duration,
        fromStart: Bool = true
    ) async throws -> String {
        let output = try ChildOutput()
        let child = try ChildProcess.spawn(
            executable.path,
            arguments,
            environment: ["LOG_CRASH_WRITER_SEED": "\(seed)"],
            watched: output
        )
        do {
            if !fromStart {
                try await output.wait(for: "an acknowledged append", timeout: 120) { $0.contains("\nack ") }
            }
            // Kill moment: any moment is valid (every check holds wherever the
            // kill lands); the seed picks it, and the machine's pace only moves
            // where in the child's work it lands.
            try await Task.sleep(for: delay)
        } catch {
            child.signal(SIGKILL)
            _ = await child.exit(within: 60)
            throw error
        }
        child.signal(SIGKILL)
        let text = try await output.end(timeout: 120)
        _ = await child.exit(within: 60)
        return text
    }

    /// Runs `executable` to its end (killed, and failing, if it takes more
    /// than two minutes) and returns its standard output's first line.
    func runToEnd(_ executable: URL, arguments: [String]) async throws -> String {
        let output = try ChildOutput()
        let child = try ChildProcess.spawn(executable.path, arguments, watched: output)
        let text: String
        do {
            text = try await output.end(timeout: 120)
        } catch {
            child.signal(SIGKILL)
            _ = await child.exit(within: 60)
            throw CrashTestFailure(description: "\(executable.lastPathComponent) \(arguments): \(error)")
        }
        _ = await child.exit(within: 60)
        return text.split(separator: "\n").first.map(String.init) ?? ""
    }

    /// `ack <anchor> <operation> <uuid>` lines, by sequence number.
    private func parseAcks(_ text: String) throws -> [UInt64: (operation: String, id: UUID)] {
        var acks: [UInt64: (operation: String, id: UUID)] = [:]
        // A line without its newline was torn by the kill; it is not complete.
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) where line.hasPrefix("ack ") {
            let fields = line.split(separator: " ")
            guard fields.count == 4, let id = UUID(uuidString: String(fields[3])) else { continue }
            let anchor = try Anchor(parsing: String(fields[1]))
            acks[anchor.seq] = (String(fields[2]), id)
        }
        return acks
    }
}

/// The payload LogCrashWriter saves for `id` (the same function as there).
func crashWriterPayload(for id: UUID) -> [UInt8] {
    let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
    let count = (Int(bytes[0]) << 8 | Int(bytes[1])) % 300
    return (0..<count).map { bytes[$0 % 16] &+ UInt8(truncatingIfNeeded: $0) }
}

/// The LogCrashWriter executable, built next to the test bundle by
/// `swift build --build-tests` (Scripts/test).
func crashWriterExecutable() throws -> URL {
    let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let candidate = testBinary.deletingLastPathComponent().appendingPathComponent("LogCrashWriter")
    guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
        throw CrashWriterMissing(path: candidate.path)
    }
    return candidate
}

struct CrashWriterMissing: Error, CustomStringConvertible {
    let path: String
    var description: String { "\(path) does not exist; build it with `swift build --build-tests` (Scripts/test does)" }
}

/// A child process that did not finish in time.
struct CrashTestFailure: Error, CustomStringConvertible {
    let description: String
}
