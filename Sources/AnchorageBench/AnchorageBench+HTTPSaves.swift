import Anchorage
import AnchorageServer
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension AnchorageBench {
    /// Saves over HTTP: 64 clients in this process post 10-sample batches
    /// to a node on an empty, durable store, all at once; samples per
    /// second, and the 99th percentile of a request's latency.
    func runHTTPSaveBenchmarks(work: URL, report: inout Report) async throws {
        let clients = 64
        let requestsPerClient = max(1, min(samples, 1_000_000) / clients / 10 / 4)
        let measured = try await eachRun { run in
            progress("HTTP saves run \(run)/\(runs): \(clients) clients × \(requestsPerClient) posts of 10")
            let directory = work.appendingPathComponent("http-saves-\(run)")
            let node = try await BenchNode.start(at: directory)
            let result = try await Self.saveLoad(clients: clients, requests: requestsPerClient) {
                try await Self.postSteps(port: node.port, client: $0, request: $1)
            }
            try await node.stop()
            try? FileManager.default.removeItem(at: directory)
            // The same, answered only once a replica (a second node, following live) holds each save.
            progress("HTTP saves run \(run)/\(runs), answered once a replica holds them")
            let primaryDirectory = work.appendingPathComponent("http-replicated-\(run)")
            let primary = try await BenchNode.start(at: primaryDirectory) { $0.replicaAcknowledgement = .seconds(30) }
            let replicaDirectory = work.appendingPathComponent("http-replica-\(run)")
            let replica = try await BenchNode.start(at: replicaDirectory) { configuration in
                configuration.peers = [PeerConfiguration(url: URL(string: "http://127.0.0.1:\(primary.port)")!)]
            }
            // Measured once the replica follows: until then, writes are refused.
            let deadline = ContinuousClock.now + .seconds(60)
            while (try? await Self.postSteps(port: primary.port, client: clients, request: 0)) == nil {
                guard ContinuousClock.now < deadline else { throw BenchFailure(message: "the replica never followed") }
                try await Task.sleep(for: .milliseconds(50))
            }
            let replicated = try await Self.saveLoad(clients: clients, requests: requestsPerClient) {
                try await Self.postSteps(port: primary.port, client: $0, request: $1)
            }
            try await replica.stop()
            try await primary.stop()
            try? FileManager.default.removeItem(at: primaryDirectory)
            try? FileManager.default.removeItem(at: replicaDirectory)
            return (single: result, replicated: replicated)
        }
        report.add(.httpSaves(clients: clients), anchorage: measured.map(\.single.rate))
        report.add(.httpSaveLatency, anchorage: measured.map(\.single.tail))
        report.add(
            .httpReplicatedSaves,
            anchorage: measured.map(\.replicated.rate),
            baseline: measured.map(\.single.rate)
        )
        report.add(
            .httpReplicatedSaveLatency,
            anchorage: measured.map { $0.replicated.tail - $0.single.tail }
        )
        try await runWrkSaveBenchmarks(work: work, report: &report)
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
