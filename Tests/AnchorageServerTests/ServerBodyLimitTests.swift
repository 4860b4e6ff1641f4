import Anchorage
import AnchorageServer
import AnchorageSync
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: slow and oversized request bodies")
struct ServerBodyLimitTests {
    static let routes = [("/v1/samples", "application/json"), ("/v1/sync/push", "application/vnd.anchorage.batch")]

    /// Trickles a body, one byte every `interval`, until the node closes the
    /// connection or `limit` passes.
    static func trickle(
        _ raw: RawClient,
        path: String,
        type: String,
        framing: String,
        every interval: Duration,
        limit: Duration
    ) async {
        await raw.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: \(type)\r\n\(framing)\r\n\r\n")
        let chunked = framing.hasPrefix("Transfer-Encoding")
        let began = ContinuousClock.now
        while raw.closedAfter == nil, ContinuousClock.now - began < limit {
            await raw.send(chunked ? "1\r\n \r\n" : " ")
            await raw.wait(upTo: interval) { $0.closedAfter != nil }
        }
    }

    /// The JSON error code of the raw client's response.
    static func code(_ raw: RawClient) -> String? {
        guard let body = raw.body else { return nil }
        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return object?["code"] as? String
    }

    @Test("a body slower than the minimum rate is cut off after the grace period: 408, connection closed")
    func belowMinimumRate() async throws {
        let configuration = nodeConfiguration {
            $0.minimumBodyRate = 1_024
            $0.bodyRateGracePeriod = .seconds(1)
        }
        try await withNode(configuration: configuration) { node, directory in
            try await node.application().test(.live) { client in
                let port = try #require(client.port)
                for (path, type) in Self.routes {
                    for framing in ["Transfer-Encoding: chunked", "Content-Length: 100000"] {
                        let raw = try await RawClient.connect(port: port)
                        await Self.trickle(
                            raw,
                            path: path,
                            type: type,
                            framing: framing,
                            every: .milliseconds(300),
                            limit: .seconds(15)
                        )
                        let closed = try #require(raw.closedAfter, "\(path), \(framing): never cut off")
                        // Cut at the rate check, long before the 30-second deadline.
                        #expect(closed >= .seconds(1) && closed < .seconds(10), "\(path), \(framing): \(closed)")
                        #expect(raw.status == 408, "\(path), \(framing): \(raw.received)")
                        #expect(Self.code(raw) == "requestTimeout", "\(path), \(framing): \(raw.received)")
                        #expect(raw.head?.contains("connection: close") == true, "\(path), \(framing)")
                        #expect(raw.body?.contains("slower than 1024 bytes/s") == true, "\(path): \(raw.received)")
                        await raw.close()
                    }
                }
                let listed = try await client.send(.get, "/v1/samples?type=stepCount")
                #expect(try #require(try listed.object["samples"] as? [Any]).isEmpty)
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("a body that keeps up the rate but outlasts the body deadline is cut at the deadline: 408")
    func pastTheDeadline() async throws {
        let configuration = nodeConfiguration {
            $0.bodyTimeout = .seconds(2)
            $0.minimumBodyRate = 1
            // Only a body with nothing at all for 1.9 s falls below the rate: a
            // loaded machine can hold the trickling client back for a second.
            $0.bodyRateGracePeriod = .milliseconds(1_900)
        }
        try await withNode(configuration: configuration) { node, directory in
            try await node.application().test(.live) { client in
                let port = try #require(client.port)
                for (path, type) in Self.routes {
                    let raw = try await RawClient.connect(port: port)
                    await Self.trickle(
                        raw,
                        path: path,
                        type: type,
                        framing: "Content-Length: 100000",
                        every: .milliseconds(100),
                        limit: .seconds(15)
                    )
                    let closed = try #require(raw.closedAfter, "\(path): never cut off")
                    #expect(closed >= .seconds(2) && closed < .seconds(10), "\(path): \(closed)")
                    #expect(raw.status == 408, "\(path): \(raw.received)")
                    #expect(Self.code(raw) == "requestTimeout", "\(path): \(raw.received)")
                    #expect(raw.body?.contains("within 2 s") == true, "\(path): \(raw.received)")
                    await raw.close()
                }
                // A body that arrives in time is unaffected, on the same node.
                let saved = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1))]")
                #expect(saved.status == .created)
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("a declared Content-Length over the route's limit is 413 at once, before the body; the connection closes")
    func declaredLengthTooLarge() async throws {
        let configuration = nodeConfiguration {
            $0.maximumBodyBytes = 64 << 10
            $0.syncLimits.maximumBatchBytes = 16 << 10
        }
        try await withNode(configuration: configuration) { node, directory in
            try await node.application().test(.live) { client in
                let port = try #require(client.port)
                // 32 KiB is within the samples limit, over the sync batch limit.
                let cases = [
                    ("/v1/samples", "application/json", 1_000_000_000_000),
                    ("/v1/sync/push", "application/vnd.anchorage.batch", 1_000_000_000_000),
                    ("/v1/sync/push", "application/vnd.anchorage.batch", 32 << 10),
                ]
                for (path, type, length) in cases {
                    let raw = try await RawClient.connect(port: port)
                    await raw.send(
                        "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: \(type)\r\nContent-Length: \(length)\r\n\r\n["
                    )
                    let answered = await raw.wait(upTo: .seconds(5)) { $0.body != nil && $0.closedAfter != nil }
                    #expect(answered, "\(path) \(length): \(raw.received)")
                    #expect(raw.status == 413, "\(path) \(length): \(raw.received)")
                    #expect(Self.code(raw) == "bodyTooLarge", "\(path) \(length): \(raw.received)")
                    #expect(raw.head?.contains("connection: close") == true, "\(path) \(length)")
                    #expect((raw.closedAfter ?? .seconds(60)) < .seconds(5), "\(path) \(length): refused unread")
                    await raw.close()
                }
                // The same 32 KiB (JSON padded with spaces) is saved on /v1/samples.
                let sample = "[\(stepJSON(1))]"
                let padded = sample + String(repeating: " ", count: (32 << 10) - sample.utf8.count)
                let saved = try await client.send(.post, "/v1/samples", json: padded)
                #expect(saved.status == .created, "\(saved.text)")
            }
            try await expectAuditPasses(directory)
        }
    }
}
