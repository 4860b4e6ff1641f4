/// The change feed followed from an anchor, page by page: see
/// ``AnchorageNodeClient/changeFeed(since:types:limit:wait:)``.
///
/// ```swift
/// for try await page in client.changeFeed(since: anchor, types: ["heartRate"], wait: .seconds(30)) {
///     print(page.added.count, "added;", page.deleted.count, "deleted")
///     anchor = page.newAnchor
/// }
/// ```
public struct ChangeFeed: AsyncSequence, Sendable {
    public typealias Element = ChangePage

    let client: AnchorageNodeClient
    let anchor: String?
    let types: [String]
    let limit: Int?
    let wait: Duration

    public func makeAsyncIterator() -> Iterator {
        Iterator(feed: self, anchor: anchor)
    }

    /// Asks for the page after the last one's anchor, holding each request
    /// for up to `wait` while nothing is newer.
    public struct Iterator: AsyncIteratorProtocol {
        let feed: ChangeFeed
        /// The anchor the next request resumes from.
        public private(set) var anchor: String?

        /// The next page with changes; `nil` once the task is cancelled.
        ///
        /// - Throws: the first ``AnchorageClientError``.
        public mutating func next() async throws -> ChangePage? {
            while !Task.isCancelled {
                let page: ChangePage
                do {
                    page = try await feed.client.changes(
                        since: anchor,
                        types: feed.types,
                        limit: feed.limit,
                        wait: feed.wait
                    )
                } catch  where Task.isCancelled {
                    return nil
                }
                anchor = page.newAnchor
                if !page.isEmpty { return page }
            }
            return nil
        }
    }
}
