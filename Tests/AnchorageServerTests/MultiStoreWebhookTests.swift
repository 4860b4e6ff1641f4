import Anchorage
import AnchorageService
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import AnchorageServer

@Suite("A multi-store node's webhooks: each store's own, delivered while it is open, resumed when it opens again")
struct MultiStoreWebhookTests {
    /// Webhooks on, posting to loopback, every wait on `clock` and 1 s long.
    static func configuration(clock: TestClock, timeout: Duration) -> NodeConfiguration {
        nodeConfiguration {
            $0.clock = StoreClock(clock)
            $0.storeIdleTimeout = .seconds(60)
            $0.webhookHosts = ["127.0.0.1"]
            $0.webhookInitialBackoff = .seconds(1)
            $0.webhookMaximumBackoff = .seconds(1)
            $0.webhookTimeout = timeout
        }
    }

    /// Registers a webhook of `token` on Alice's store for step counts,
    /// posting to `receiver` (which learns its secret); its id.
    static func register(
        _ client: some TestClientProtocol,
        token: String,
        receiver: WebhookReceiver,
        types: String = #","types":["stepCount"]"#
    ) async throws -> String {
        let registered = try await client.send(
            .post,
            "/v1/stores/alice/webhooks",
            token: token,
            json: #"{"url":"\#(receiver.url)"\#(types)}"#
        )
        #expect(registered.status == .created, "\(registered.text)")
        receiver.setSecret((try? registered.object["secret"] as? String) ?? "")
        return try #require(try registered.object["id"] as? String)
    }

    /// Saves one step sample of `value` in Alice's store; its uuids.
    static func saveStep(
        _ client: some TestClientProtocol,
        token: String,
        _ value: Double,
        start: String = "2024-06-01T08:00:00Z",
        end: String = "2024-06-01T08:10:00Z"
    ) async throws -> [String] {
        let saved = try await client.send(
            .post,
            "/v1/stores/alice/samples",
            token: token,
            json: "[\(stepJSON(value, start: start, end: end))]"
        )
        #expect(saved.status == .created, "\(saved.text)")
        return try ServerWebhookTests.uuids(saved.text)
    }

