import Anchorage
import AnchorageService
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
        /// `since=now`: from the store's head, so only later changes come.
        var sinceNow = false
        var limit: Int
        var wait: Int
        var mode: Mode
    }

    enum Mode: Sendable { case page, ndjson, events }

    func handle(_ request: Request, context: NodeContext) async throws -> Response {
        let store = try context.requireStore()
        var query = try parse(request)
        // `since=now`: the head's anchor, read in one short transaction, so a
        // consumer that wants only what comes next does not page the log.
        if query.sinceNow { query.since = try store.currentAnchor() }
        // Types the principal may not read are left out, as if empty (AUTH-4).
        query.types = query.types.filter(context.mayRead)
        query.summaries = query.summaries && context.mayRead(HKObjectType.activitySummaryType())
        let record = AccessRecord(
            principal: context.principalName,
            action: "GET /v1/changes",
            types: query.types.map(\.identifier)
                + (query.summaries ? [HKObjectType.activitySummaryType().identifier] : []),
            since: query.since?.stringValue,
            count: 0
        )
        // The anchor is checked before anything is sent (AQ-11).
        let session = try ChangeFeedSession(
            store: store,
            predicates: query.types.map { .sample(type: $0) },
            activitySummaries: query.summaries,
            since: query.since,
            pageSize: query.limit,
            clock: configuration.clock
        )
        switch query.mode {
        case .page:
            metrics.feedClients.increment()
            defer { metrics.feedClients.decrement() }
            let page = try await session.waitForChanges(
                timeout: .seconds(query.wait),
                until: shutdown.stream(also: context.storeClosing)
            )
            metrics.feedChanges.increment(by: page.count)
            try await context.recordRead(
                record.with(until: page.newAnchor.stringValue, count: page.count, phase: nil)
            )
            var encoding = FeedEncoding()
            return JSONBodies.response(try encoding.page(page.changes, hasMore: page.hasMore))
        case .ndjson, .events:
            // A stream is recorded when it opens, then once per page sent.
            try await context.recordRead(record.with(until: nil, count: 0, phase: "start"))
            return Response(
                status: .ok,
                headers: [
                    .contentType: query.mode == .events ? "text/event-stream" : "application/x-ndjson",
                    .cacheControl: "no-store",
                ],
                body: stream(session, mode: query.mode, record: record, context: context)
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
            since = try resume.flatMap { text throws(HKError) in
                text == "now" ? nil : try HKQueryAnchor(string: text)
            }
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
        switch try parameters.choice("stream", of: ["ndjson", "sse"], aliases: ["events"]) {
        case nil: if request.headers[.accept] == "text/event-stream" { mode = .events }
        case "ndjson": mode = .ndjson
        default: mode = .events
        }
        if mode != .page && wait > 0 { throw APIError.badRequest("a stream waits by itself; leave out 'wait'") }
        return Query(
            types: types,
            summaries: summaries,
            since: since,
            sinceNow: resume == "now",
            limit: limit,
            wait: wait,
            mode: mode
        )
    }

    /// Everything since the anchor in pages, then each new commit's
    /// matching changes, with heartbeats, until the client goes away or the
    /// node shuts down.
    private func stream(
        _ session: ChangeFeedSession,
        mode: Mode,
        record: AccessRecord,
        context: NodeContext
    ) -> ResponseBody {
        let heartbeat = configuration.heartbeatInterval
        let metrics = metrics
        let shutdown = shutdown
        return ResponseBody { writer in
            metrics.feedClients.increment()
            defer { metrics.feedClients.decrement() }
            var encoding = FeedEncoding()
            for try await update in try session.updates(
                heartbeat: heartbeat,
                until: shutdown.stream(also: context.storeClosing)
            ) {
                switch update {
                case .page(let page):
                    try await context.recordRead(
                        record.with(until: page.newAnchor.stringValue, count: page.count, phase: "page")
                    )
                    let changes = page.changes
                    try await writer.write(mode == .events ? encoding.event(changes) : encoding.lines(changes))
                    metrics.feedChanges.increment(by: page.count)
                case .heartbeat(let anchor):
                    try await writer.write(
                        mode == .events ? FeedEncoding.eventHeartbeat : FeedEncoding.anchorLine(anchor)
                    )
                }
            }
            try await writer.finish(nil)
        }
    }
}
