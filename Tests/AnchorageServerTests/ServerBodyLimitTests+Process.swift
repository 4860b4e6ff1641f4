import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

extension ServerBodyLimitTests {
    @Test(
        "anchorage serve --body-timeout, --min-body-rate, --body-rate-grace, --max-body-bytes: slow and oversized bodies",
        .startsProcesses()
    )
    func serveFlags() async throws {
        try await withOwnerTokens { directory, tokens in try await serveFlags(directory, tokens) }
    }

    private func serveFlags(_ directory: URL, _ tokens: URL) async throws {
        let token = ServeProcessTests.token
        let store = directory.appendingPathComponent("store")
        let flags = [
            "--body-timeout", "2", "--min-body-rate", "1024", "--body-rate-grace", "1", "--max-body-bytes", "4096",
        ]
        let node = try await ServeProcess(store: store, tokens: tokens, arguments: flags)
        let headers = "Host: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"

        // 100 bytes, then nothing: cut off by the rate once its 1-second
        // grace and the 0.1 s the bytes bought have passed, not at the
        // 2-second deadline (the message names the rule). The node's own
        // clock runs here; the exact moments are ServerBodyLimitTests'.
        let slow = try await RawClient.connect(port: node.port)
        await slow.send(
            "POST /v1/samples HTTP/1.1\r\n\(headers)Transfer-Encoding: chunked\r\n\r\n"
                + Self.spaces(100, framing: "Transfer-Encoding: chunked")
        )
        try await slow.waitUntil("the slow body cut off") { $0.isClosed }
        #expect(slow.status == 408, "\(slow.received)")
        #expect(Self.code(slow) == "requestTimeout", "\(slow.received)")
        #expect(slow.body?.contains("slower than 1024 bytes/s (after the first 1 s)") == true, "\(slow.received)")
        await slow.close()

        // More than --max-body-bytes declared: refused before the body.
        let large = try await RawClient.connect(port: node.port)
        await large.send("POST /v1/samples HTTP/1.1\r\n\(headers)Content-Length: 4097\r\n\r\n[")
        try await large.waitUntil("the large body refused") { $0.body != nil && $0.isClosed }
        #expect(large.status == 413, "\(large.received)")
        #expect(Self.code(large) == "bodyTooLarge", "\(large.received)")
        await large.close()

        // A body sent at once is saved.
        #expect(try #require(await ServeProcessTests.save(count: 1, port: node.port)).count == 1)
        #expect(await node.terminate() == 0, "\(node.standardError)")
        let (status, output) = try await runAnchorage(["audit", "verify", "--store", store.path])
        #expect(status == 0, "audit verify: \(output)")

        // Settings that make no sense are usage errors.
        for (wrong, option) in [
            ("--body-timeout=0", "--body-timeout"), ("--min-body-rate=-1", "--min-body-rate"),
            ("--body-rate-grace=-2", "--body-rate-grace"), ("--statistics-rate=-1", "--statistics-rate"),
            ("--write-rate=-5", "--write-rate"), ("--replica-wait=0", "--replica-wait"),
            ("--replica-wait=4000", "--replica-wait"),
        ] {
            let (code, text) = try await runAnchorage(["serve", "--store", store.path, wrong])
            #expect(code == 2, "\(wrong): \(text)")
            #expect(text.contains(option), "\(wrong): \(text)")
        }
    }
}
