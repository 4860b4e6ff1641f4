import AnchorageService
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /v1/store-updates`: which of the node's stores changed, from which
/// anchor to which, resumable by the feed's own cursor (docs/http-api.md,
/// "One feed across every store"): a page, a long-poll (`wait`), or a
/// stream (`stream=ndjson` or `sse`). For the node's administrator and its
/// consumers' tokens; it names stores and anchors, never a health value.
struct StoreUpdatesRoutes: Sendable {
    let feed: StoreUpdatesFeed
    let configuration: NodeConfiguration
    let shutdown: ShutdownSignal

    func register(on router: some RouterMethods<NodeContext>) {
        router.group().add(middleware: AdminMiddleware(registry: feed.registry, consumers: true))
            .get("/v1/store-updates", use: handle)
    }

    enum Mode: Sendable { case page, ndjson, events }

    func handle(_ request: Request, context: NodeContext) async throws -> Response {
        let parameters = QueryParameters(request)
        let text = parameters.given("since") ?? request.headers[HTTPField.Name("Last-Event-ID")!]
        let cursor: StoreUpdatesCursor?
        switch text {
        case nil: cursor = nil
        case "now": cursor = try feed.headCursor()
        case let text?: cursor = try StoreUpdatesCursor(parsing: text)
        }
        if let cursor { try feed.check(cursor) }
        let limit = try parameters.integer(
            "limit",
            in: 1...configuration.maximumPageSize,
            default: min(1_000, configuration.maximumPageSize)
        )
        let wait = try parameters.integer("wait", in: 0...configuration.maximumWaitSeconds, default: 0)
        var mode = Mode.page
        switch try parameters.choice("stream", of: ["ndjson", "sse"]) {
        case nil: if request.headers[.accept] == "text/event-stream" { mode = .events }
        case "ndjson": mode = .ndjson
        default: mode = .events
        }
        if mode != .page && wait > 0 { throw APIError.badRequest("a stream waits by itself; leave out 'wait'") }
        guard mode == .page else {
            return Response(
                status: .ok,
                headers: [
                    .contentType: mode == .events ? "text/event-stream" : "application/x-ndjson",
                    .cacheControl: "no-store",
                ],
                body: stream(after: cursor, limit: limit, events: mode == .events)
            )
        }
        let page = try await feed.waitForUpdates(
            after: cursor,
            limit: limit,
            timeout: .seconds(wait),
            until: shutdown.stream()
        )
        return JSONBodies.response(ByteBuffer(bytes: try Self.encode(page)))
    }

    /// Every update after the cursor, a page at a time, then each new
    /// one as it is committed, with a heartbeat while none comes, until the
    /// client goes away or the node shuts down.
    private func stream(after cursor: StoreUpdatesCursor?, limit: Int, events: Bool) -> ResponseBody {
        let feed = feed
        let heartbeat = configuration.heartbeatInterval
        let shutdown = shutdown
        return ResponseBody { writer in
            var cursor = try cursor ?? StoreUpdatesCursor(registry: feed.registry.storeUpdatesID(), seq: 0)
            while !Task.isCancelled && !shutdown.isFired {
                let page = try await feed.waitForUpdates(
                    after: cursor,
                    limit: limit,
                    timeout: heartbeat,
                    until: shutdown.stream()
                )
                cursor = page.newCursor
                if page.updates.isEmpty {
                    let beat = events ? ": heartbeat\n\n" : #"{"newCursor":"\#(cursor)"}"# + "\n"
                    try await writer.write(ByteBuffer(string: beat))
                    continue
                }
                var bytes: [UInt8] = []
                if events {
                    bytes += Array("event: updates\nid: \(cursor)\ndata: ".utf8)
                    bytes += try Self.encode(page)
                    bytes += Array("\n\n".utf8)
                } else {
                    for update in page.updates {
                        bytes += try Self.encode(Item(update, registry: cursor.registry))
                        bytes.append(0x0A)
                    }
                    bytes += Array(#"{"newCursor":"\#(cursor)"}"#.utf8)
                    bytes.append(0x0A)
                }
                try await writer.write(ByteBuffer(bytes: bytes))
            }
            try await writer.finish(nil)
        }
    }

    /// One update as JSON: its cursor (to resume after it), the store, the
    /// kind, and the store's anchors.
    struct Item: Encodable {
        var cursor: String
        var store: String
        var kind: StoreUpdate.Kind
        var since: String?
        var anchor: String?

        init(_ update: StoreUpdate, registry: String) {
            cursor = StoreUpdatesCursor(registry: registry, seq: update.seq).description
            store = update.store
            kind = update.kind
            since = update.since
            anchor = update.anchor
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(cursor, forKey: .cursor)
            try container.encode(store, forKey: .store)
            try container.encode(kind, forKey: .kind)
            // Explicit nulls: "from the beginning" and "deleted" are answers.
            try container.encode(since, forKey: .since)
            try container.encode(anchor, forKey: .anchor)
        }

        enum CodingKeys: String, CodingKey { case cursor, store, kind, since, anchor }
    }

    struct Page: Encodable {
        var updates: [Item]
        var hasMore: Bool
        var newCursor: String
    }

    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func encode(_ page: StoreUpdatesPage) throws -> [UInt8] {
        let registry = page.newCursor.registry
        return try encode(
            Page(
                updates: page.updates.map { Item($0, registry: registry) },
                hasMore: page.hasMore,
                newCursor: page.newCursor.description
            )
        )
    }
}
