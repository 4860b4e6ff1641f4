public import Anchorage

/// A reader of the change feed (docs/http-api.md, `GET /v1/changes`) that
/// every front end shares: the HTTP route's pages, long-polls and streams,
/// the webhook deliverer and `anchorage changes`. It reads pages after its
/// anchor, waits for changes on an injected clock, and follows the store
/// with heartbeats; front ends only parse, call it and write.
///
/// The anchor stays opaque: the session compares positions itself, and
/// front ends pass anchors on as they got them.
///
/// ```swift
/// var session = try ChangeFeedSession(
///     store: store, predicates: [.sample(type: HKQuantityType(.stepCount))], since: nil, pageSize: 1_000)
/// var encoding = FeedEncoding()
/// repeat {
///     let page = try await session.next()
///     write(try encoding.lines(page.changes))
/// } while page.hasMore
/// ```
public struct ChangeFeedSession: Sendable {
    /// The store read.
    public let store: HKHealthStore
    /// The samples reported.
    public let predicates: [HKSamplePredicate<HKSample>]
    /// Whether activity summaries are reported too.
    public let activitySummaries: Bool
    /// The most changes of a page; `nil` for everything in one page.
    public let pageSize: Int?
    /// The clock waits and heartbeats count on.
    public let clock: StoreClock
    /// Where the next page starts; `nil` for the beginning.
    public private(set) var anchor: HKQueryAnchor?

    /// A session reading after `since`; the anchor is checked at once, so a
    /// front end can refuse it before it sends anything (AQ-11).
    ///
    /// - Throws: ``HKError`` `errorInvalidArgument` for an anchor of
    ///   another store, an earlier incarnation, or past the end of the log.
    public init(
        store: HKHealthStore,
        predicates: [HKSamplePredicate<HKSample>],
        activitySummaries: Bool = false,
        since: HKQueryAnchor?,
        pageSize: Int?,
        clock: StoreClock = .continuous
    ) throws {
        if let since { _ = try store.position(of: since) }
        self.store = store
        self.predicates = predicates
        self.activitySummaries = activitySummaries
        self.anchor = since
        self.pageSize = pageSize
        self.clock = clock
    }

    /// The page after the session's anchor, without moving it (a webhook
    /// posts the same page again until it is taken).
    ///
    /// ```swift
    /// let page = try await session.read()
    /// try await post(page)
    /// session.advance(past: page)
    /// ```
    public func read() async throws -> ChangeFeedPage {
        try await read(after: anchor, limit: pageSize)
    }

    /// Moves the anchor past `page`, read from this session.
    ///
    /// ```swift
    /// session.advance(past: try await session.read())
    /// ```
    public mutating func advance(past page: ChangeFeedPage) {
        anchor = page.newAnchor
    }

    /// The next page of ``pageSize``: read, then the anchor moved past it.
    ///
    /// ```swift
    /// let page = try await session.next()
    /// ```
    public mutating func next() async throws -> ChangeFeedPage {
        try await next(limit: pageSize)
    }

    /// The next page of at most about `limit` changes (`nil`: everything),
    /// whatever ``pageSize`` says; the anchor moves past it.
    ///
    /// ```swift
    /// let page = try await session.next(limit: 2)
    /// ```
    public mutating func next(limit: Int?) async throws -> ChangeFeedPage {
        let page = try await read(after: anchor, limit: limit)
        advance(past: page)
        return page
    }

    /// The page after `start`.
    func read(after start: HKQueryAnchor?, limit: Int?) async throws -> ChangeFeedPage {
        let changes = try await ChangeFeedDescriptor(
            predicates: predicates,
            activitySummaries: activitySummaries,
            anchor: start,
            limit: limit
        ).result(for: store)
        return ChangeFeedPage(changes: changes, limit: limit)
    }
}
