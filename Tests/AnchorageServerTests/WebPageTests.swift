import Anchorage
import AnchorageServer
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import AnchorageServer

/// The web page the node serves at `/` and its sign-in (docs/http-api.md,
/// "The web page"); Scripts/browser-test drives the page itself in Chromium.
@Suite("The web page and its sign-in")
struct WebPageTests {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func expectPageHeaders(
        _ response: TestResponse,
        _ type: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.headers[.contentSecurityPolicy] == policy, sourceLocation: sourceLocation)
        #expect(response.headers[.xContentTypeOptions] == "nosniff", sourceLocation: sourceLocation)
        #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer", sourceLocation: sourceLocation)
        #expect(response.headers[.contentType]?.hasPrefix(type) == true, sourceLocation: sourceLocation)
        #expect(response.headers[.cacheControl] == "no-cache", sourceLocation: sourceLocation)
        #expect(response.headers[.eTag]?.hasPrefix("\"") == true, sourceLocation: sourceLocation)
    }

    @Test("/ and every file of Web/ are served without a token, with their types, the CSP and an ETag")
    func assets() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            try await node.application().test(.router) { client in
                let page = try await client.send(.get, "/")
                #expect(page.status == .ok)
                Self.expectPageHeaders(page, "text/html")
                #expect(page.text.contains(#"<script type="module" src="/web/app.js"></script>"#))
                // No inline script or style: the policy would refuse them.
                #expect(
                    !page.text.contains("<script>") && !page.text.contains("<style") && !page.text.contains("style=")
                )
                for (name, type) in [
                    ("app.js", "text/javascript"), ("app.css", "text/css"), ("icon.svg", "image/svg+xml"),
                    ("charts.js", "text/javascript"), ("feed.js", "text/javascript"),
                ] {
                    let asset = try await client.send(.get, "/web/\(name)")
                    #expect(asset.status == .ok, "\(name)")
                    Self.expectPageHeaders(asset, type)
                    // The bytes of Web/ themselves, as the binary embeds them.
                    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Web/\(name)")
                    #expect(asset.text == (try String(contentsOf: source, encoding: .utf8)), "\(name)")
                }
                let missing = try await client.send(.get, "/web/nothing.js")
                #expect(missing.status == .notFound && missing.errorCode == "notFound")
            }
        }
    }

    @Test("a request naming the file's ETag is 304 without a body; another ETag gets the file")
    func revalidation() async throws {
        try await withNode { node, _ in
            try await node.application().test(.router) { client in
                let first = try await client.send(.get, "/web/app.js")
                let etag = try #require(first.headers[.eTag])
                let again = try await client.execute(uri: "/web/app.js", method: .get, headers: [.ifNoneMatch: etag])
                #expect(again.status == .notModified && again.body.readableBytes == 0)
                #expect(again.headers[.contentSecurityPolicy] == Self.policy)
                let other = try await client.execute(uri: "/web/app.js", method: .get, headers: [.ifNoneMatch: "\"x\""])
                #expect(other.status == .ok && other.body.readableBytes > 0)
            }
        }
    }

    @Test("a multi-store node serves the page too, and has no sign-in route")
    func multiStore() async throws {
        try await MultiStoreFixture.with { fixture in
            try await fixture.node.application().test(.router) { client in
                let page = try await client.send(.get, "/")
                #expect(page.status == .ok)
                Self.expectPageHeaders(page, "text/html")
                let signIn = try await client.send(.post, "/v1/sign-in", json: #"{"code":"x"}"#)
                #expect(signIn.status == .notFound)
            }
        }
    }
}