    @Test(
        "an app's webhook on one store gets that store's changes only, signed, each once; a change made while its receiver was down goes out when the store next opens"
    )
    func perStoreDelivery() async throws {
        let receiver = try await WebhookReceiver()
        receiver.start()
        let clock = TestClock()
        let configuration = Self.configuration(clock: clock, timeout: .seconds(5))
        try await MultiStoreFixture.with(configuration: configuration) { fixture in
            let app = try fixture.node.registry.issueToken(
                TokenGrant(store: try StoreName("alice"), app: "com.example.steps", read: ["stepCount"])
            ).secret
            try await fixture.node.application().test(.router) { client in
                _ = try await Self.register(client, token: app, receiver: receiver)
                let firstUUIDs = try await Self.saveStep(client, token: fixture.alice, 10)
                let other = try await client.send(
                    .post,
                    "/v1/stores/bob/samples",
                    token: fixture.bob,
                    json: "[\(stepJSON(20))]"
                )
                #expect(other.status == .created)
                try await waitUntil("alice's change reaches her app's receiver") { receiver.added == firstUUIDs }

                // Alice's store closes once idle; its deliveries end with it.
                clock.advance(by: .seconds(60))
                #expect(await fixture.node.pool.closeIdle() == 2)
                receiver.stop()
                let second = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: fixture.alice,
                    json: "[\(stepJSON(30, start: "2024-06-01T09:00:00Z", end: "2024-06-01T09:10:00Z"))]"
                )
                let secondUUIDs = try ServerWebhookTests.uuids(second.text)
                let listed = try await client.send(.get, "/v1/stores/alice/webhooks", token: app)
                #expect(listed.status == .ok, "\(listed.text)")
                try await waitUntil("the delivery to the stopped receiver fails") {
                    let listed = try await client.send(.get, "/v1/stores/alice/webhooks", token: app)
                    let hooks = try #require(try listed.object["webhooks"] as? [[String: Any]])
                    return (hooks.first?["failures"] as? Int ?? 0) > 0
                }
                clock.advance(by: .seconds(60))
                #expect(await fixture.node.pool.closeIdle() == 1, "alice closes with her delivery undone")
                #expect(fixture.node.pool.openCount == 0)

                receiver.start()
                let reopen = try await client.send(
                    .get,
                    "/v1/stores/alice/changes?types=stepCount",
                    token: fixture.alice
                )
                #expect(reopen.status == .ok)
                try await waitUntil("the change made while the receiver was down goes out once alice opens") {
                    receiver.added == firstUUIDs + secondUUIDs
                }
                #expect(receiver.deliveries.allSatisfy { $0.signed })
                let bobUUID = try ServerWebhookTests.uuids(other.text)[0]
                #expect(!receiver.added.contains(bobUUID), "bob's change stays bob's")

                let bobs = try await client.send(.get, "/v1/stores/bob/webhooks", token: fixture.bob)
                let bobHooks = try bobs.object["webhooks"] as? [Any]
                #expect(bobs.status == .ok && bobHooks?.isEmpty == true, "\(bobs.text)")
                let id = try #require(
                    (try listed.object["webhooks"] as? [[String: Any]])?.first?["id"] as? String
                )
                let elsewhere = try await client.send(.delete, "/v1/stores/bob/webhooks/\(id)", token: fixture.bob)
                #expect(elsewhere.status == .notFound, "alice's webhook is not bob's to delete")
                let deleted = try await client.send(.delete, "/v1/stores/alice/webhooks/\(id)", token: app)
                #expect(deleted.status == .noContent)
            }
            await receiver.close()
            try await fixture.expectAudits()
        }
    }

    @Test("AUTH-4: an app's webhook registered without types delivers what its token reads, and nothing else")
    func appWebhookWithoutTypes() async throws {
        let receiver = try await WebhookReceiver()
        receiver.start()
        let clock = TestClock()
        try await MultiStoreFixture.with(configuration: Self.configuration(clock: clock, timeout: .seconds(5))) {
            fixture in
            let app = try fixture.node.registry.issueToken(
                TokenGrant(store: try StoreName("alice"), app: "com.example.steps", read: ["stepCount"])
            ).secret
            try await fixture.node.application().test(.router) { client in
                let id = try await Self.register(client, token: app, receiver: receiver, types: "")
                let heart = stepJSON(62, type: "HKQuantityTypeIdentifierHeartRate")
                    .replacingOccurrences(of: #""unit":"count""#, with: #""unit":"count/min""#)
                let hidden = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: fixture.alice,
                    json: "[\(heart)]"
                )
                #expect(hidden.status == .created, "\(hidden.text)")
                let steps = try await Self.saveStep(client, token: fixture.alice, 10)
                try await waitUntil("the steps reach the app's receiver") { !receiver.added.isEmpty }
                #expect(receiver.added == steps, "the heart rate the app may not read is never delivered")
                let listed = try await client.send(.get, "/v1/stores/alice/webhooks", token: app)
                let hooks = try #require(try listed.object["webhooks"] as? [[String: Any]])
                #expect(hooks.first?["id"] as? String == id)
                #expect(hooks.first?["lastError"] == nil || hooks.first?["lastError"] is NSNull, "\(listed.text)")
                #expect(hooks.first?["failures"] as? Int == 0, "\(listed.text)")
            }
            await receiver.close()
            try await fixture.expectAudits()
        }
    }

    @Test(
        "a store that closed with undelivered changes is opened again by the node to retry them, with no request; delivered once"
    )
    func quietStoreRetried() async throws {
        let receiver = try await WebhookReceiver()
        let clock = TestClock()
        let configuration = Self.configuration(clock: clock, timeout: .seconds(2))
        try await MultiStoreFixture.with(configuration: configuration) { fixture in
            try await fixture.node.application().test(.live) { client in
                let id = try await Self.register(client, token: fixture.alice, receiver: receiver)
                let uuids = try await Self.saveStep(client, token: fixture.alice, 10)
                try await waitUntil("the delivery fails: the receiver is not up") {
                    let status = try await fixture.node.pool.withStore(try StoreName("alice")) {
                        $0.webhooks?.status(of: id)
                    }
                    return (status?.failures ?? 0) > 0
                }
                let alice = try StoreName("alice")
                // Past the idle timeout, the idle sweep closes alice, unless a
                // retry the same step woke holds it right then: each poll
                // moves the clock past the timeout again and sweeps again.
                try await waitUntil("alice closed, waiting for a retry") {
                    clock.advance(by: .seconds(120))
                    _ = await fixture.node.pool.closeIdle()
                    return fixture.node.pool.openCount == 0 && fixture.node.webhookRetrier.waiting.contains(alice)
                }
                receiver.start()
                try await waitUntil("the node opens alice again by itself and delivers") {
                    clock.advance(by: .seconds(1))
                    return receiver.added == uuids
                }
                #expect(receiver.deliveries.allSatisfy { $0.signed })
            }
            await receiver.close()
            try await fixture.expectAudits()
        }
    }

    @Test("revoking an app's last token ends its webhook's deliveries at once, the store still open")
    func revocationEndsDeliveries() async throws {
        let receiver = try await WebhookReceiver()
        receiver.start()
        let configuration = nodeConfiguration {
            $0.webhookHosts = ["127.0.0.1"]
            $0.webhookTimeout = .seconds(5)
        }
        try await MultiStoreFixture.with(configuration: configuration) { fixture in
            let app = try fixture.node.registry.issueToken(
                TokenGrant(store: try StoreName("alice"), app: "com.example.steps", read: ["stepCount"])
            )
            try await fixture.node.application().test(.router) { client in
                let id = try await Self.register(client, token: app.secret, receiver: receiver)
                let delivered = try await Self.saveStep(client, token: fixture.alice, 10)
                try await waitUntil("the first change is delivered") { receiver.added == delivered }

                try fixture.node.registry.revokeToken(id: app.record.id)
                _ = try await Self.saveStep(
                    client,
                    token: fixture.alice,
                    20,
                    start: "2024-06-01T09:00:00Z",
                    end: "2024-06-01T09:10:00Z"
                )
                try await waitUntil("the deliverer sees the revocation") {
                    let status = try await fixture.node.pool.withStore(try StoreName("alice")) {
                        $0.webhooks?.status(of: id)
                    }
                    return status?.lastError == WebhookDeliverer.noToken
                }
                #expect(receiver.added == delivered, "nothing more went to the revoked app")
            }
            await receiver.close()
            try await fixture.expectAudits()
        }
    }

    @Test("without --webhook-host a multi-store node's webhook routes answer 403, and nothing is registered")
    func off() async throws {
        try await MultiStoreFixture.with { fixture in
            try await fixture.node.application().test(.router) { client in
                let refused = try await client.send(
                    .post,
                    "/v1/stores/alice/webhooks",
                    token: fixture.alice,
                    json: #"{"url":"http://127.0.0.1:9/hook"}"#
                )
                #expect(refused.status == .forbidden && refused.text.contains("--webhook-host"), "\(refused.text)")
            }
            try await fixture.expectAudits()
        }
    }
}
