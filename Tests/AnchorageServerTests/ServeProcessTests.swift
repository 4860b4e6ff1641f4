import Anchorage
import AnchorageLog
import AnchorageTestRun
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// A running `anchorage serve` child process (started with `posix_spawn`:
/// see ``ChildProcess``), its standard output and error in a file of its own.
final class ServeProcess: Sendable {
    let child: ChildProcess
    let port: Int
    private let log: URL
    /// What the node writes, as it comes.
    let output: ChildOutput

    init(store: URL, tokens: URL, port requested: Int = 0, arguments extra: [String] = []) async throws {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("anchorage")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ServeFailure(description: "\(binary.path) is missing; build it with `swift build --build-tests`")
        }
        log = temporaryPath(prefix: "anchorage-serve").appendingPathExtension("log")
        output = try ChildOutput(log: log)
        child = try ChildProcess.spawn(
            binary.path,
            ["serve", "--store", store.path, "--port", "\(requested)", "--tokens", tokens.path] + extra,
            watched: output
        )
        do {
            port = try await output.first("the node's address") { text in
                text.range(of: #"on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression).flatMap {
                    Int(text[$0].split(separator: ":").last ?? "")
                }
            }
        } catch {
            child.signal(SIGKILL)
            _ = await child.exit(within: 10)
            try? FileManager.default.removeItem(at: log)
            throw ServeFailure(description: "the node did not start: \(error)")
        }
    }

    deinit {
        child.signal(SIGKILL)
        _ = child.wait(timeout: 10)
        try? FileManager.default.removeItem(at: log)
    }

    /// The process id.
    var pid: Int32 { child.pid }

    /// What the node wrote to its standard output and error so far.
    var standardError: String { output.text }

    /// Sends SIGKILL: the process dies at once, whatever it was doing.
    func killNow() async {
        child.signal(SIGKILL)
        _ = await child.exit(within: 60)
    }

    /// Sends SIGTERM and waits (60 s at most) for the exit status; a node
    /// still running then is killed, and the status is -1.
    func terminate() async -> Int32 {
        child.signal(SIGTERM)
        guard let status = await child.exit(within: 60) else {
            await killNow()
            return -1
        }
        _ = try? await output.end(timeout: 60)
        return status
    }
}

struct ServeFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` with a new temporary directory holding `tokens.json`, whose
/// one token (``ServeProcessTests/token``) is the owner's; removes it after.
func withOwnerTokens<R>(_ body: (_ directory: URL, _ tokens: URL) async throws -> R) async throws -> R {
    try await withTemporaryDirectory { directory in
        let tokens = directory.appendingPathComponent("tokens.json")
        try Data(#"{"tokens":[{"token":"\#(ServeProcessTests.token)","owner":true}]}"#.utf8).write(to: tokens)
        return try await body(directory, tokens)
    }
}

@Suite("anchorage serve, as a process", .startsProcesses())
struct ServeProcessTests {
    static let token = "process-owner-token-0123456789"

    /// Saves `count` samples in one request; returns their uuids when the
    /// node acknowledged the save, nil when it refused or went away.
    static func save(count: Int, port: Int, timeout: TimeAmount = .seconds(30)) async -> [UUID]? {
        let ids = (0..<count).map { _ in UUID() }
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/samples")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: "[" + ids.map { stepJSON(1, uuid: $0) }.joined(separator: ",") + "]"))
        guard let response = try? await HTTPClient.shared.execute(request, timeout: timeout),
            response.status == .created
        else { return nil }
        return ids
    }

    @Test(
        "saves over HTTP, a plain client follows the feed, SIGTERM stops it gracefully with no acknowledged write lost"
    )
    func serveFollowAndTerminate() async throws {
        try await withOwnerTokens { directory, tokens in try await serveFollowAndTerminate(directory, tokens) }
    }

    private func serveFollowAndTerminate(_ directory: URL, _ tokens: URL) async throws {
        let store = directory.appendingPathComponent("store")
        let node = try await ServeProcess(store: store, tokens: tokens)
        let port = node.port

        // A follower with a plain HTTP client, from the beginning.
        let follower = Task { () -> [String] in
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/changes?types=stepCount&stream=ndjson")
            request.headers.add(name: "Authorization", value: "Bearer \(Self.token)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            var text = ""
            for try await chunk in response.body { text += String(buffer: chunk) }
            return text.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("{\"added\":") else { return nil }
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return (object?["added"] as? [String: Any])?["uuid"] as? String
            }
        }

        // A first round that all lands, then saves in flight when SIGTERM comes.
        var acknowledged: [UUID] = []
        for _ in 0..<10 { acknowledged += try #require(await Self.save(count: 5, port: port)) }
        let inFlight = Task { () -> [UUID] in
            await withTaskGroup(of: [UUID]?.self) { group in
                for _ in 0..<40 {
                    // Connections the kernel queued but the stopping node never accepts time out.
                    group.addTask { await Self.save(count: 5, port: port, timeout: .seconds(3)) }
                }
                var ids: [UUID] = []
                for await batch in group { ids += batch ?? [] }
                return ids
            }
        }
        // Kill moment: SIGTERM lands while some of the 40 saves are in
        // flight, or none, or after all; every outcome is checked the same
        // way (what was acknowledged is stored, once).
        try await Task.sleep(for: .milliseconds(30))
        let status = await node.terminate()
        acknowledged += await inFlight.value
        #expect(status == 0, "\(node.standardError)")
        #expect(node.standardError.contains("anchorage: stopped"))

        // The follower's stream ended with the node, having seen each change once.
        let followed = try await follower.value
        #expect(Set(followed).count == followed.count)
        #expect(Set(acknowledged.prefix(50).map(\.uuidString)).isSubset(of: Set(followed)))

        // Every acknowledged save is in the store, once.
        let reopened = HKHealthStore(directory: store)
        let stored = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
            sortDescriptors: []
        ).result(for: reopened)
        await reopened.close()
        let storedIDs = stored.map(\.uuid)
        #expect(Set(storedIDs).count == storedIDs.count)
        #expect(Set(acknowledged).isSubset(of: Set(storedIDs)))
    }
}