extension WebPageTests {
    @Test("a sign-in code works once; its session acts as the owner until it expires")
    func codeOnce() async throws {
        let clock = HandClock()
        let configuration = nodeConfiguration { $0.clock = clock.store }
        try await withNode(policy: Tokens.policy, configuration: configuration) { node, _ in
            let code = try #require(node.issueSignInCode())
            try await node.application().test(.router) { client in
                let exchanged = try await client.send(.post, "/v1/sign-in", json: #"{"code":"\#(code)"}"#)
                #expect(exchanged.status == .ok)
                let answer = try exchanged.object
                let session = try #require(answer["token"] as? String)
                #expect(answer["expiresIn"] as? Int == 43_200 && answer["owner"] as? Bool == true)
                #expect(session.count >= 40 && session != code)

                let again = try await client.send(.post, "/v1/sign-in", json: #"{"code":"\#(code)"}"#)
                #expect(again.status == .unauthorized && again.errorCode == "unauthenticated")
                #expect(again.headers[.wwwAuthenticate] == "Bearer")

                // The owner's reads: the access log, which only the owner reads.
                let log = try await client.send(.get, "/v1/access-log", token: session)
                #expect(log.status == .ok)
                let saved = try await client.send(.post, "/v1/samples", token: session, json: "[\(stepJSON(12))]")
                #expect(saved.status == .created)

                clock.advance(by: .seconds(43_200))
                let expired = try await client.send(.get, "/v1/access-log", token: session)
                #expect(expired.status == .unauthorized && expired.errorCode == "unauthenticated")
            }
        }
    }

    @Test("a code not exchanged within its lifetime is refused")
    func codeExpires() async throws {
        let clock = HandClock()
        let configuration = nodeConfiguration { $0.clock = clock.store }
        try await withNode(policy: Tokens.policy, configuration: configuration) { node, _ in
            let late = try #require(node.issueSignInCode())
            let early = try #require(node.issueSignInCode())
            try await node.application().test(.router) { client in
                clock.advance(by: .seconds(599))
                let inTime = try await client.send(.post, "/v1/sign-in", json: #"{"code":"\#(early)"}"#)
                #expect(inTime.status == .ok)
                clock.advance(by: .seconds(1))
                let tooLate = try await client.send(.post, "/v1/sign-in", json: #"{"code":"\#(late)"}"#)
                #expect(tooLate.status == .unauthorized && tooLate.errorCode == "unauthenticated")
            }
        }
    }

    @Test("a node without tokens hands out no code: every request already acts as the owner")
    func noTokensNoCode() async throws {
        try await withNode { node, _ in
            #expect(node.issueSignInCode() == nil)
        }
    }

    @Test("a session cannot do more than the owner: no replication; signing out ends it")
    func sessionBounds() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            let code = try #require(node.issueSignInCode())
            try await node.application().test(.router) { client in
                let exchanged = try await client.send(.post, "/v1/sign-in", json: #"{"code":"\#(code)"}"#)
                let session = try #require(try exchanged.object["token"] as? String)
                // The owner's token of Tokens.policy has no replication grant, and neither has a session.
                let pull = try await client.send(.post, "/v1/sync/identity", token: session, json: "{}")
                #expect(pull.status == .forbidden && pull.errorCode == "authorizationDenied")
                let ownerPull = try await client.send(.post, "/v1/sync/identity", token: Tokens.owner, json: "{}")
                #expect(ownerPull.status == pull.status)
                // A session cannot sign another one in: the route takes a code only.
                let chained = try await client.send(.post, "/v1/sign-in", json: #"{"code":"\#(session)"}"#)
                #expect(chained.status == .unauthorized)

                let out = try await client.send(.delete, "/v1/sign-in", token: session)
                #expect(out.status == .noContent)
                let after = try await client.send(.get, "/v1/access-log", token: session)
                #expect(after.status == .unauthorized)
                // Signing out with a file token leaves it working.
                _ = try await client.send(.delete, "/v1/sign-in", token: Tokens.owner)
                let owner = try await client.send(.get, "/v1/access-log", token: Tokens.owner)
                #expect(owner.status == .ok)
            }
        }
    }

    @Test("wrong codes are 401 with the standard error body; malformed or huge bodies are 400 or 413")
    func wrongCodes() async throws {
        try await withNode(policy: Tokens.policy) { node, _ in
            _ = try #require(node.issueSignInCode())
            try await node.application().test(.router) { client in
                for body in [
                    #"{"code":"not-a-code"}"#, #"{"code":""}"#, #"{"code":"\#(String(repeating: "a", count: 900))"}"#,
                ] {
                    let wrong = try await client.send(.post, "/v1/sign-in", json: body)
                    #expect(wrong.status == .unauthorized)
                    let object = try wrong.object
                    #expect(object["code"] as? String == "unauthenticated")
                    #expect((object["message"] as? String)?.contains("sign-in code") == true)
                }
                let notJSON = try await client.send(.post, "/v1/sign-in", json: "code=1")
                #expect(notJSON.status == .badRequest && notJSON.errorCode == "invalidJSON")
                let missing = try await client.send(.post, "/v1/sign-in", json: "{}")
                #expect(missing.status == .badRequest && missing.errorCode == "invalidJSON")

                let huge = String(repeating: "a", count: 4_096)
                let declared = try await client.execute(
                    uri: "/v1/sign-in",
                    method: .post,
                    headers: [.contentType: "application/json", .contentLength: "\(huge.utf8.count + 11)"],
                    body: ByteBuffer(string: #"{"code":"\#(huge)"}"#)
                )
                #expect(declared.status == .contentTooLarge && declared.errorCode == "bodyTooLarge")
                let streamed = try await client.send(.post, "/v1/sign-in", json: #"{"code":"\#(huge)"}"#)
                #expect(streamed.status == .contentTooLarge && streamed.errorCode == "bodyTooLarge")
            }
        }
    }
}
