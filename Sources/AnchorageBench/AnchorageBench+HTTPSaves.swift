import Anchorage
import AnchorageServer
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension AnchorageBench {
    /// Saves over HTTP: 64 clients in this process post 10-sample batches
    /// to a node on an empty, durable store, all at once; samples per
    /// second, and the 99th percentile of a request's latency. Then the
    /// same answered only once a replica holds each save; and both again at
    /// a steady rate below either's capacity, where the replica's
    /// acknowledgement is what the latency adds (at saturation the replica,
    /// applying every save again on the same two cores, also halves what
    /// the machine has left for the primary).
    func runHTTPSaveBenchmarks(work: URL, report: inout Report) async throws {
        let clients = 64
        let requestsPerClient = max(1, min(samples, 1_000_000) / clients / 10 / 4)
        let rate = Self.steadyPostRate
        let seconds = max(2, min(10, samples / 20_000))
        let measured = try await eachRun { run in
            progress("HTTP saves run \(run)/\(runs): \(clients) clients × \(requestsPerClient) posts of 10")
            let single = try await Self.withNode(work.appendingPathComponent("http-saves-\(run)")) { port in
                try await Self.saveLoad(clients: clients, requests: requestsPerClient) {
                    try await Self.postSteps(port: port, client: $0, request: $1)
                }
            }
            progress("HTTP saves run \(run)/\(runs): \(rate) posts/s for \(seconds) s")
            let singleSteady = try await Self.withNode(work.appendingPathComponent("http-steady-\(run)")) { port in
                try await Self.steadyLoad(rate: rate, seconds: seconds) {
                    try await Self.postSteps(port: port, client: $0 % clients, request: $0 / clients)
                }
            }
            progress("HTTP saves run \(run)/\(runs), answered once a replica holds them")
            let replicated = try await Self.withReplicatedNode(work, "http-replicated-\(run)") { port in
                try await Self.saveLoad(clients: clients, requests: requestsPerClient) {
                    try await Self.postSteps(port: port, client: $0, request: $1)
                }
            }
            progress("HTTP saves run \(run)/\(runs), answered once a replica holds them: \(rate) posts/s")
            let replicatedSteady = try await Self.withReplicatedNode(work, "http-replicated-steady-\(run)") { port in
                try await Self.steadyLoad(rate: rate, seconds: seconds) {
                    try await Self.postSteps(port: port, client: $0 % clients, request: $0 / clients)
                }
            }
            return (single, singleSteady, replicated, replicatedSteady)
        }
        report.add(.httpSaves(clients: clients), anchorage: measured.map(\.0.rate))
        report.add(.httpSaveLatency, anchorage: measured.map(\.0.tail))
        report.add(
            .httpReplicatedSaves,
            anchorage: measured.map(\.2.rate),
            baseline: measured.map(\.0.rate)
        )
        report.add(
            .httpReplicatedSaturatedLatency,
            anchorage: measured.map { $0.2.tail - $0.0.tail }
        )
        report.add(.httpSteadyLatency(rate: rate), anchorage: measured.map(\.1.tail))
        report.add(
            .httpReplicatedSaveLatency(rate: rate),
            anchorage: measured.map { $0.3.tail - $0.1.tail }
        )
        report.add(
            .httpReplicatedSteadyMedian(rate: rate),
            anchorage: measured.map { $0.3.median - $0.1.median }
        )
        try await runWrkSaveBenchmarks(work: work, report: &report)
    }

    /// The rate of the steady-load rows: posts of 10 samples a second.
    static let steadyPostRate = 500

    /// Runs `body` with the port of a new node on an empty store at
    /// `directory`; stops the node and removes the store afterwards.
    static func withNode<R>(
        _ directory: URL,
        _ configure: (inout NodeConfiguration) -> Void = { _ in },
        _ body: (Int) async throws -> R
    ) async throws -> R {
        let node = try await BenchNode.start(at: directory, configure)
        let outcome = await Result(catchingAsync: { try await body(node.port) })
        try await node.stop()
        try? FileManager.default.removeItem(at: directory)
        return try outcome.get()
    }

    /// Runs `body` with the port of a node that answers a save only once a
    /// replica holds it, with a second node following it live; measured
    /// once the replica follows (until then, writes are refused).
    static func withReplicatedNode<R>(_ work: URL, _ name: String, _ body: (Int) async throws -> R) async throws -> R {
        let primaryDirectory = work.appendingPathComponent(name)
        let acknowledging: (inout NodeConfiguration) -> Void = { $0.replicaAcknowledgement = .seconds(30) }
        return try await withNode(primaryDirectory, acknowledging) { port in
            let replicaDirectory = work.appendingPathComponent(name + "-replica")
            let following: (inout NodeConfiguration) -> Void = { configuration in
                configuration.peers = [PeerConfiguration(url: URL(string: "http://127.0.0.1:\(port)")!)]
            }
            return try await withNode(replicaDirectory, following) { _ in
                let deadline = ContinuousClock.now + .seconds(60)
                while (try? await postSteps(port: port, client: 1_000, request: 0)) == nil {
                    guard ContinuousClock.now < deadline else {
                        throw BenchFailure(message: "the replica never followed")
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                return try await body(port)
            }
        }
    }

    /// Posts 10 step samples; throws unless they are saved.
    static func postSteps(
        port: Int,
        client: Int,
        request number: Int,
        token: String? = nil,
        path: String = "/v1/samples"
    ) async throws {
        let base = Date(timeIntervalSince1970: 1_717_200_000 + Double(client) * 86_400 * 365)
        let body = (0..<10).map { index in
            let start = base.addingTimeInterval(Double(number * 10 + index) * 60)
            return """
                {"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
                "startDate":"\(start.formatted(.iso8601))","endDate":"\(start.addingTimeInterval(60).formatted(.iso8601))",\
                "quantity":{"unit":"count","value":\(index + 1)}}
                """
        }
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(string: "[" + body.joined(separator: ",") + "]"))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        guard response.status == .created else {
            throw BenchFailure(message: "a POST \(path) got \(response.status)")
        }
    }
}
