import Anchorage
import AnchorageServer
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing

/// A change-feed consumer that applies lines up to each anchor line
/// together, as docs/http-api.md tells consumers to.
actor FeedConsumer {
    private(set) var applied: [String] = []
    private(set) var anchor: String?
    /// The lines read, over every connection.
    private(set) var lineCount = 0
    private var pending: [String] = []

    func take(_ line: Substring) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        if let added = object["added"] as? [String: Any] {
            pending.append(try #require(added["uuid"] as? String))
        } else if let deleted = object["deleted"] as? [String: Any] {
            pending.append("deleted " + (try #require(deleted["uuid"] as? String)))
        } else if let summary = object["activitySummary"] as? [String: Any] {
            let energy = try #require(summary["activeEnergyBurned"] as? [String: Any])
            pending.append(
                "summary \(try #require(summary["date"] as? String)) \(try #require(energy["value"] as? Double))"
            )
        } else {
            anchor = try #require(object["anchor"] as? String)
            applied += pending
            pending = []
        }
    }

    /// Reads the stream from the last applied anchor until `stop` says so
    /// (or the stream ends); returns the lines read.
    func follow(port: Int, query: String, stop: @Sendable ([String], Int) -> Bool) async throws -> Int {
        // Lines after the last anchor line were never applied: drop them.
        pending = []
        let since = anchor.map { "&since=\($0)" } ?? ""
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/changes?stream=ndjson&\(query)\(since)")
        request.method = .GET
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "content-type") == "application/x-ndjson")
        var buffer = ""
        var lines = 0
        for try await chunk in response.body {
            buffer += String(buffer: chunk)
            while let newline = buffer.firstIndex(of: "\n") {
                try take(buffer[..<newline])
                buffer = String(buffer[buffer.index(after: newline)...])
                lines += 1
                lineCount += 1
                if stop(applied, lines) { return lines }
            }
        }
        return lines
    }
}

