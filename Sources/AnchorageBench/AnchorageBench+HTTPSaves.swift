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
        var rates: [Double] = []
        var tails: [Double] = []
        for run in 1...runs {
            progress("HTTP saves run \(run)/\(runs): \(clients) clients × \(requestsPerClient) posts of 10")
            let directory = work.appendingPathComponent("http-saves-\(run)")
            let (node, port, serving) = try await Self.startNode(at: directory)
            let start = ContinuousClock.now
            let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
                for client in 0..<clients {
                    group.addTask {
                        var latencies: [Double] = []
                        for request in 0..<requestsPerClient {
                            let began = ContinuousClock.now
                            try await Self.postSteps(port: port, client: client, request: request)
                            latencies.append((ContinuousClock.now - began).seconds)
                        }
                        return latencies
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let elapsed = (ContinuousClock.now - start).seconds
            rates.append(Double(latencies.count * 10) / elapsed)
            let sorted = latencies.sorted()
            tails.append(sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))] * 1_000)
            await node.stop()
            try await serving.value
            await node.close()
            try? FileManager.default.removeItem(at: directory)
        }
        report.add(
            name: "HTTP saves: \(clients) in-process clients posting 10-sample batches, durable",
            unit: "samples/s",
            anchorage: rates,
            baseline: [],
            goal: .valueAtLeast(50_000)
        )
        report.add(
            name: "HTTP saves: 99th percentile latency of one 10-sample post",
            unit: "ms",
            anchorage: tails,
            baseline: [],
            goal: .valueAtMost(50)
        )
    }

    /// Posts 10 step samples; throws unless they are saved.
    static func postSteps(port: Int, client: Int, request number: Int, token: String? = nil) async throws {
        let base = Date(timeIntervalSince1970: 1_717_200_000 + Double(client) * 86_400 * 365)
        let body = (0..<10).map { index in
            let start = base.addingTimeInterval(Double(number * 10 + index) * 60)
            return """
                {"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
                "startDate":"\(start.formatted(.iso8601))","endDate":"\(start.addingTimeInterval(60).formatted(.iso8601))",\
                "quantity":{"unit":"count","value":\(index + 1)}}
                """
        }
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/samples")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        request.body = .bytes(ByteBuffer(string: "[" + body.joined(separator: ",") + "]"))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        guard response.status == .created else {
            throw BenchFailure(message: "a POST /v1/samples got \(response.status)")
        }
    }

    /// Starts a node on `directory` on a port of its choosing; stop it with
    /// `node.stop()`, then wait for `serving`.
    static func startNode(
        at directory: URL,
        _ configure: (inout NodeConfiguration) -> Void = { _ in }
    ) async throws -> (node: AnchorageNode, port: Int, serving: Task<Void, any Error>) {
        var configuration = NodeConfiguration()
        configuration.port = 0
        configure(&configuration)
        let node = try await AnchorageNode(directory: directory, configuration: configuration)
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let serving = Task { try await node.run { port in portContinuation.yield(port) } }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw BenchFailure(message: "the node did not start") }
        return (node, port, serving)
    }
}
