import Anchorage
import AnchorageLog
import AnchorageServer
import AnchorageSync
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// The replication endpoints and `serve --peer`, in process.
@Suite("Node replication")
struct ServerSyncTests {
    static let peer = "peer-token-0123456789"
    static let replicatingOwner = "replicating-owner-0123456789"

    static var policy: AccessPolicy {
        var tokens = Tokens.policy.tokens
        tokens.append(.peer(peer))
        tokens.append(.owner(replicatingOwner, replicates: true))
        return AccessPolicy(tokens: tokens)
    }

    @Test("The sync endpoints need the replication grant; a peer's token reaches nothing else")
    func replicationGrant() async throws {
        try await withNode(policy: Self.policy) { node, _ in
            try await node.application().test(.router) { client in
                let identity =
                    #"{"protocolVersion":1,"storeID":"\#(UUID().uuidString)","incarnation":1,"head":0,"versionVector":{}}"#
                for token in [Tokens.owner, Tokens.dashboard] {
                    let refused = try await client.send(.post, "/v1/sync/identity", token: token, json: identity)
                    #expect(refused.status == .forbidden && refused.errorCode == "authorizationDenied")
                }
                for token in [Self.peer, Self.replicatingOwner] {
                    let answer = try await client.send(.post, "/v1/sync/identity", token: token, json: identity)
                    #expect(answer.status == .ok)
                    #expect(try answer.object["protocolVersion"] as? Int == 1)
                }
                let samples = try await client.send(.get, "/v1/samples?type=stepCount", token: Self.peer)
                #expect(samples.status == .forbidden)
                let future = identity.replacingOccurrences(of: #""protocolVersion":1"#, with: #""protocolVersion":9"#)
                let unsupported = try await client.send(.post, "/v1/sync/identity", token: Self.peer, json: future)
                #expect(unsupported.status == .badRequest && unsupported.errorCode == "unsupportedVersion")
                let garbage = try await client.execute(
                    uri: "/v1/sync/push",
                    method: .post,
                    headers: [.authorization: "Bearer \(Self.peer)"],
                    body: ByteBuffer(string: "not a batch")
                )
                #expect(garbage.status == .badRequest && garbage.errorCode == "malformedBatch")
                let noAfter = try await client.send(.get, "/v1/sync/wait", token: Self.peer)
                #expect(noAfter.status == .badRequest)
                let peers = try await client.send(.get, "/v1/peers", token: Tokens.dashboard)
                #expect(peers.status == .forbidden)
                let listed = try await client.send(.get, "/v1/peers", token: Self.peer)
                let peerList = try listed.object["peers"] as? [Any]
                #expect(listed.status == .ok && peerList?.isEmpty == true)
            }
        }
    }

    @Test("A token file's peer tokens: replicate alone, or on an owner token; never on an app's")
    func tokenFile() throws {
        let text =
            #"{"tokens":[{"token":"peer-secret-0123456789","replicate":true},"#
            + #"{"token":"owner-secret-0123456789","owner":true,"replicate":true}]}"#
        let policy = try AccessPolicy(json: Data(text.utf8))
        #expect(policy.tokens.map(\.replicates) == [true, true])
        #expect(policy.tokens.map(\.isPeerOnly) == [true, false])
        let app =
            #"{"tokens":[{"token":"app-secret-0123456789","replicate":true,"#
            + #""principal":{"bundleIdentifier":"com.example.app"},"read":["stepCount"]}]}"#
        #expect(throws: NodeConfigurationError.self) { try AccessPolicy(json: Data(app.utf8)) }
    }

    @Test(
        "serve --peer: two nodes sync both ways; queries, statistics handlers and feed streams on B fire for A's saves"
    )
    func twoNodes() async throws {
        try await Self.twoNodes()
    }

    /// The uuids added on an NDJSON change-feed stream of the node on
    /// `port`, read until `count` have arrived.
    static func streamedIDs(port: Int, until count: Int) async throws -> Set<String> {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/changes?types=stepCount&stream=ndjson")
        request.headers.add(name: "Authorization", value: "Bearer \(Tokens.owner)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        var ids = Set<String>()
        var pending = ""
        for try await chunk in response.body {
            pending += String(buffer: chunk)
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline]
                pending = String(pending[pending.index(after: newline)...])
                guard line.hasPrefix("{\"added\":"),
                    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let id = (object["added"] as? [String: Any])?["uuid"] as? String
                else { continue }
                ids.insert(id.lowercased())
            }
            if ids.count >= count { break }
        }
        return ids
    }

