import Anchorage
import AnchorageServer
import AnchorageTesting
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// A webhook receiver on loopback that can be down and come back on the
/// same port: it checks each delivery's signature and keeps what it got.
final class WebhookReceiver: Sendable {
    struct Delivery: Sendable {
        let added: [String]
        let deleted: [String]
        let since: String
        let signed: Bool
    }

    let port: Int
    let secret = Mutex<String>("")
    let deliveries = Mutex<[Delivery]>([])
    private let running = Mutex<Task<Void, Never>?>(nil)

    init() throws {
        // A free port: bound, then released for the receiver to take later.
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress!.port!
        try channel.close().wait()
    }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    /// Every uuid added, in delivery order.
    var added: [String] { deliveries.withLock { $0.flatMap(\.added) } }

    func start() async throws {
        let router = Router()
        router.post("/hook") { [self] request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            let bytes = Array(body.readableBytesView)
            let key = SymmetricKey(data: Data(secret.withLock { $0 }.utf8))
            let expected =
                "sha256="
                + HMAC<SHA256>.authenticationCode(for: bytes, using: key)
                .map { String(format: "%02x", $0) }.joined()
            let signed = request.headers[HTTPField.Name("Anchorage-Signature")!] == expected
            let page = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] ?? [:]
            let added = (page["added"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
            let deleted = (page["deleted"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
            let since = request.headers[HTTPField.Name("Anchorage-Delivery")!] ?? ""
            deliveries.withLock { $0.append(Delivery(added: added, deleted: deleted, since: since, signed: signed)) }
            return .ok
        }
        let started = AsyncStream<Void>.makeStream()
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { _ in started.continuation.yield() }
        )
        running.withLock {
            $0 = Task {
                try? await application.runService()
            }
        }
        for await _ in started.stream { break }
    }

    func stop() async {
        let task = running.withLock { $0 }
        task?.cancel()
        await task?.value
    }
}

@Suite("HTTP API: webhooks, background delivery over HTTP")
struct ServerWebhookTests {
    static func configuration() -> NodeConfiguration {
        nodeConfiguration {
            $0.webhookHosts = ["127.0.0.1"]
            $0.webhookInitialBackoff = .milliseconds(50)
            $0.webhookMaximumBackoff = .milliseconds(400)
            $0.webhookTimeout = .seconds(30)
        }
    }

    @Test(
        "a receiver that is down while changes happen gets every change once when it comes back, signed; audit verify passes"
    )
    func downThenBack() async throws {
        let receiver = try WebhookReceiver()
        try await withNode(policy: Tokens.policy, configuration: Self.configuration()) { node, directory in
            try await node.application().test(.live) { client in
                let registered = try await client.send(
                    .post,
                    "/v1/webhooks",
                    token: Tokens.dashboard,
                    json: #"{"url":"\#(receiver.url)","types":["stepCount","heartRate"]}"#
                )
                #expect(registered.status == .created, "\(registered.text)")
                let answer = try #require(
                    try JSONSerialization.jsonObject(with: Data(registered.text.utf8)) as? [String: Any]
                )
                let id = try #require(answer["id"] as? String)
                receiver.secret.withLock { $0 = answer["secret"] as? String ?? "" }

                // Three saves while the receiver is down; the node keeps trying.
                var expected: [String] = []
                for minute in 0..<3 {
                    let saved = try await client.send(
                        .post,
                        "/v1/samples",
                        token: Tokens.owner,
                        json:
                            "[\(stepJSON(Double(10 + minute), start: "2024-05-01T10:0\(minute):00Z", end: "2024-05-01T10:0\(minute):30Z"))]"
                    )
                    #expect(saved.status == .created, "\(saved.text)")
                    expected += try Self.uuids(saved.text)
                }
                // Body mass is the scale's and not the dashboard's to read: never delivered.
                let hidden = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json:
                        "[\(stepJSON(70, start: "2024-05-01T10:05:00Z", end: "2024-05-01T10:05:00Z", type: "HKQuantityTypeIdentifierBodyMass").replacingOccurrences(of: "\"unit\":\"count\"", with: "\"unit\":\"kg\""))]"
                )
                #expect(hidden.status == .created, "\(hidden.text)")
                try await waitUntil("the webhook's failures counted (the receiver is down)") {
                    let status = try await client.send(.get, "/v1/webhooks", token: Tokens.dashboard)
                    return status.text.contains(#""failures":"#) && !status.text.contains(#""failures":0"#)
                }

                try await receiver.start()
                try await waitUntil("3 changes delivered") { receiver.added.count >= 3 }
                let later = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json: "[\(stepJSON(5, start: "2024-05-01T11:00:00Z", end: "2024-05-01T11:00:30Z"))]"
                )
                expected += try Self.uuids(later.text)
                try await waitUntil("4 changes delivered") { receiver.added.count >= 4 }
                // Anything more would arrive within a few retries; ask for the list to settle.
                let listed = try await client.send(.get, "/v1/webhooks", token: Tokens.dashboard)
                #expect(listed.text.contains(#""failures":0"#), "\(listed.text)")
                #expect(receiver.added == expected, "each change once, in order")
                #expect(receiver.deliveries.withLock { $0.allSatisfy(\.signed) })

