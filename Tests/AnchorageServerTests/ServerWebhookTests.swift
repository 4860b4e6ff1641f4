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

/// A webhook receiver on loopback that can be down and come back: it holds
/// its port (bound to port 0) from creation to ``close()``, so no other test
/// can take it in between, and while down it answers every delivery 503
/// without keeping it. Up, it checks each delivery's signature and keeps
/// what it got.
final class WebhookReceiver: Sendable {
    struct Delivery: Sendable {
        let added: [String]
        let deleted: [String]
        let since: String
        let signed: Bool
    }

    /// What the receiver's handler and the test share.
    private final class State: Sendable {
        let secret = Mutex<String>("")
        let deliveries = Mutex<[Delivery]>([])
        let up = Mutex<Bool>(false)
    }

    let port: Int
    private let state = State()
    private let running: Task<Void, any Error>

    /// Starts listening (down until ``start()``). Waiting for the listener
    /// is guarded by `startTimeout` seconds: against a server that never
    /// starts, long enough never to decide a test on a slow machine.
    init(startTimeout: Double = 300) async throws {
        let router = Router()
        let state = self.state
        router.post("/hook") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            guard state.up.withLock({ $0 }) else { return .serviceUnavailable }
            let bytes = Array(body.readableBytesView)
            let key = SymmetricKey(data: Data(state.secret.withLock { $0 }.utf8))
            let expected =
                "sha256="
                + HMAC<SHA256>.authenticationCode(for: bytes, using: key)
                .map { String(format: "%02x", $0) }.joined()
            let signed = request.headers[HTTPField.Name("Anchorage-Signature")!] == expected
            let page = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] ?? [:]
            let added = (page["added"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
            let deleted = (page["deleted"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
            let since = request.headers[HTTPField.Name("Anchorage-Delivery")!] ?? ""
            state.deliveries.withLock {
                $0.append(Delivery(added: added, deleted: deleted, since: since, signed: signed))
            }
            return .ok
        }
        let bound = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                bound.continuation.yield(channel.localAddress?.port ?? 0)
                bound.continuation.finish()
            }
        )
        running = Task {
            defer { bound.continuation.finish() }
            try await application.runService()
        }
        let listening = Task {
            for await port in bound.stream { return port }
            return 0
        }
        let port: Int
        do {
            port = try await finishes("the webhook receiver's listener", timeout: startTimeout) {
                await listening.value
            }
        } catch {
            running.cancel()
            _ = await running.result
            throw error
        }
        guard port > 0 else {
            running.cancel()
            _ = await running.result
            throw WaitTimeout(description: "the webhook receiver stopped before it listened")
        }
        self.port = port
    }

    var url: String { "http://127.0.0.1:\(port)/hook" }

    /// Every delivery taken, in order.
    var deliveries: [Delivery] { state.deliveries.withLock { $0 } }

    /// Every uuid added, in delivery order.
    var added: [String] { deliveries.flatMap(\.added) }

    /// Sets the secret deliveries are checked against.
    func setSecret(_ secret: String) { state.secret.withLock { $0 = secret } }

    /// Takes deliveries from now on.
    func start() { state.up.withLock { $0 = true } }

    /// Answers every delivery 503 from now on.
    func stop() { state.up.withLock { $0 = false } }

    /// Stops listening.
    func close() async {
        running.cancel()
        _ = await running.result
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
        let receiver = try await WebhookReceiver()
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
                receiver.setSecret(answer["secret"] as? String ?? "")

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

                receiver.start()
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
                #expect(receiver.deliveries.allSatisfy { $0.signed })

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
            await receiver.close()
            try await expectAuditPasses(directory)
        }
    }

    @Test(
        "AUTH-4: an app's webhook without types delivers every type its token reads and no other; one naming only types it never asked for says so"
    )
    func appWebhookTypes() async throws {
        let receiver = try await WebhookReceiver()
        try await withNode(policy: Tokens.policy, configuration: Self.configuration()) { node, directory in
            try await node.application().test(.live) { client in
                let registered = try await client.send(
                    .post,
                    "/v1/webhooks",
                    token: Tokens.dashboard,
                    json: #"{"url":"\#(receiver.url)"}"#
                )
                #expect(registered.status == .created, "\(registered.text)")
                #expect(try registered.object["types"] is NSNull, "\(registered.text)")
                receiver.setSecret(try registered.object["secret"] as? String ?? "")
                let unreadable = try await client.send(
                    .post,
                    "/v1/webhooks",
                    token: Tokens.dashboard,
                    json: #"{"url":"\#(receiver.url)","types":["bodyMass"]}"#
                )
                #expect(unreadable.status == .created, "\(unreadable.text)")
                receiver.start()

                // Body mass first: the dashboard never asked for it, so it
                // never comes, and what follows it shows it was passed over.
                let mass = stepJSON(70, type: "HKQuantityTypeIdentifierBodyMass")
                    .replacingOccurrences(of: #""unit":"count""#, with: #""unit":"kg""#)
                let hidden = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: "[\(mass)]")
                #expect(hidden.status == .created, "\(hidden.text)")
                let heart = stepJSON(62, type: "HKQuantityTypeIdentifierHeartRate")
                    .replacingOccurrences(of: #""unit":"count""#, with: #""unit":"count/min""#)
                var expected: [String] = []
                for body in [stepJSON(10), heart] {
                    let saved = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: "[\(body)]")
                    #expect(saved.status == .created, "\(saved.text)")
                    expected += try Self.uuids(saved.text)
                }
                try await waitUntil("the steps and the heart rate delivered") { receiver.added.count >= 2 }
                try await waitUntil("the webhook naming only body mass says it delivers nothing") {
                    let listed = try await client.send(.get, "/v1/webhooks", token: Tokens.dashboard)
                    return listed.text.contains("may read none of its types")
                }
                let listed = try await client.send(.get, "/v1/webhooks", token: Tokens.dashboard)
                #expect(!listed.text.contains("could not be made"), "\(listed.text)")
                #expect(receiver.added == expected, "steps and heart rate, once each, in order; never body mass")
                #expect(receiver.deliveries.allSatisfy { $0.signed })
            }
            await receiver.close()
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
