import AnchorageTestRun
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// Three `anchorage serve` processes replicating over loopback HTTP while
/// a writer saves to each; one is killed with SIGKILL mid-replication and
/// restarted.
@Suite("anchorage serve --peer, as processes", .startsProcesses())
struct SyncProcessTests {
    static let peerToken = "peer-replication-token-0123456789"

    @Test("Three nodes converge after one is SIGKILLed and restarted; every acknowledged save is present once")
    func convergeAfterKill() async throws {
        let (directory, tokens, stores) = try Self.clusterFiles()
        defer { try? FileManager.default.removeItem(at: directory) }

        // A star: B and C keep two-way sync with A, so every entry has one
        // path to each node and a batch received twice means a checkpoint
        // failed. A is started first, on a port of its own choosing.
        let hub = try await ServeProcess(store: stores[0], tokens: tokens)
        let peerArguments = ["--peer", "http://127.0.0.1:\(hub.port)", "--peer-token", Self.peerToken]
        var b = try await ServeProcess(store: stores[1], tokens: tokens, arguments: peerArguments)
        let c = try await ServeProcess(store: stores[2], tokens: tokens, arguments: peerArguments)
        let bPort = b.port
        var nodes = [hub, b, c]

        let acknowledged = Acknowledged()
        for _ in 0..<15 { await Self.writeRound(to: nodes.map(\.port), acknowledged) }
        // Kill B while the writer and the replicators are busy.
        let survivors = [hub.port, c.port]
        let writing = Task { for _ in 0..<10 { await Self.writeRound(to: survivors, acknowledged) } }
        // Kill moment: B dies wherever it is in its replication; any moment is valid, and every
        // check below holds whatever B was doing.
        try await Task.sleep(for: .milliseconds(40))
        await b.killNow()
        await writing.value
        b = try await ServeProcess(store: stores[1], tokens: tokens, port: bPort, arguments: peerArguments)
        nodes[1] = b
        for _ in 0..<10 { await Self.writeRound(to: nodes.map(\.port), acknowledged) }

        // All converge: the same version vector everywhere.
        let ids = acknowledged.ids.map { $0.uuidString.lowercased() }
        #expect(ids.count >= 35 * 20 * 2)
        let vectors = try await Self.converged(nodes)
        #expect(Set(vectors).count == 1, "the nodes did not converge: \(vectors)")

        // Every acknowledged save is on every node, once.
        for node in nodes {
            let listed = try await Self.stepIDs(port: node.port)
            #expect(listed.count == Set(listed).count, "a sample is listed twice")
            let missing = Set(ids).subtracting(listed)
            #expect(
                missing.isEmpty,
                "node on \(node.port) lacks \(missing.count) of \(ids.count); lists \(listed.count)"
            )
        }

        // No node re-received more than one batch it already had.
        for node in nodes {
            let redundant = try await Self.redundantBatches(port: node.port)
            #expect(redundant <= 1, "the node on \(node.port) re-received \(redundant) batches")
        }
        for node in nodes { #expect(await node.terminate() == 0, "\(node.standardError)") }
    }

    /// A temporary directory with a tokens file (the owner's token and the
    /// peers' replication token) and three store paths.
    static func clusterFiles() throws -> (directory: URL, tokens: URL, stores: [URL]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-sync-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tokens = directory.appendingPathComponent("tokens.json")
        let file =
            #"{"tokens":[{"token":"\#(ServeProcessTests.token)","owner":true},"#
            + #"{"token":"\#(Self.peerToken)","replicate":true}]}"#
        try Data(file.utf8).write(to: tokens)
        return (directory, tokens, (0..<3).map { directory.appendingPathComponent("store-\($0)") })
    }

    /// Waits until every node reports the same version vector (a guard of
    /// a few minutes against nodes that never converge); returns the last
    /// vectors read.
    static func converged(_ nodes: [ServeProcess]) async throws -> [String] {
        var vectors: [String] = []
        do {
            try await waitUntil("the nodes report one version vector", timeout: 180) {
                vectors = []
                for node in nodes { vectors.append(try await versionVector(port: node.port)) }
                return Set(vectors).count == 1
            }
        } catch is WaitTimeout {
            // The caller's expectation shows the vectors that differ.
        }
        return vectors
    }

    /// Saves 20 samples on each node at once; records what was acknowledged.
    static func writeRound(to ports: [Int], _ acknowledged: Acknowledged) async {
        await withTaskGroup(of: [UUID]?.self) { group in
            for port in ports {
                // A guard against a node that hangs: a slow save is still acknowledged.
                group.addTask { await ServeProcessTests.save(count: 20, port: port, timeout: .seconds(120)) }
            }
            for await ids in group { acknowledged.add(ids ?? []) }
        }
    }

    final class Acknowledged: Sendable {
        private let state = Mutex<[UUID]>([])
        func add(_ ids: [UUID]) { state.withLock { $0 += ids } }
        var ids: [UUID] { state.withLock { $0 } }
    }

