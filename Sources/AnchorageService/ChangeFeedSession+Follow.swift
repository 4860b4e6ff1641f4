import Anchorage
import AnchorageLog

extension ChangeFeedSession {
    /// The feed followed from the session's anchor now: the backlog in pages
    /// of ``pageSize`` until one is not full, then each commit's matching
    /// changes as it lands, and when nothing happens for `heartbeat` on the
    /// session's clock, a heartbeat. A page without changes is left out,
    /// except the first when the session has no anchor yet (so the consumer
    /// learns one). It ends when `stop` yields, when the store's
    /// commits end, or when the consuming task is cancelled.
    ///
    /// Iterate it once. Commits are watched from this call on, so nothing
    /// committed after it is missed.
    ///
    /// ```swift
    /// for try await update in try session.updates(heartbeat: .seconds(15), until: shutdown.stream()) {
    ///     if case .page(let page) = update { write(try encoding.lines(page.changes)) }
    /// }
    /// ```
    ///
    /// - Parameter heartbeat: the quiet time between heartbeats; `nil`
    ///   for none.
    public func updates(heartbeat: Duration?, until stop: AsyncStream<Void>? = nil) throws -> ChangeFeedUpdates {
        ChangeFeedUpdates(session: self, batches: try store.committedBatches(), heartbeat: heartbeat, stop: stop)
    }
}

/// A followed change feed: ``ChangeFeedSession/updates(heartbeat:until:)``.
///
/// ```swift
/// for try await update in try session.updates(heartbeat: nil) { … }
/// ```
public struct ChangeFeedUpdates: AsyncSequence, Sendable {
    public typealias Element = ChangeFeedUpdate

    let session: ChangeFeedSession
    /// Taken when the sequence is made, before the backlog is read.
    let batches: AsyncStream<CommittedBatch>
    let heartbeat: Duration?
    let stop: AsyncStream<Void>?

    public func makeAsyncIterator() -> Iterator {
        Iterator(source: self, session: session, sendsEmptyFirstPage: session.anchor == nil)
    }

    /// Reads pages while catching up, then waits for the next event.
    public struct Iterator: AsyncIteratorProtocol {
        let source: ChangeFeedUpdates
        var session: ChangeFeedSession
        /// Whether pages are read until one is not full.
        var catchingUp = true
        /// Whether the first page is sent even without changes.
        var sendsEmptyFirstPage: Bool
        /// The position of the session's anchor, once read.
        var position: UInt64 = 0
        var events: FeedEvents?

        public mutating func next() async throws -> ChangeFeedUpdate? {
            while true {
                if catchingUp {
                    let page = try await session.next()
                    position = try session.store.position(of: page.newAnchor)
                    catchingUp = page.hasMore
                    let sendsEmpty = sendsEmptyFirstPage
                    sendsEmptyFirstPage = false
                    if page.count > 0 || sendsEmpty { return .page(page) }
                    continue
                }
                if events == nil {
                    events = FeedEvents(
                        batches: source.batches,
                        heartbeat: source.heartbeat,
                        clock: session.clock,
                        stop: source.stop
                    )
                }
                guard let event = await events?.next() else { return nil }
                switch event {
                case .commit(let head):
                    if head > position { catchingUp = true }
                case .tick:
                    if let anchor = session.anchor { return .heartbeat(anchor) }
                }
            }
        }
    }
}
