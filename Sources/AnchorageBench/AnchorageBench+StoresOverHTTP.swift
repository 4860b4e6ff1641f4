import Anchorage
import AnchorageService
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Suite `stores`, as an operator's clients drive a node: stores created,
/// given a token and written to over HTTP, round after round (issue 51).
extension AnchorageBench {
    struct HTTPStoresRound {
        var firstWriteMedian: Double
        var firstWriteTail: Double
        var openResident: Double
        var openAnonymous: Double
        var idleResident: Double
        var idleAnonymous: Double
        var coldReadTail: Double
    }

    /// Rounds of `count` stores on one `anchorage serve --stores` process:
    /// each round creates its stores (1,000 to a `POST /v1/stores`), issues
    /// an owner token for each and writes one sample to each, 8 clients at
    /// once (the first write opens the store); reads the node's memory with
    /// the pool full; waits until every store has closed idle and reads it
    /// again; then sends one GET to each of 1,000 of the round's stores, 32
    /// at once, every one of them cold.
    func storesOverHTTP(work: URL, count: Int, rounds: Int) async throws -> [HTTPStoresRound] {
        let root = work.appendingPathComponent("stores-over-http")
        try? FileManager.default.removeItem(at: root)
        defer { try? FileManager.default.removeItem(at: root) }
        let admin = try NodeRegistry(root: root).issueToken(.administrator()).secret
        let node = try ServeProcess.start(
            ["serve", "--stores", root.path, "--port", "0", "--max-open-stores", "1000", "--store-idle", "4"]
        )
        defer { node.stop() }
        try await Self.httpGet(port: node.port, path: "/healthz")
        // The registry's own files stay open.
        let registryFiles = node.descriptors(under: root)
        var results: [HTTPStoresRound] = []
        for round in 0..<rounds {
            let names = (0..<count).map { String(format: "r%d-%06d", round, $0) }
            progress("stores over HTTP, round \(round + 1)/\(rounds): creating \(count) stores, a token each")
            for first in stride(from: 0, to: count, by: 1_000) {
                let ids = names[first..<min(first + 1_000, count)]
                _ = try await Self.httpSend(
                    port: node.port,
                    "POST",
                    "/v1/stores",
                    token: admin,
                    body: ["ids": Array(ids)]
                )
            }
            var tokens: [String] = []
            for name in names {
                let answer = try await Self.httpSend(
                    port: node.port,
                    "POST",
                    "/v1/stores/\(name)/tokens",
                    token: admin,
                    body: ["owner": true]
                )
                guard let secret = answer["secret"] as? String else {
                    throw BenchFailure(message: "no token secret for \(name)")
                }
                tokens.append(secret)
            }
            progress("stores over HTTP, round \(round + 1)/\(rounds): one sample to each store, 8 clients")
            // The bodies are made before the clock starts, as a load
            // generator's are: the figure is the node's, not this process's
            // date formatting.
            let formatter = ISO8601DateFormatter()
            let bodies: [Data] = try names.indices.map { index in
                let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index * 60))
                let sample: [String: Any] = [
                    "kind": "quantitySample", "uuid": UUID().uuidString, "type": "HKQuantityTypeIdentifierStepCount",
                    "startDate": formatter.string(from: start),
                    "endDate": formatter.string(from: start.addingTimeInterval(60)),
                    "quantity": ["value": 20 + index % 90, "unit": "count"],
                ]
                return try JSONSerialization.data(withJSONObject: [sample])
            }
            let secrets = tokens
            let writes = try await Self.concurrently(names.indices, width: 8) { index in
                _ = try await Self.httpSend(
                    port: node.port,
                    "POST",
                    "/v1/stores/\(names[index])/samples",
                    token: secrets[index],
                    body: bodies[index]
                )
            }
            let openResident = Double(ProcessMemory.statusBytes("VmRSS:", process: node.pid)) / 1e6
            let openAnonymous = Double(ProcessMemory.statusBytes("RssAnon:", process: node.pid)) / 1e6
            progress("stores over HTTP, round \(round + 1)/\(rounds): waiting for every store to close idle")
            let deadline = ContinuousClock.now + .seconds(60)
            while node.descriptors(under: root) > registryFiles {
                guard ContinuousClock.now < deadline else {
                    throw BenchFailure(message: "the stores did not close within 60 s of their last request")
                }
                try await Task.sleep(for: .milliseconds(250))
            }
            // The pool gives freed memory back after the sweep that closed them.
            try await Task.sleep(for: .seconds(3))
            let idleResident = Double(ProcessMemory.statusBytes("VmRSS:", process: node.pid)) / 1e6
            let idleAnonymous = Double(ProcessMemory.statusBytes("RssAnon:", process: node.pid)) / 1e6
            progress("stores over HTTP, round \(round + 1)/\(rounds): a GET to each of 1,000 cold stores, 32 at once")
            let reads = try await Self.concurrently(Array(names.indices.prefix(1_000)), width: 32) { index in
                try await Self.httpGet(
                    port: node.port,
                    path: "/v1/stores/\(names[index])/samples?type=stepCount&limit=10",
                    token: secrets[index]
                )
            }
            results.append(
                HTTPStoresRound(
                    firstWriteMedian: Self.percentile(writes, 0.5),
                    firstWriteTail: Self.percentile(writes, 0.99),
                    openResident: openResident,
                    openAnonymous: openAnonymous,
                    idleResident: idleResident,
                    idleAnonymous: idleAnonymous,
                    coldReadTail: Self.percentile(reads, 0.99)
                )
            )
        }
        return results
    }

    /// Runs `body` for each of `items`, `width` at a time: each call's
    /// milliseconds.
    static func concurrently(
        _ items: some Collection<Int> & Sendable,
        width: Int,
        _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> [Double] {
        try await withThrowingTaskGroup(of: Double.self) { group in
            var latencies: [Double] = []
            for (position, item) in items.enumerated() {
                if position >= width, let latency = try await group.next() { latencies.append(latency) }
                group.addTask {
                    let (seconds, _) = try await timed { try await body(item) }
                    return seconds * 1_000
                }
            }
            for try await latency in group { latencies.append(latency) }
            return latencies
        }
    }

    /// A request with a JSON body (a value to serialize, or its bytes as
    /// `Data`) that must answer 2xx; its JSON answer (an empty dictionary
    /// for none).
    static func httpSend(
        port: Int,
        _ method: String,
        _ path: String,
        token: String,
        body: Any
    ) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .RAW(value: method)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        let sent = try (body as? Data) ?? JSONSerialization.data(withJSONObject: body)
        request.body = .bytes(ByteBuffer(bytes: sent))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let answer = try await response.body.collect(upTo: 1 << 20)
        guard (200..<300).contains(Int(response.status.code)) else {
            throw BenchFailure(message: "\(method) \(path) got \(response.status): \(String(buffer: answer))")
        }
        let bytes = answer.getBytes(at: answer.readerIndex, length: answer.readableBytes) ?? []
        guard !bytes.isEmpty else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }
}