    static func twoNodes() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-peers-\(UUID())")
        defer { try? FileManager.default.removeItem(at: base) }
        var storeConfiguration = HKHealthStore.Configuration()
        storeConfiguration.log.durability = .none
        var configuration = NodeConfiguration()
        configuration.port = 0
        configuration.accessPolicy = policy
        configuration.replication.liveWait = .seconds(2)
        let a = try await AnchorageNode(
            directory: base.appendingPathComponent("a"),
            configuration: configuration,
            storeConfiguration: storeConfiguration
        )
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let servingA = Task { try await a.run { port in portContinuation.yield(port) } }
        var iterator = ports.makeAsyncIterator()
        let portA = try #require(await iterator.next())

        var configurationB = configuration
        configurationB.peers = [PeerConfiguration(url: URL(string: "http://127.0.0.1:\(portA)")!, token: peer)]
        let directoryB = base.appendingPathComponent("b")
        let b = try await AnchorageNode(
            directory: directoryB,
            configuration: configurationB,
            storeConfiguration: storeConfiguration
        )
        // B's owner, with a long-running anchored query and a statistics
        // update handler started before anything replicates.
        let ownerB = HKHealthStore(directory: directoryB)
        let steps = HKQuantityType(.stepCount)
        let changes = HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: nil)
            .results(for: ownerB)
        let statistics = HKStatisticsCollectionQueryDescriptor(
            predicate: .quantitySample(type: steps),
            options: .cumulativeSum,
            anchorDate: Date(timeIntervalSince1970: 1_717_200_000),
            intervalComponents: DateComponents(day: 1)
        ).results(for: ownerB)
        let (portsB, portContinuationB) = AsyncStream.makeStream(of: Int.self)
        let servingB = Task { try await b.run { port in portContinuationB.yield(port) } }
        var iteratorB = portsB.makeAsyncIterator()
        let portB = try #require(await iteratorB.next())
        // And a change-feed stream on B, open before A saves anything.
        let streamed = Task { try await Self.streamedIDs(port: portB, until: 30) }
        try await waitUntil("B's change-feed stream open") {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(portB)/metrics")
            request.headers.add(name: "Authorization", value: "Bearer \(Tokens.owner)")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
            return metricValue("anchorage_feed_clients", in: text) == 1
        }

        let ownerA = HKHealthStore(directory: base.appendingPathComponent("a"))
        let saved = (0..<30).map { index in
            HKQuantitySample(
                type: steps,
                quantity: HKQuantity(unit: .count(), doubleValue: 10),
                start: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 60),
                end: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 60 + 60)
            )
        }
        try await ownerA.save(saved)

        // The long-running query on B reports A's saves.
        var seen = Set<UUID>()
        var changeIterator = changes.makeAsyncIterator()
        while seen.count < saved.count, let page = try await changeIterator.next() {
            seen.formUnion(page.addedSamples.map(\.uuid))
        }
        #expect(seen == Set(saved.map(\.uuid)))
        // So does B's change-feed stream.
        #expect(try await streamed.value == Set(saved.map { $0.uuid.uuidString.lowercased() }))
        // The statistics handler on B reaches the replicated sum.
        var statisticsIterator = statistics.makeAsyncIterator()
        var sum = 0.0
        while sum < 300, let update = try await statisticsIterator.next() {
            sum = update.statisticsCollection.statistics().compactMap { $0.sumQuantity()?.doubleValue(for: .count()) }
                .reduce(0, +)
        }
        #expect(sum == 300)

        // B's saves reach A (push), and B reports its peer.
        let fromB = HKQuantitySample(
            type: steps,
            quantity: HKQuantity(unit: .count(), doubleValue: 5),
            start: Date(timeIntervalSince1970: 1_717_300_000),
            end: Date(timeIntervalSince1970: 1_717_300_060)
        )
        try await ownerB.save(fromB)
        try await waitUntil("B's save on A") {
            try await HKSampleQueryDescriptor(predicates: [.quantitySample(type: steps)], sortDescriptors: [])
                .result(for: ownerA).contains { $0.uuid == fromB.uuid }
        }
        let status = try #require(b.peerStatuses.first)
        #expect(status.storeID == (try ownerA.eventLog()).storeID)
        #expect(status.lastContact != nil && status.lastError == nil && status.pulledEntries >= 30)
        #expect(status.pushedEntries >= 1)

        await ownerA.close()
        await ownerB.close()
        await b.stop()
        _ = try? await servingB.value
        await a.stop()
        _ = try? await servingA.value
    }
}
