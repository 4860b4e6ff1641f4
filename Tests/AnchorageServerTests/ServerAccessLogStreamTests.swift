import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageStoreTesting
import AnchorageSync
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
import Testing

@testable import AnchorageServer

@Suite("HTTP API: the access log of streams, long-polls and replication")
struct ServerAccessLogStreamTests {
    /// The node's access-log entries, oldest first.
    static func entries(_ node: AnchorageNode) throws -> [AccessRecord] {
        try node.accessLog.page(after: nil, from: nil, to: nil, limit: 1_000).entries.map(\.record)
    }

    @Test(
        "a stream is recorded when it opens and once per page it sends, with the page's count; a long-poll once, with what it returned"
    )
    func streamsAndLongPolls() async throws {
        let configuration = nodeConfiguration { $0.heartbeatInterval = .seconds(1) }
        try await withNode(policy: Tokens.policy, configuration: configuration) { node, directory in
            try await node.application().test(.live) { client in
                let port = try #require(client.port)
                var request = HTTPClientRequest(
                    url: "http://127.0.0.1:\(port)/v1/changes?types=stepCount&stream=ndjson"
                )
                request.headers.add(name: "Authorization", value: "Bearer \(Tokens.owner)")
                let lines = Shared<[String]>([])
                let reader = Task {
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
                    for try await buffer in response.body {
                        let text = String(buffer: buffer)
                        lines.update { $0 += text.split(separator: "\n").map(String.init) }
                    }
                }
                try await waitUntil("the stream's first page (the anchor) arrives") { !lines.current.isEmpty }
                let start = try await client.send(.get, "/v1/changes?types=stepCount", token: Tokens.owner)
                let anchor = try #require(try start.object["newAnchor"] as? String)
                var pollRequest = HTTPClientRequest(
                    url: "http://127.0.0.1:\(port)/v1/changes?types=stepCount&since=\(anchor)&wait=30"
                )
                pollRequest.headers.add(name: "Authorization", value: "Bearer \(Tokens.owner)")
                let poll = Task {
                    let response = try await HTTPClient.shared.execute(pollRequest, timeout: .seconds(60))
                    _ = try await response.body.collect(upTo: 1 << 20)
                    return response.status
                }
                try await waitUntil("the long-poll waits beside the stream") {
                    let metrics = try await client.send(.get, "/metrics", token: Tokens.owner)
                    return metricValue("anchorage_feed_clients", in: metrics.text) == 2
                }
                let saved = try await client.send(
                    .post,
                    "/v1/samples",
                    token: Tokens.owner,
                    json:
                        "[\(stepJSON(4321)),\(stepJSON(8765, start: "2024-06-01T09:00:00Z", end: "2024-06-01T09:10:00Z"))]"
                )
                #expect(saved.status == .created)
                #expect(try await poll.value == .ok)
                try await waitUntil("the stream sends the two samples") {
                    lines.current.count { $0.contains(#""value":"#) } == 2
                }
                reader.cancel()
                _ = await reader.result

                let records = try Self.entries(node).filter { $0.action == "GET /v1/changes" }
                let stream = records.filter { $0.phase != nil }
                #expect(stream.first?.phase == "start" && stream.first?.count == 0)
                #expect(stream.dropFirst().allSatisfy { $0.phase == "page" })
                #expect(stream.dropFirst().map(\.count) == [0, 2], "the anchor's empty page, then the save's")
                #expect(stream.dropFirst().allSatisfy { $0.until != nil })
                let long = try #require(records.first { $0.phase == nil && $0.since == anchor })
                #expect(long.count == 2 && long.until != nil && long.until != anchor)
                #expect(
                    records.allSatisfy { $0.principal == "owner" && $0.types == ["HKQuantityTypeIdentifierStepCount"] }
                )
                let text = String(decoding: try JSONEncoder().encode(Self.entries(node)), as: UTF8.self)
                #expect(!text.contains("4321") && !text.contains("8765"), "no health value")
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("the access log stays on its node: a peer that pulls the whole log gets none of it, and its own stays empty")
    func notReplicated() async throws {
        try await withNode(policy: Tokens.policy) { node, directory in
            try await node.application().test(.router) { client in
                let saved = try await client.send(.post, "/v1/samples", token: Tokens.owner, json: "[\(stepJSON(5))]")
                #expect(saved.status == .created)
                for _ in 0..<3 {
                    let read = try await client.send(.get, "/v1/samples?type=stepCount", token: Tokens.owner)
                    #expect(read.status == .ok)
                }
            }
            #expect(try Self.entries(node).count == 3)
            try await withTemporaryStore { peer, peerDirectory in
                let replicator = PeerReplicator(
                    log: try peer.eventLog(),
                    peer: InMemoryTransport(serving: try node.access.owner.eventLog())
                )
                try await replicator.sync(.both)
                #expect(try peer.eventLog().head.seq == (try node.access.owner.eventLog().head.seq))
                let copy = AccessLog(log: try peer.eventLog())
                #expect(try copy.page(after: nil, from: nil, to: nil, limit: 100).entries.isEmpty)
                await peer.close()
                try await expectAuditPasses(peerDirectory)
            }
            #expect(try Self.entries(node).count == 3, "replication reads the log, not health data: nothing recorded")
            try await expectAuditPasses(directory)
        }
    }

    @Test("a read that cannot be recorded is refused: 500 storageFailed, and no answer goes out")
    func unrecordedReadIsRefused() async throws {
        try await withTemporaryStore { store, _ in
            let log = try store.eventLog()
            let accessLog = AccessLog(log: log)
            await log.close()
            await #expect {
                try await accessLog.record(
                    AccessRecord(principal: "owner", action: "GET /v1/samples", types: [], count: 1)
                )
            } throws: { error in
                (error as? ServiceError)?.code == .storageFailed
            }
        }
        let mapped = APIError.from(ServiceError(.storageFailed, "the read could not be recorded in the access log"))
        #expect(mapped.status == .internalServerError && mapped.code == .storageFailed)
    }
}
