public import Anchorage

/// What a followed change feed brings (``ChangeFeedSession/updates(heartbeat:until:)``).
///
/// ```swift
/// switch update {
/// case .page(let page): write(try encoding.lines(page.changes))
/// case .heartbeat(let anchor): write(FeedEncoding.anchorLine(anchor))
/// }
/// ```
public enum ChangeFeedUpdate: Sendable {
    /// Changes: a page of the backlog or of new commits.
    case page(ChangeFeedPage)
    /// Nothing happened for a heartbeat interval; the anchor is the last
    /// page's, repeated.
    case heartbeat(HKQueryAnchor)
}