                // Another app does not see it; its owner deletes it.
                let others = try await client.send(.get, "/v1/webhooks", token: Tokens.scale)
                #expect(others.text == #"{"webhooks":[]}"#)
                #expect(try await client.send(.delete, "/v1/webhooks/\(id)", token: Tokens.scale).status == .notFound)
                #expect(
                    try await client.send(.delete, "/v1/webhooks/\(id)", token: Tokens.dashboard).status == .noContent
                )
                let empty = try await client.send(.get, "/v1/webhooks", token: Tokens.dashboard)
                #expect(empty.text == #"{"webhooks":[]}"#)
            }
            await receiver.stop()
            try await expectAuditPasses(directory)
        }
    }

    @Test("webhooks post only to the hosts the operator allows, to http(s) urls without credentials; off by default")
    func hosts() async throws {
        try await withNode(policy: Tokens.policy, configuration: NodeConfiguration()) { node, _ in
            try await node.application().test(.router) { client in
                let off = try await client.send(
                    .post,
                    "/v1/webhooks",
                    token: Tokens.owner,
                    json: #"{"url":"http://127.0.0.1:9/hook"}"#
                )
                #expect(off.status == .forbidden && off.text.contains("--webhook-host"), "\(off.text)")
            }
        }
        try await withNode(policy: Tokens.policy, configuration: Self.configuration()) { node, _ in
            try await node.application().test(.router) { client in
                for url in [
                    "http://169.254.169.254/latest/meta-data", "file:///etc/passwd", "http://user:pw@127.0.0.1/hook",
                    "gopher://127.0.0.1/", "not a url",
                ] {
                    let refused = try await client.send(
                        .post,
                        "/v1/webhooks",
                        token: Tokens.owner,
                        json: #"{"url":"\#(url)"}"#
                    )
                    #expect(
                        refused.status == .badRequest && refused.errorCode == "invalidArgument",
                        "\(url): \(refused.text)"
                    )
                }
                let badType = try await client.send(
                    .post,
                    "/v1/webhooks",
                    token: Tokens.owner,
                    json: #"{"url":"http://127.0.0.1:9/hook","types":["zork"]}"#
                )
                #expect(badType.errorCode == "unknownType", "\(badType.text)")
                let badFrequency = try await client.send(
                    .post,
                    "/v1/webhooks",
                    token: Tokens.owner,
                    json: #"{"url":"http://127.0.0.1:9/hook","frequency":"sometimes"}"#
                )
                #expect(badFrequency.status == .badRequest)
                let noToken = try await client.send(.get, "/v1/webhooks", token: nil)
                #expect(noToken.status == .unauthorized)
            }
        }
    }

    static func uuids(_ saved: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(saved.utf8)) as? [String: Any])
        return try #require(object["uuids"] as? [String]).map { $0.uppercased() }
    }
}
