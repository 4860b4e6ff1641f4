import Anchorage
import AnchorageTestRun
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// The README's quick start with two terminals: `anchorage serve` in one,
/// the commands that only read in the other, against the same store.
@Suite("Reading a served store from another process", .startsProcesses())
struct ReadBesideNodeTests {
    @Test(
        "stats, samples, digest, export and audit verify run beside a node; changes --follow sees its saves; save names the node; the reads are in the node's access log"
    )
    func quickStartInTwoTerminals() async throws {
        try await withOwnerTokens { directory, tokens in try await quickStart(directory, tokens) }
    }

    private func quickStart(_ directory: URL, _ tokens: URL) async throws {
        let store = directory.appendingPathComponent("store").path
        let node = try await ServeProcess(store: URL(fileURLWithPath: store), tokens: tokens)
        var nodeStopped = false
        defer { if !nodeStopped { node.child.signal(SIGTERM) } }
        _ = try #require(await ServeProcessTests.save(count: 3, port: node.port))

        let (statsStatus, stats) = try await runAnchorage([
            "stats", "--store", store, "--type", "stepCount", "--from", "2024-06-01", "--to", "2024-06-01", "--tz",
            "UTC",
        ])
        #expect(statsStatus == 0, "\(stats)")
        #expect(stats.contains("2024-06-01") && stats.contains("3"), "\(stats)")
        let (samplesStatus, samples) = try await runAnchorage(["samples", "--store", store, "--type", "stepCount"])
        #expect(samplesStatus == 0 && samples.split(separator: "\n").count == 3, "\(samples)")
        for command in [["digest"], ["export"], ["sources", "--type", "stepCount"], ["audit", "verify"]] {
            let (status, output) = try await runAnchorage(command + ["--store", store])
            #expect(status == 0, "\(command): \(output)")
        }

        // A follower in another process sees a save the node makes.
        let follower = FollowingProcess(arguments: ["changes", "--store", store, "--type", "stepCount", "--follow"])
        defer { follower.stop() }
        try follower.start()
        try await follower.waitFor(lines: 3)
        let saved = try #require(await ServeProcessTests.save(count: 1, port: node.port))
        try await follower.waitFor(text: saved[0].uuidString)

        // A command that writes is refused, naming the node's process.
        let (saveStatus, refusal) = try await runAnchorage(["save", "--store", store], input: "[\(stepJSON(5))]")
        #expect(saveStatus == 1)
        #expect(refusal.contains("in use by process \(node.pid) (anchorage serve)"), "\(refusal)")

        follower.stop()
        // The command line's reads went into the store's access log beside
        // the node's own entries; the node answers them.
        _ = try await Self.get("/v1/samples?type=stepCount", port: node.port)
        let log = try await Self.get("/v1/access-log?limit=1000", port: node.port)
        let entries = try #require(
            (try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [String: Any])?["entries"] as? [[String: Any]]
        )
        let actions = entries.map { "\($0["principal"] ?? "")\t\($0["action"] ?? "")" }
        for command in ["stats", "samples", "export", "sources", "changes"] {
            #expect(actions.contains("cli\tanchorage \(command)"), "\(command): \(actions)")
        }
        #expect(!actions.contains { $0.contains("digest") || $0.contains("audit") }, "\(actions)")
        #expect(actions.last == "owner\tGET /v1/samples", "the node appends after the command line: \(actions)")
        let cursors = entries.compactMap { $0["cursor"] as? String }
        #expect(Set(cursors).count == entries.count, "no two entries share a key")

        #expect(await node.terminate() == 0)
        nodeStopped = true
        let (auditStatus, audit) = try await runAnchorage(["audit", "verify", "--store", store])
        #expect(auditStatus == 0 && audit.contains("intact (4 entries"), "\(audit)")
    }

    /// The body of an owner's GET to the node.
    static func get(_ path: String, port: Int) async throws -> String {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Authorization", value: "Bearer \(ServeProcessTests.token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        #expect(response.status == .ok, "\(path)")
        return String(buffer: try await response.body.collect(upTo: 16 << 20))
    }

    @Test("commands that only read refuse a directory without a store, and create nothing")
    func missingStore() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-missing-\(UUID())").path
        for command in [
            ["samples", "--type", "stepCount"], ["digest"], ["audit", "verify"], ["changes", "--type", "stepCount"],
            ["history", UUID().uuidString],
        ] {
            let (status, output) = try await runAnchorage(command + ["--store", missing])
            #expect(status == 1, "\(command)")
            #expect(output.contains("no store at \(missing); create one with `import`, `save` or `serve`"), "\(output)")
            #expect(!FileManager.default.fileExists(atPath: missing), "\(command)")
        }
    }
}

/// An `anchorage` child process that keeps running (such as `changes
/// --follow`), its standard output and error read as they come (and kept
/// in a file).
final class FollowingProcess: Sendable {
    private let arguments: [String]
    private let log = temporaryPath(prefix: "anchorage-following").appendingPathExtension("log")
    private let child = Mutex<(process: ChildProcess, output: ChildOutput)?>(nil)

    init(arguments: [String]) {
        self.arguments = arguments
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: log)
    }

    func start() throws {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("anchorage")
        let output = try ChildOutput(log: log)
        let started = try ChildProcess.spawn(binary.path, arguments, watched: output)
        child.withLock { $0 = (started, output) }
    }

    var text: String { child.withLock { $0?.output.text } ?? "" }

    func waitFor(lines: Int) async throws {
        try await waitUntil("\(lines) lines") { $0.split(separator: "\n").count >= lines }
    }

    func waitFor(text: String) async throws {
        try await waitUntil("'\(text)'") { $0.contains(text) }
    }

    /// Waits on the output pipe until `condition` holds for what the child
    /// printed; fails at once if it ends first.
    private func waitUntil(_ what: String, _ condition: @escaping @Sendable (String) -> Bool) async throws {
        guard let output = child.withLock({ $0?.output }) else {
            throw ServeFailure(description: "the follower was not started")
        }
        do {
            try await output.wait(for: what, condition)
        } catch {
            throw ServeFailure(description: "the follower did not print what was expected: \(error)")
        }
    }

    /// Sends SIGTERM and waits (10 s at most, then SIGKILL) until it has ended.
    func stop() {
        guard let running = child.withLock({ $0?.process }) else { return }
        running.signal(SIGTERM)
        if running.wait(timeout: 10) == nil {
            running.signal(SIGKILL)
            _ = running.wait(timeout: 10)
        }
    }
}
