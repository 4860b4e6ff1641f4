import Anchorage
import AnchorageLog
import AnchorageService
import AsyncAlgorithms
import CoreMetrics
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/changes`: the anchored-object semantics over HTTP, as pages
/// (with an optional long-poll `wait`) or as a live stream (NDJSON or
/// server-sent events).
struct ChangeFeed: Sendable {
    let configuration: NodeConfiguration
    let metrics: NodeMetrics
    let shutdown: ShutdownSignal

    /// What a request asks for.
    struct Query: Sendable {
        var types: [HKSampleType]
        /// Whether activity summaries are reported too.
        var summaries: Bool
        var since: HKQueryAnchor?
        var limit: Int
        var wait: Int
        var mode: Mode
    }

    enum Mode: Sendable { case page, ndjson, events }

    func handle(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        var query = try parse(request)
        // Types the principal may not read are left out, as if empty (AUTH-4).
        query.types = query.types.filter(context.mayRead)
        query.summaries = query.summaries && context.mayRead(HKObjectType.activitySummaryType())
        // The anchor is checked before anything is sent (AQ-11).
        if let since = query.since { _ = try store.position(of: since) }
        switch query.mode {
        case .page:
            metrics.feedClients.increment()
            defer { metrics.feedClients.decrement() }
            let body = try await page(query, store: store)
            return JSONBodies.response(body)
        case .ndjson, .events:
            return Response(
                status: .ok,
                headers: [
                    .contentType: query.mode == .events ? "text/event-stream" : "application/x-ndjson",
                    .cacheControl: "no-store",
                ],
                body: stream(query, store: store)
            )
        }
    }

    private func parse(_ request: Request) throws -> Query {
        let parameters = QueryParameters(request)
        var types: [HKSampleType] = []
        var summaries = false
        // Each type is read once, however often the request names it.
        var seen = Set<String>()
        for name in ["types", "type"] {
            for text in parameters.list(name) {
                if TextForms.isActivitySummary(text) {
                    summaries = true
                    continue
                }
                let type: HKSampleType
                do {
                    type = try TextForms.sampleType(text)
                } catch {
                    throw APIError(
                        .badRequest,
                        .unknownType,
                        "\(name): \(error.description), or activitySummary for daily activity summaries"
                    )
                }
                if seen.insert(type.identifier).inserted { types.append(type) }
            }
        }
        // No type named: everything, activity summaries included.
        if types.isEmpty && !summaries {
            types = HKObjectType.allSampleTypes
            summaries = true
        }
        let resume = parameters.string("since") ?? request.headers[HTTPField.Name("Last-Event-ID")!]
        let since: HKQueryAnchor?
        do {
            since = try resume.map { text throws(HKError) in try HKQueryAnchor(string: text) }
        } catch {
            throw APIError(.badRequest, .anchorNotValid, "since: \(error.message); start over without 'since'")
        }
        let limit = try parameters.integer(
            "limit",
            in: 1...configuration.maximumPageSize,
            default: min(1_000, configuration.maximumPageSize)
        )
        let wait = try parameters.integer("wait", in: 0...configuration.maximumWaitSeconds, default: 0)
        var mode = Mode.page
        switch parameters.string("stream") {
        case nil: if request.headers[.accept] == "text/event-stream" { mode = .events }
        case "ndjson": mode = .ndjson
        case "sse", "events": mode = .events
        default: throw APIError.badRequest("'stream' is ndjson or sse")
        }
        if mode != .page && wait > 0 { throw APIError.badRequest("a stream waits by itself; leave out 'wait'") }
        return Query(types: types, summaries: summaries, since: since, limit: limit, wait: wait, mode: mode)
    }

    private typealias Changes = ChangeFeedDescriptor.Result

    private func changes(_ query: Query, after anchor: HKQueryAnchor?, store: HKHealthStore) async throws -> Changes {
        try await ChangeFeedDescriptor(
            predicates: query.types.map { .sample(type: $0) },
            activitySummaries: query.summaries,
            anchor: anchor,
            limit: query.limit
        ).result(for: store)
    }

    private static func count(_ changes: Changes) -> Int { changes.count }

    /// One page; with `wait`, held until a commit brings a matching change
    /// or the wait ends.
    private func page(_ query: Query, store: HKHealthStore) async throws -> ByteBuffer {
        // Subscribe before reading, so no commit falls between the two.
        let batches = query.wait > 0 ? try store.committedBatches() : nil
        var result = try await changes(query, after: query.since, store: store)
        if Self.count(result) == 0, let batches {
            let first = result
            let wait = Duration.seconds(query.wait)
            let clock = configuration.clock
            let shutdown = shutdown
            let woken = try await withThrowingTaskGroup(of: Changes?.self) { group in
                group.addTask {
                    var latest = first
                    var position = try store.position(of: latest.newAnchor)
                    for await batch in batches where batch.last.seq > position {
                        latest = try await changes(query, after: latest.newAnchor, store: store)
                        if Self.count(latest) > 0 { return latest }
                        position = try store.position(of: latest.newAnchor)
                    }
                    return nil
                }
                group.addTask {
                    try await clock.sleep(wait)
                    return nil
                }
                group.addTask {
                    for await _ in shutdown.stream() { break }
                    return nil
                }
                let winner = try await group.next() ?? nil
                group.cancelAll()
                return winner
            }
            if let woken {
                result = woken
            } else {
                result = try await changes(query, after: first.newAnchor, store: store)
            }
        }
        metrics.feedChanges.increment(by: Self.count(result))
        var encoding = FeedEncoding()
        return try encoding.page(result, hasMore: Self.count(result) >= query.limit)
    }

    /// Everything since the anchor in pages, then each new commit's
    /// matching changes, with heartbeats, until the client goes away or the
    /// node shuts down.
    private func stream(_ query: Query, store: HKHealthStore) -> ResponseBody {
        let heartbeat = configuration.heartbeatInterval
        let clock = configuration.clock
        let metrics = metrics
        let shutdown = shutdown
        return ResponseBody { writer in
            metrics.feedClients.increment()
            defer { metrics.feedClients.decrement() }
            var encoding = FeedEncoding()
            let batches = try store.committedBatches()
            var anchor = query.since
            var position: UInt64 = try anchor.map { try store.position(of: $0) } ?? 0

            func send(_ result: Changes) async throws {
                let buffer = try query.mode == .events ? encoding.event(result) : encoding.lines(result)
                try await writer.write(buffer)
                metrics.feedChanges.increment(by: Self.count(result))
            }
            // Pages until one is not full: then the anchor is the head.
            func catchUp() async throws {
                while true {
                    let result = try await changes(query, after: anchor, store: store)
                    if Self.count(result) > 0 || anchor == nil { try await send(result) }
                    anchor = result.newAnchor
                    position = try store.position(of: result.newAnchor)
                    if Self.count(result) < query.limit { return }
                }
            }

            try await catchUp()
            enum Event: Sendable {
                case commit(UInt64)
                case tick, shutdown
            }
            let events = merge(
                batches.map { Event.commit($0.last.seq) },
                AsyncTimerSequence(interval: heartbeat, clock: clock.timeline).map { _ in Event.tick },
                shutdown.stream().map { Event.shutdown }
            )
            loop: for await event in events {
                switch event {
                case .commit(let head) where head > position:
                    try await catchUp()
                case .commit:
                    continue
                case .tick:
                    if query.mode == .events {
                        try await writer.write(FeedEncoding.eventHeartbeat)
                    } else if let anchor {
                        try await writer.write(FeedEncoding.anchorLine(anchor))
                    }
                case .shutdown:
                    break loop
                }
            }
            try await writer.finish(nil)
        }
    }
}