    static func get(_ path: String, port: Int, token: String = ServeProcessTests.token) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 64 << 20)
        return try JSONSerialization.jsonObject(with: Data(Array(buffer: body))) as? [String: Any] ?? [:]
    }

    static func versionVector(port: Int) async throws -> String {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/sync/identity")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(peerToken)")
        let asker =
            #"{"protocolVersion":1,"storeID":"\#(UUID().uuidString.lowercased())","incarnation":1,"head":0,"versionVector":{}}"#
        request.body = .bytes(ByteBuffer(string: asker))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = try JSONSerialization.jsonObject(with: Data(Array(buffer: body))) as? [String: Any]
        let vector = object?["versionVector"] as? [String: Any] ?? [:]
        return vector.keys.sorted().map { "\($0)=\(vector[$0] ?? 0)" }.joined(separator: ",")
    }

    static func stepIDs(port: Int) async throws -> [String] {
        let page = try await get("/v1/samples?type=stepCount&limit=10000", port: port)
        return (page["samples"] as? [[String: Any]] ?? []).compactMap { ($0["uuid"] as? String)?.lowercased() }
    }

    static func redundantBatches(port: Int) async throws -> Int {
        let peers = try await get("/v1/peers", port: port)
        let pulled = (peers["peers"] as? [[String: Any]] ?? []).reduce(0) { $0 + ($1["redundantBatches"] as? Int ?? 0) }
        let pushed = (peers["pushesReceived"] as? [String: Any])?["redundantBatches"] as? Int ?? 0
        return pulled + pushed
    }
}

extension SyncProcessTests {
    @Test(
        "A full mesh with sync-identifier writers and deletes converges: feeds from the start agree, audit verify passes",
        arguments: testSeeds([0x3E5F])
    )
    func meshWithSyncIdentifiers(seed: UInt64) async throws {
        let (directory, tokens, stores) = try Self.clusterFiles()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Sync is two-way: B with A, C with A and B make every pair a link.
        let a = try await ServeProcess(store: stores[0], tokens: tokens)
        let peerA = ["--peer", "http://127.0.0.1:\(a.port)", "--peer-token", Self.peerToken]
        let b = try await ServeProcess(store: stores[1], tokens: tokens, arguments: peerA)
        let c = try await ServeProcess(
            store: stores[2],
            tokens: tokens,
            arguments: peerA + ["--peer", "http://127.0.0.1:\(b.port)"]
        )
        let nodes = [a, b, c]
        // The writes come from the seed; how the nodes interleave them does not.
        var random = SeededGenerator(seed: seed)
        var saved: [[UUID]] = [[], [], []]
        for round in 0..<12 {
            // Each node replaces the same few sync identifiers at once, with versions that collide.
            let ids = try await withThrowingTaskGroup(of: (Int, [UUID]).self) { group in
                for (index, node) in nodes.enumerated() {
                    let body = (0..<8).map { item in
                        Self.syncStepJSON(
                            uuid: UUID.random(using: &random),
                            identifier: "walk-\(item % 4)",
                            version: Int.random(in: 0..<6, using: &random),
                            minute: round * 10 + item
                        )
                    }
                    group.addTask {
                        var request = HTTPClientRequest(url: "http://127.0.0.1:\(node.port)/v1/samples")
                        request.method = .POST
                        request.headers.add(name: "Authorization", value: "Bearer \(ServeProcessTests.token)")
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string: "[" + body.map(\.json).joined(separator: ",") + "]"))
                        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                        return (index, response.status == .created ? body.map(\.uuid) : [])
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            for (index, list) in ids { saved[index] += list }
            // And deletes one of its own now and then.
            for (index, node) in nodes.enumerated() where round % 3 == index {
                guard let victim = saved[index].randomElement(using: &random) else { continue }
                var request = HTTPClientRequest(
                    url: "http://127.0.0.1:\(node.port)/v1/samples/\(victim.uuidString)"
                )
                request.method = .DELETE
                request.headers.add(name: "Authorization", value: "Bearer \(ServeProcessTests.token)")
                _ = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
            }
        }
        let vectors = try await Self.converged(nodes)
        #expect(Set(vectors).count == 1, "the nodes did not converge: \(vectors)")

        // A feed from the start: each object once, the same on every node.
        var feeds: [(added: [String], deleted: [String])] = []
        for node in nodes {
            var added: [String] = []
            var deleted: [String] = []
            var since = ""
            while true {
                let page = try await Self.get("/v1/changes?types=stepCount&limit=7\(since)", port: node.port)
                let pageAdded = (page["added"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
                let pageDeleted = (page["deleted"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
                added += pageAdded
                deleted += pageDeleted
                since = "&since=\(page["newAnchor"] as? String ?? "")"
                if pageAdded.isEmpty && pageDeleted.isEmpty { break }
            }
            #expect(Set(deleted).count == deleted.count, "node \(node.port) reports an object deleted twice")
            #expect(Set(added).isDisjoint(with: deleted), "node \(node.port) reports an object added and deleted")
            feeds.append((added.sorted(), deleted.sorted()))
        }
        #expect(feeds[0].added == feeds[1].added && feeds[1].added == feeds[2].added)
        #expect(feeds[0].deleted == feeds[1].deleted && feeds[1].deleted == feeds[2].deleted)
        #expect(!feeds[0].deleted.isEmpty, "replacements and deletes happened")

        for node in nodes { #expect(await node.terminate() == 0, "\(node.standardError)") }
        // audit verify on every store: projections equal a replay of the log.
        for store in stores {
            let (status, output) = try await runAnchorage(["audit", "verify", "--store", store.path])
            #expect(status == 0, "audit verify on \(store.lastPathComponent): \(output)")
        }
    }

    static func syncStepJSON(uuid: UUID, identifier: String, version: Int, minute: Int) -> (uuid: UUID, json: String) {
        let start = Date(timeIntervalSince1970: 1_717_225_200 + Double(minute) * 60)
        let end = start.addingTimeInterval(60)
        let json = """
            {"kind":"quantitySample","uuid":"\(uuid.uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
            "startDate":"\(start.formatted(.iso8601))","endDate":"\(end.formatted(.iso8601))",\
            "quantity":{"unit":"count","value":\(minute)},\
            "metadata":{"HKMetadataKeySyncIdentifier":{"string":"\(identifier)"},\
            "HKMetadataKeySyncVersion":{"integer":\(version)}}}
            """
        return (uuid, json)
    }
}
