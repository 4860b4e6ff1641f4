import Anchorage
import AnchorageServer
import AnchorageTesting
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("HTTP API: bodies with broken HTTP framing")
struct ServerFramingTests {
    @Test("a malformed chunked body is 400 badRequest naming the framing, the connection closes, nothing is stored")
    func malformedChunks() async throws {
        try await withNode { node, directory in
            try await node.application().test(.live) { client in
                let port = try #require(client.port)
                let routes = [
                    ("/v1/samples", "application/json"),
                    ("/v1/sync/push", "application/vnd.anchorage.batch"),
                ]
                // A chunk size that is not hexadecimal, and a chunk longer than it says.
                for (path, type) in routes {
                    for framing in ["zz\r\n", "1\r\n[x\r\n"] {
                        let raw = try await RawClient.connect(port: port)
                        await raw.send(
                            "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: \(type)\r\n"
                                + "Transfer-Encoding: chunked\r\n\r\n\(framing)"
                        )
                        try await raw.waitUntil("\(path) answered and closed") { $0.body != nil && $0.isClosed }
                        #expect(raw.status == 400, "\(path): \(raw.received)")
                        let body = try #require(raw.body)
                        let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                        #expect(object?["code"] as? String == "badRequest", "\(path): \(body)")
                        #expect((object?["message"] as? String)?.contains("chunked") == true, "\(path): \(body)")
                        #expect(raw.head?.contains("connection: close") == true, "\(path): \(raw.received)")
                        await raw.close()
                    }
                }
                let listed = try await client.send(.get, "/v1/samples?type=stepCount")
                #expect(try #require(try listed.object["samples"] as? [Any]).isEmpty)
            }
            try await expectAuditPasses(directory)
        }
    }
}
