import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageSync
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing

@testable import AnchorageServer

/// The real clock, plus time a test skips ahead: a node on it runs in real
/// time (a replica follows it live), and a test moves it past a bound
/// without waiting for the bound to pass.
///
/// ```swift
/// let clock = SkippingClock()
/// configuration.clock = clock.store
/// clock.skip(.seconds(121))       // every sleep of 121 s or less ends now
/// ```
final class SkippingClock: Sendable {
    private let origin = ContinuousClock.now
    private let skipped = TestClock()

    /// The clock as a node takes it: a sleep ends when its time has passed,
    /// or a skip passes it, whichever comes first.
    var store: StoreClock {
        StoreClock(
            now: { [origin, skipped] in origin.duration(to: .now) + skipped.now.offset },
            sleep: { [skipped] duration in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await StoreClock.continuous.sleep(duration) }
                    group.addTask { try await skipped.sleep(for: duration) }
                    try await group.next()
                    group.cancelAll()
                }
            }
        )
    }

    /// How long each sleep still waits for a skip, shortest first (the
    /// time that passes meanwhile not counted).
    var sleeping: [Duration] { skipped.remaining }

    /// Moves the clock `duration` ahead.
    func skip(_ duration: Duration) {
        skipped.advance(by: duration)
    }
}

/// `serve --replica-wait`: a save or delete is answered only once a replica
/// pulling from the node holds it; without one, 503 replicationUnavailable.
@Suite("Writes acknowledged once a replica holds them")
struct ServerReplicaAcknowledgementTests {
    /// How long writes wait for a replica: far above a replica's round trip
    /// on any machine. Where a test needs it passed, it skips the node's
    /// clock ahead rather than wait.
    static let bound: Duration = .seconds(120)

    /// A node serving `directory` on a free port until stopped.
    final class RunningNode: Sendable {
        let node: AnchorageNode
        let port: Int
        let serving: Task<Void, any Error>

        init(directory: URL, configuration: NodeConfiguration) async throws {
            var storeConfiguration = HKHealthStore.Configuration()
            storeConfiguration.log.durability = .none
            node = try await AnchorageNode(
                directory: directory,
                configuration: configuration,
                storeConfiguration: storeConfiguration
            )
            let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
            serving = Task { [node] in try await node.run { continuation.yield($0) } }
            var iterator = ports.makeAsyncIterator()
            port = try #require(await iterator.next())
        }

        func stop() async {
            await node.stop()
            _ = try? await serving.value
        }
    }

    struct Answer {
        var status: Int
        var code: String?
        var retryAfter: String?
    }

    static func send(_ method: HTTPMethod, _ path: String, port: Int, body: String? = nil) async throws -> Answer {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(Tokens.owner)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let object = try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any]
        return Answer(
            status: Int(response.status.code),
            code: object?["code"] as? String,
            retryAfter: response.headers.first(name: "Retry-After")
        )
    }

    /// The uuids of the step samples the node on `port` lists.
    static func listed(port: Int) async throws -> Set<String> {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/samples?type=stepCount&limit=10000")
        request.headers.add(name: "Authorization", value: "Bearer \(Tokens.owner)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        let object = try JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any]
        let samples = object?["samples"] as? [[String: Any]] ?? []
        return Set(samples.compactMap { ($0["uuid"] as? String)?.uppercased() })
    }

    static func batch(_ uuids: [UUID]) -> String {
        "[" + uuids.map { stepJSON(1, uuid: $0) }.joined(separator: ",") + "]"
    }

    @Test(
        "no replica: refused before storing; a replica following: every answered save and delete is already on it; the replica gone: 503, stored here only; audit passes on both"
    )
    func acknowledgedByReplica() async throws {
        try await withTemporaryDirectory { base in
            var configuration = NodeConfiguration()
            configuration.port = 0
            configuration.accessPolicy = ServerSyncTests.policy
            configuration.replication.liveWait = .seconds(1)
            var configurationA = configuration
            configurationA.replicaAcknowledgement = Self.bound
            let clock = SkippingClock()
            configurationA.clock = clock.store
            let a = try await RunningNode(directory: base.appendingPathComponent("a"), configuration: configurationA)

            // Nobody follows A: refused, nothing stored.
            let early = UUID()
            let refused = try await Self.send(.POST, "/v1/samples", port: a.port, body: Self.batch([early]))
            #expect(refused.status == 503 && refused.code == "replicationUnavailable")
            #expect(refused.retryAfter == "120")
            #expect(try await Self.listed(port: a.port).isEmpty)

            // B follows A live.
            var configurationB = configuration
            configurationB.peers = [
                PeerConfiguration(url: URL(string: "http://127.0.0.1:\(a.port)")!, token: ServerSyncTests.peer)
            ]
            let b = try await RunningNode(directory: base.appendingPathComponent("b"), configuration: configurationB)
            try await waitUntil("B follows A", timeout: 120) {
                try await Self.send(.POST, "/v1/samples", port: a.port, body: Self.batch([UUID()])).status == 201
            }
            // Each answered save is on B when A answers, also from concurrent clients.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for _ in 0..<5 {
                            let uuids = (0..<10).map { _ in UUID() }
                            let saved = try await Self.send(.POST, "/v1/samples", port: a.port, body: Self.batch(uuids))
                            #expect(saved.status == 201)
                            let onB = try await Self.listed(port: b.port)
                            #expect(
                                Set(uuids.map(\.uuidString)).isSubset(of: onB),
                                "an acknowledged save is on the replica"
                            )
                        }
                    }
                }
                try await group.waitForAll()
            }
            // So is an answered delete.
            let doomed = try #require(try await Self.listed(port: a.port).first)
            let deleted = try await Self.send(.DELETE, "/v1/samples/\(doomed)", port: a.port)
            #expect(deleted.status == 204)
            #expect(!(try await Self.listed(port: b.port).contains(doomed)))

            // B stops. Within the bound the write is stored here; once the bound passes on A's
            // clock with no replica confirming it, 503: not acknowledged.
            await b.stop()
            let unconfirmed = UUID()
            let sending = Task {
                try await Self.send(.POST, "/v1/samples", port: a.port, body: Self.batch([unconfirmed]))
            }
            try await waitUntil("the write is stored and waits for a replica", timeout: 120) {
                a.node.followers.progress.waiting == 1 && clock.sleeping.contains(Self.bound)
            }
            clock.skip(Self.bound + .seconds(1))
            let late = try await sending.value
            #expect(late.status == 503 && late.code == "replicationUnavailable")
            #expect(try await Self.listed(port: a.port).contains(unconfirmed.uuidString))
            // Past the bound since B last asked (its last wait may end only now, when a skip wakes it).
            try await waitUntil("A counts no replica as following it", timeout: 120) {
                guard a.node.followers.isFollowed(within: Self.bound) else { return true }
                clock.skip(Self.bound + .seconds(1))
                return false
            }
            // Refused before storing.
            let orphan = UUID()
            let gone = try await Self.send(.POST, "/v1/samples", port: a.port, body: Self.batch([orphan]))
            #expect(gone.status == 503 && gone.code == "replicationUnavailable")
            #expect(!(try await Self.listed(port: a.port).contains(orphan.uuidString)))

            // B comes back and catches up, the unconfirmed save included.
            let back = try await RunningNode(directory: base.appendingPathComponent("b"), configuration: configurationB)
            try await waitUntil("B caught up", timeout: 120) {
                try await Self.listed(port: back.port) == (try await Self.listed(port: a.port))
            }
            await back.stop()
            await a.stop()
            try await expectAuditPasses(base.appendingPathComponent("a"))
            try await expectAuditPasses(base.appendingPathComponent("b"))
        }
    }
}

