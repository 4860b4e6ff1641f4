import Anchorage
import AnchorageServer
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A raw TCP connection to the node, for clients that misbehave.
final class RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A tiny receive buffer, so that a client that never reads fills it at once.
        var size: Int32 = 1_024
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw ServeFailure(description: "connect failed: \(errno)") }
    }

    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    deinit { close(descriptor) }
}

@Suite("HTTP API: one bad client cannot stall the others")
struct ServerFairnessTests {
    @Test("a stream nobody reads, and a request never finished, leave saves and pages of others unaffected")
    func misbehavingClients() async throws {
        // The clock never moves: the unfinished request is never cut off.
        let clock = HandClock()
        try await withNode(configuration: nodeConfiguration { $0.clock = clock.store }) { node, _ in
            try await clock.live(node) { client in
                let port = try #require(client.port)
                // Enough history that the stream's first pages overflow every buffer on the way.
                for batch in 0..<10 {
                    let body = (0..<200).map { index in
                        let start = Date(timeIntervalSince1970: 1_717_200_000 + Double(batch * 200 + index) * 60)
                        return stepJSON(
                            1,
                            start: start.formatted(.iso8601),
                            end: start.addingTimeInterval(60).formatted(.iso8601)
                        )
                    }.joined(separator: ",")
                    #expect(try await client.send(.post, "/v1/samples", json: "[\(body)]").status == .created)
                }
                // A consumer that asks for the stream and never reads it.
                let stuck = try RawConnection(port: port)
                stuck.send("GET /v1/changes?types=stepCount&stream=ndjson&limit=100 HTTP/1.1\r\nHost: x\r\n\r\n")
                // A client that never finishes its request.
                let slow = try RawConnection(port: port)
                slow.send(
                    "POST /v1/samples HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n["
                )
                // Both are in: the stream counts as a feed client, and the
                // unfinished body's timer waits on the clock (10 s of grace,
                // and 1/1024 s for its one byte, once that is read).
                try await waitUntil("the stuck stream and the unfinished body in") {
                    let metrics = try await client.send(.get, "/metrics")
                    return metricValue("anchorage_feed_clients", in: metrics.text) == 1
                        && clock.clock.remaining.contains { $0 >= .seconds(10) && $0 <= .seconds(11) }
                }

                for index in 0..<50 {
                    let start = Date(timeIntervalSince1970: 1_717_000_000 + Double(index) * 60)
                    let sample = stepJSON(
                        2,
                        start: start.formatted(.iso8601),
                        end: start.addingTimeInterval(60).formatted(.iso8601)
                    )
                    #expect(try await client.send(.post, "/v1/samples", json: "[\(sample)]").status == .created)
                    let page = try await client.send(.get, "/v1/changes?types=stepCount&limit=10")
                    #expect(page.status == .ok)
                }
                let feed = try await client.send(.get, "/v1/samples?type=stepCount&limit=10000")
                #expect(try #require(try feed.object["samples"] as? [Any]).count == 2_050)
                // Had either stalled the node, the requests above would never
                // have been answered: the clock never moved, so nothing cut
                // the two clients off meanwhile.
                #expect(clock.now == .zero)
                let metrics = try await client.send(.get, "/metrics")
                #expect(metricValue("anchorage_feed_clients", in: metrics.text) == 1, "the stuck stream is still there")
                withExtendedLifetime((stuck, slow)) {}
            }
        }
    }
}
