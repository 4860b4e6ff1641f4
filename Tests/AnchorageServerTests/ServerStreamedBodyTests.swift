import AnchorageServer
import AnchorageTesting
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// `POST /v1/samples` decodes its body while it arrives (`SampleBatch.Reader`):
/// pieces that cut samples anywhere give the same batch, and a body without a
/// declared length is cut off at the route's limit.
@Suite("Sample bodies read as they arrive")
struct ServerStreamedBodyTests {
    /// `text` as one chunk of a chunked body.
    static func chunk(_ text: String) -> String {
        String(text.utf8.count, radix: 16) + "\r\n" + text + "\r\n"
    }

    @Test("a chunked body sent in pieces that split samples is saved whole: 201, every sample listed; audit passes")
    func piecesSaved() async throws {
        let clock = HandClock()
        try await withNode(configuration: nodeConfiguration { $0.clock = clock.store }) { node, directory in
            try await clock.live(node) { client in
                let port = try #require(client.port)
                let uuids = (0..<40).map { _ in UUID() }
                let body = Array(
                    ("[" + uuids.map { stepJSON(1, uuid: $0) }.joined(separator: ",") + "]").utf8
                )
                let raw = try await RawClient.connect(port: port)
                await raw.send(
                    "POST /v1/samples HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n"
                )
                var random = SeededGenerator(seed: 3_404)
                var start = 0
                while start < body.count {
                    let end = min(body.count, start + Int.random(in: 1...300, using: &random))
                    await raw.send(Self.chunk(String(decoding: body[start..<end], as: UTF8.self)))
                    start = end
                }
                await raw.send("0\r\n\r\n")
                try await raw.waitUntil("the save answered") { $0.body != nil }
                #expect(raw.status == 201, "\(raw.received)")
                let answer = try #require(raw.body)
                #expect(answer.contains("\"saved\":40"), "\(answer)")
                await raw.close()
                let listed = try await client.send(.get, "/v1/samples?type=stepCount&limit=100")
                let samples = try #require(try listed.object["samples"] as? [[String: Any]])
                #expect(Set(samples.compactMap { $0["uuid"] as? String }) == Set(uuids.map(\.uuidString)))
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test(
        "a chunked body past the route's limit, no length declared: 413 bodyTooLarge, the connection closes, nothing stored"
    )
    func undeclaredTooLarge() async throws {
        let clock = HandClock()
        let configuration = nodeConfiguration {
            $0.clock = clock.store
            $0.maximumBodyBytes = 4_096
        }
        try await withNode(configuration: configuration) { node, directory in
            try await clock.live(node) { client in
                let port = try #require(client.port)
                let raw = try await RawClient.connect(port: port)
                await raw.send(
                    "POST /v1/samples HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\n"
                )
                // 40 samples of about 330 bytes: the limit falls within the 13th.
                await raw.send(Self.chunk("["))
                for index in 0..<40 {
                    await raw.send(Self.chunk((index == 0 ? "" : ",") + stepJSON(1)))
                    if raw.isClosed { break }
                }
                try await raw.waitUntil("the body refused and the connection closed") { $0.body != nil && $0.isClosed }
                #expect(raw.status == 413, "\(raw.received)")
                #expect(ServerBodyLimitTests.code(raw) == "bodyTooLarge", "\(raw.received)")
                #expect(raw.body?.contains("limit of 4096 bytes") == true, "\(raw.received)")
                await raw.close()
                let listed = try await client.send(.get, "/v1/samples?type=stepCount")
                #expect(try #require(try listed.object["samples"] as? [Any]).isEmpty)
            }
            try await expectAuditPasses(directory)
        }
    }
}