@Suite("HTTP API: the change feed")
struct ServerFeedTests {
    /// Saves 20 samples one by one and deletes one of them on the way;
    /// returns the changes in order ("deleted <uuid>" for the deletion).
    static func saveWhileReading(_ client: any TestClientProtocol) async throws -> [String] {
        var live: [String] = []
        for index in 0..<20 {
            let id = UUID()
            _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1, uuid: id))]")
            live.append(id.uuidString)
            if index == 10 {
                let deletion = try await client.send(.delete, "/v1/samples/\(live[3])")
                #expect(deletion.status == .noContent)
                live.append("deleted " + live[3])
            }
            // Paced writer: spreads the saves over the consumer's reading; it sees every change
            // once whichever side is faster, and the checks compare only what was saved and read.
            try await Task.sleep(for: .milliseconds(10))
        }
        return live
    }

    @Test("AQ-15: a long-poll wakes on a matching save, ignores others, and times out with the current anchor")
    func longPoll() async throws {
        let clock = HandClock()
        try await withNode(configuration: nodeConfiguration { $0.clock = clock.store }) { node, _ in
            try await node.application().test(.router) { client in
                let start = try await client.send(.get, "/v1/changes?types=stepCount")
                let anchor = try #require(try start.object["newAnchor"] as? String)
                let id = UUID()
                async let woken = client.send(.get, "/v1/changes?types=stepCount&wait=60&since=\(anchor)")
                // The poll has read and waits for its 60 s.
                try await clock.clock.waitForSleepers(remaining: [.seconds(60)])
                // Heart rate does not match the poll; steps do.
                let heart = """
                    [{"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierHeartRate",\
                    "startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:00:00Z","quantity":{"unit":"count/min","value":60}}]
                    """
                _ = try await client.send(.post, "/v1/samples", json: heart)
                _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(3, uuid: id))]")
                let response = try await woken
                // Woken by the save: the clock never moved, so the wait did not end.
                #expect(clock.now == .zero)
                let added = try #require(try response.object["added"] as? [[String: Any]])
                #expect(added.map { $0["uuid"] as? String } == [id.uuidString])

                let after = try #require(try response.object["newAnchor"] as? String)
                async let quiet = client.send(.get, "/v1/changes?types=stepCount&wait=1&since=\(after)")
                try await clock.clock.waitForSleepers(remaining: [.seconds(1)])
                clock.advance(by: .seconds(1))
                let timedOut = try await quiet
                #expect(try #require(try timedOut.object["added"] as? [Any]).isEmpty)
                #expect(try timedOut.object["newAnchor"] as? String == after, "nothing new: the anchor it was given")
            }
        }
    }

    @Test(
        "since=now: an empty page at the head's anchor, whatever the store holds; a long-poll from it wakes on the next save only; the same anchor a full catch-up reaches"
    )
    func sinceNow() async throws {
        let clock = HandClock()
        try await withNode(configuration: nodeConfiguration { $0.clock = clock.store }) { node, directory in
            try await node.application().test(.router) { client in
                let history = (0..<5).map { "[\(stepJSON(Double($0 + 1), uuid: UUID()))]" }
                for batch in history { _ = try await client.send(.post, "/v1/samples", json: batch) }
                let now = try await client.send(.get, "/v1/changes?types=stepCount&since=now")
                #expect(now.status == .ok, "\(now.text)")
                #expect(try #require(try now.object["added"] as? [Any]).isEmpty, "no replay of the history")
                #expect(try now.object["hasMore"] as? Bool == false)
                let head = try #require(try now.object["newAnchor"] as? String)
                // A consumer that paged the whole log ends at the same anchor.
                let full = try await client.send(.get, "/v1/changes?types=stepCount")
                #expect(try full.object["newAnchor"] as? String == head)
                #expect((try full.object["added"] as? [Any])?.count == 5)

                let id = UUID()
                async let woken = client.send(.get, "/v1/changes?types=stepCount&wait=60&since=now")
                try await clock.clock.waitForSleepers(remaining: [.seconds(60)])
                _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(9, uuid: id))]")
                let response = try await woken
                let added = try #require(try response.object["added"] as? [[String: Any]])
                #expect(added.map { $0["uuid"] as? String } == [id.uuidString], "only the save after it")

                // `now` is the only word `since` takes besides an anchor.
                let bad = try await client.send(.get, "/v1/changes?since=later")
                #expect(bad.status == .badRequest && bad.errorCode == "anchorNotValid", "\(bad.text)")
            }
            try await expectAuditPasses(directory)
        }
    }

    @Test("AQ-15, AQ-16: a streaming consumer sees every change exactly once across a reconnect")
    func streamAcrossReconnect() async throws {
        // The clock never moves: no heartbeat; the anchor lines are the pages' own.
        let clock = HandClock()
        try await withNode(configuration: nodeConfiguration { $0.clock = clock.store }) { node, _ in
            try await clock.live(node) { client in
                try await Self.consumeAcrossReconnect(client)
            }
        }
    }

    static func consumeAcrossReconnect(_ client: any TestClientProtocol) async throws {
        let port = try #require(client.port)
        var saved: [String] = []
        // A backlog in several pages.
        for _ in 0..<5 {
            let ids = (0..<6).map { _ in UUID() }
            let body = ids.map { stepJSON(1, uuid: $0) }.joined(separator: ",")
            _ = try await client.send(.post, "/v1/samples", json: "[\(body)]")
            saved += ids.map(\.uuidString)
        }
        let consumer = FeedConsumer()
        // Saves keep coming while the consumer reads.
        let writer = Task { try await Self.saveWhileReading(client) }
        // First connection: drop it in the middle of a page.
        _ = try await consumer.follow(port: port, query: "types=stepCount&limit=7") { applied, lines in
            applied.count >= 10 && lines % 7 == 3
        }
        let live = try await writer.value
        saved += live
        let deletionCount = saved.filter { $0.hasPrefix("deleted ") }.count
        let expected = saved.count - deletionCount
        // Second connection resumes from the last anchor it applied.
        _ = try await consumer.follow(port: port, query: "types=stepCount&limit=7") { applied, _ in
            applied.filter { $0.hasPrefix("deleted ") }.count == deletionCount && applied.count >= expected
        }
        let applied = await consumer.applied
        // Every change once. A sample deleted before the consumer
        // read it may be reported only as deleted (AQ-7).
        #expect(Set(applied).count == applied.count)
        let deleted = saved.filter { $0.hasPrefix("deleted ") }.map { String($0.dropFirst(8)) }
        let kept = saved.filter { !$0.hasPrefix("deleted ") && !deleted.contains($0) }
        #expect(applied.filter { !$0.hasPrefix("deleted ") && !deleted.contains($0) } == kept)
        #expect(applied.filter { $0.hasPrefix("deleted ") } == deleted.map { "deleted " + $0 })
    }

    @Test("a quiet stream sends the last anchor as a heartbeat; server-sent events resume from Last-Event-ID")
    func heartbeatsAndEvents() async throws {
        let clock = HandClock()
        let configuration = nodeConfiguration {
            $0.heartbeatInterval = .seconds(15)
            $0.clock = clock.store
        }
        try await withNode(configuration: configuration) { node, _ in
            try await clock.live(node) { client in
                let port = try #require(client.port)
                let first = UUID()
                _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1, uuid: first))]")
                let consumer = FeedConsumer()
                let following = Task {
                    try await consumer.follow(port: port, query: "types=stepCount") { _, lines in lines >= 4 }
                }
                // The backlog: the sample and its anchor line; then nothing
                // until the heartbeat's time comes, once for each interval.
                try await waitUntil("the backlog read") { await consumer.lineCount == 2 }
                for heartbeat in 1...2 {
                    try await clock.clock.waitForSleepers(remaining: [.seconds(15)])
                    #expect(await consumer.lineCount == 1 + heartbeat, "no heartbeat before its time")
                    clock.advance(by: .seconds(15))
                    try await waitUntil("heartbeat \(heartbeat)") { await consumer.lineCount == 2 + heartbeat }
                }
                #expect(try await following.value == 4)
                #expect(await consumer.applied == [first.uuidString])
                let anchor = try #require(await consumer.anchor)

                let second = UUID()
                _ = try await client.send(.post, "/v1/samples", json: "[\(stepJSON(1, uuid: second))]")
                // The first stream lingers until a heartbeat finds its client gone.
                try await clock.runDown()
                let reading = Task {
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/changes?types=stepCount")
                    request.headers.add(name: "Accept", value: "text/event-stream")
                    request.headers.add(name: "Last-Event-ID", value: anchor)
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
                    #expect(response.headers.first(name: "content-type") == "text/event-stream")
                    var text = ""
                    for try await chunk in response.body {
                        text += String(buffer: chunk)
                        if text.contains(": heartbeat\n\n") { break }
                    }
                    return text
                }
                // Caught up, the stream waits one heartbeat interval; then its heartbeat comes.
                try await waitUntil("the second stream's heartbeat timer set") {
                    clock.clock.sleeperCount == 1
                }
                #expect(clock.clock.remaining == [.seconds(15)])
                clock.advance(by: .seconds(15))
                let text = try await reading.value
                let event = try #require(text.components(separatedBy: "\n\n").first)
                #expect(event.hasPrefix("id: "))
                #expect(event.contains("event: changes\ndata: {\"added\":[{"))
                #expect(event.contains(second.uuidString) && !event.contains(first.uuidString))
            }
        }
    }
}
