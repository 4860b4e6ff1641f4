public import Anchorage

/// One page of a ``ChangeFeedSession``: the changes read after the
/// session's anchor, and whether the page is full.
///
/// ```swift
/// let page = try await session.next()
/// var encoding = FeedEncoding()
/// let body = try encoding.page(page.changes, hasMore: page.hasMore)
/// ```
public struct ChangeFeedPage: Sendable {
    /// The samples added, the objects deleted and the activity summaries
    /// changed, and the anchor after them.
    public let changes: ChangeFeedDescriptor.Result
    /// Whether the page is full: more may follow at once. (The changes of
    /// one log entry are never split, so a full page can hold a few more
    /// than its limit.)
    public let hasMore: Bool

    /// Where the next page starts.
    public var newAnchor: HKQueryAnchor { changes.newAnchor }

    /// How many changes the page holds.
    public var count: Int { changes.count }

    /// A page read with `limit` (`nil`: everything, never more).
    public init(changes: ChangeFeedDescriptor.Result, limit: Int?) {
        self.changes = changes
        self.hasMore = limit.map { changes.count >= $0 } ?? false
    }
}
