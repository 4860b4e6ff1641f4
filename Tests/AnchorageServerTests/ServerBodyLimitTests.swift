import Anchorage
import AnchorageServer
import AnchorageSync
import AnchorageTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: slow and oversized request bodies")
struct ServerBodyLimitTests {
    static let routes = [("/v1/samples", "application/json"), ("/v1/sync/push", "application/vnd.anchorage.batch")]

    /// Sends a request's head and `body` (its first bytes) in one write,
    /// then moves the node's clock to each moment the node's body timer is
    /// set for, until the node closes the connection; returns how far the
    /// clock moved from the head to the close.
    static func cutOff(
        _ raw: RawClient,
        path: String,
        type: String,
        framing: String,
        body: String,
        clock: HandClock
    ) async throws -> Duration {
        let began = clock.now
        await raw.send("POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: \(type)\r\n\(framing)\r\n\r\n\(body)")
        while true {
            try await raw.waitUntil("the node's body timer set, or the connection closed") {
                $0.isClosed || clock.clock.sleeperCount > 0
            }
            if raw.isClosed { return clock.now - began }
            let next = try #require(clock.clock.remaining.first)
            try #require(clock.now - began + next <= .seconds(3_600), "\(path): the body is never cut off")
            clock.advance(by: next)
        }
    }

    /// The first `count` bytes of a body in `framing`: spaces, as one chunk
    /// when chunked.
    static func spaces(_ count: Int, framing: String) -> String {
        let spaces = String(repeating: " ", count: count)
        return framing.hasPrefix("Transfer-Encoding") ? String(count, radix: 16) + "\r\n" + spaces + "\r\n" : spaces
    }

    /// The JSON error code of the raw client's response.
    static func code(_ raw: RawClient) -> String? {
        guard let body = raw.body else { return nil }
        let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return object?["code"] as? String
    }

    @Test("a body slower than the minimum rate is cut off after the grace period: 408, connection closed")
    func belowMinimumRate() async throws {
        let clock = HandClock()
        let configuration = nodeConfiguration {
            $0.minimumBodyRate = 1_024
            $0.bodyRateGracePeriod = .seconds(1)
            $0.clock = clock.store
        }
        try await withNode(configuration: configuration) { node, directory in
            try await clock.live(node) { client in
                let port = try #require(client.port)
                for (path, type) in Self.routes {
                    for framing in ["Transfer-Encoding: chunked", "Content-Length: 100000"] {
                        let raw = try await RawClient.connect(port: port)
                        let after = try await Self.cutOff(
                            raw,
                            path: path,
                            type: type,
                            framing: framing,
                            body: Self.spaces(100, framing: framing),
                            clock: clock
                        )
                        // 100 bytes buy 100/1024 s after the 1-second grace,
                        // long before the 30-second deadline.
                        #expect(after == .seconds(1) + .nanoseconds(97_656_250), "\(path), \(framing)")
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
        let clock = HandClock()
        let configuration = nodeConfiguration {
            $0.bodyTimeout = .seconds(5)
            $0.minimumBodyRate = 1_024
            $0.bodyRateGracePeriod = .seconds(1)
            $0.clock = clock.store
        }
        try await withNode(configuration: configuration) { node, directory in
            try await clock.live(node) { client in
                let port = try #require(client.port)
                for (path, type) in Self.routes {
                    for framing in ["Transfer-Encoding: chunked", "Content-Length: 100000"] {
                        let raw = try await RawClient.connect(port: port)
                        // 8 KiB at once keep the rate for 1 + 8 s: past the 5-second deadline.
                        let after = try await Self.cutOff(
                            raw,
                            path: path,
                            type: type,
                            framing: framing,
                            body: Self.spaces(8_192, framing: framing),
                            clock: clock
                        )
                        #expect(after == .seconds(5), "\(path), \(framing)")
                        #expect(raw.status == 408, "\(path): \(raw.received)")
                        #expect(Self.code(raw) == "requestTimeout", "\(path): \(raw.received)")
                        #expect(raw.body?.contains("within 5 s") == true, "\(path): \(raw.received)")
                        await raw.close()
                    }
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
        let clock = HandClock()
        let configuration = nodeConfiguration {
            $0.clock = clock.store
            $0.maximumBodyBytes = 64 << 10
            $0.syncLimits.maximumBatchBytes = 16 << 10
        }
        try await withNode(configuration: configuration) { node, directory in
            try await clock.live(node) { client in
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
                    try await raw.waitUntil("\(path) \(length) answered and closed") { $0.body != nil && $0.isClosed }
                    #expect(raw.status == 413, "\(path) \(length): \(raw.received)")
                    #expect(Self.code(raw) == "bodyTooLarge", "\(path) \(length): \(raw.received)")
                    #expect(raw.head?.contains("connection: close") == true, "\(path) \(length)")
                    // Refused unread: no timer ran (the clock never moved) and the body never came.
                    #expect(clock.now == .zero, "\(path) \(length)")
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