extension ServerReplicaAcknowledgementTests {
    @Test(
        "a multi-store node with --replica-wait: a store nobody follows refuses writes; a replica's waits, after what it holds, confirm them"
    )
    func multiStore() async throws {
        let configuration = nodeConfiguration { $0.replicaAcknowledgement = Self.bound }
        try await MultiStoreFixture.with(configuration: configuration) { fixture in
            let peer = try fixture.node.registry.issueToken(
                TokenGrant(store: try StoreName("alice"), owner: false, replicates: true)
            ).secret
            try await fixture.node.application().test(.router) { client in
                let refused = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: fixture.alice,
                    json: "[\(stepJSON(1))]"
                )
                #expect(refused.status == .serviceUnavailable && refused.errorCode == "replicationUnavailable")
                // Another store's replica counts for nothing here.
                let bobPeer = try fixture.node.registry.issueToken(
                    TokenGrant(store: try StoreName("bob"), owner: false, replicates: true)
                ).secret
                _ = try await client.send(.get, "/v1/stores/bob/sync/wait?after=0&timeout=0", token: bobPeer)
                let stillRefused = try await client.send(
                    .post,
                    "/v1/stores/alice/samples",
                    token: fixture.alice,
                    json: "[\(stepJSON(1))]"
                )
                #expect(stillRefused.status == .serviceUnavailable)

                // A replica of alice asks: the save is stored, and answered
                // once the replica's next wait starts after it.
                let uuid = UUID()
                let asked = try await client.send(.get, "/v1/stores/alice/sync/wait?after=0&timeout=0", token: peer)
                let start = try #require(try asked.object["head"] as? Int, "\(asked.text)")
                let save = Task {
                    try await client.send(
                        .post,
                        "/v1/stores/alice/samples",
                        token: fixture.alice,
                        json: "[\(stepJSON(1, uuid: uuid))]"
                    )
                }
                // The replica waits until the head passes where it was (the save is the only write
                // stored since), then once after it, which confirms it.
                var head = start
                try await waitUntil("the save is stored", timeout: 120) {
                    let answer = try await client.send(
                        .get,
                        "/v1/stores/alice/sync/wait?after=\(head)&timeout=1",
                        token: peer
                    )
                    head = try #require(try answer.object["head"] as? Int, "\(answer.text)")
                    return head > start
                }
                _ = try await client.send(.get, "/v1/stores/alice/sync/wait?after=\(head)&timeout=0", token: peer)
                let saved = try await save.value
                #expect(saved.status == .created, "\(saved.text)")
                let listed = try await client.send(
                    .get,
                    "/v1/stores/alice/samples?type=stepCount",
                    token: fixture.alice
                )
                #expect(listed.text.contains(uuid.uuidString.lowercased()) || listed.text.contains(uuid.uuidString))
            }
            try await expectAuditPasses(fixture.node.registry.directory(of: try StoreName("alice")))
        }
    }
}
