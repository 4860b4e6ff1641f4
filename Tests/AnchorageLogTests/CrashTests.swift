import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

#if canImport(Glibc)
import Glibc
#endif

/// Kills a child process that appends in a loop (Tests/LogCrashWriter) with
/// SIGKILL at random moments, and checks the store after each kill.
@Suite("Crash safety")
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
                    after: .milliseconds(Int.random(in: 40...400, using: &generator))
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
                let log = try EventLog.openForReading(at: directory)
                let entries = try readAll(log, limit: 4_096)
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
                let report = try log.verify()
                #expect(report.isIntact, "round \(round): \(String(describing: report.problem))")
                await log.close()
            }
            #expect(killsAfterAcks >= 20, "only \(killsAfterAcks) kills landed while the child was appending")
        }
    }

    /// Runs `executable`, kills it with SIGKILL after `delay`, and returns
    /// everything it wrote to standard output.
    func runAndKill(
        _ executable: URL,
        arguments: [String],
        seed: UInt64,
        after delay: Duration
    ) async throws -> Data {
        try await run(executable, arguments: arguments, seed: seed, killAfter: delay).output
    }

    /// Runs `executable` to its end (killed, and failing, if it takes more
    /// than two minutes) and returns its standard output's first line.
    func runToEnd(_ executable: URL, arguments: [String]) async throws -> String {
        let (output, killed) = try await run(executable, arguments: arguments, seed: nil, killAfter: .seconds(120))
        if killed {
            throw CrashTestFailure(description: "\(executable.lastPathComponent) \(arguments) ran past 2 minutes")
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    /// Runs `executable` until it exits or `limit` has passed, then kills it
    /// by pid with SIGKILL; returns everything it wrote to standard output
    /// and whether it had to be killed.
    func run(
        _ executable: URL,
        arguments: [String],
        seed: UInt64?,
        killAfter limit: Duration
    ) async throws -> (output: Data, killed: Bool) {
        let log = temporaryPath(prefix: "anchorage-crash-child").appendingPathExtension("log")
        defer { try? FileManager.default.removeItem(at: log) }
        let child = try ChildProcess.spawn(
            executable.path,
            arguments,
            environment: seed.map { ["LOG_CRASH_WRITER_SEED": "\($0)"] } ?? [:],
            output: log
        )
        let deadline = ContinuousClock.now + limit
        while child.poll() == nil && ContinuousClock.now < deadline {
            try await Task.sleep(for: min(.milliseconds(20), deadline - ContinuousClock.now))
        }
        let killed = child.poll() == nil
        if killed { child.signal(SIGKILL) }
        _ = await child.exit(within: 60)
        return ((try? Data(contentsOf: log)) ?? Data(), killed)
    }

    /// `ack <anchor> <operation> <uuid>` lines, by sequence number.
    private func parseAcks(_ output: Data) throws -> [UInt64: (operation: String, id: UUID)] {
        var acks: [UInt64: (operation: String, id: UUID)] = [:]
        let text = String(decoding: output, as: UTF8.self)
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
