import Anchorage
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
            let (elapsed, latencies) = try await timed {
                try await withThrowingTaskGroup(of: [Double].self) { group in
                    for client in 0..<clients {
                        group.addTask {
                            var latencies: [Double] = []
                            for request in 0..<requestsPerClient {
                                let (seconds, _) = try await timed {
                                    try await Self.postSteps(port: node.port, client: client, request: request)
                                }
                                latencies.append(seconds)
                            }
                            return latencies
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
            }
            let sorted = latencies.sorted()
            try await node.stop()
            try? FileManager.default.removeItem(at: directory)
            return (
                rate: Double(latencies.count * 10) / elapsed,
                tail: sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))] * 1_000
            )
        }
        report.add(.httpSaves(clients: clients), anchorage: measured.map(\.rate))
        report.add(.httpSaveLatency, anchorage: measured.map(\.tail))
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
