import Anchorage
import AnchorageLog

extension ChangeFeedSession {
    /// The page after the anchor, at once when it holds changes; otherwise
    /// held until a commit brings a matching change, `timeout` passes on
    /// the session's clock, `stop` yields (the node shuts down) or the
    /// store's commits end, and then read again (AQ-15: the long-poll). The
    /// anchor does not move; the page may be empty, with the current
    /// anchor as its new one.
    ///
    /// ```swift
    /// let page = try await session.waitForChanges(timeout: .seconds(30), until: shutdown.stream())
    /// ```
    ///
    /// - Parameter timeout: the longest wait; `nil` waits for changes
    ///   without end (a webhook), `.zero` does not wait.
    public func waitForChanges(
        timeout: Duration?,
        until stop: AsyncStream<Void>? = nil
    ) async throws -> ChangeFeedPage {
        if let timeout, timeout <= .zero { return try await read() }
        // Subscribe before reading, so no commit falls between the two.
        let batches = try store.committedBatches()
        let first = try await read()
        guard first.count == 0 else { return first }
        let session = self
        let clock = clock
        let woken = try await withThrowingTaskGroup(of: ChangeFeedPage?.self) { group in
            group.addTask {
                var latest = first
                var position = try session.store.position(of: latest.newAnchor)
                for await batch in batches where batch.last.seq > position {
                    latest = try await session.read(after: latest.newAnchor, limit: session.pageSize)
                    if latest.count > 0 { return latest }
                    position = try session.store.position(of: latest.newAnchor)
                }
                return nil
            }
            if let timeout {
                group.addTask {
                    try await clock.sleep(timeout)
                    return nil
                }
            }
            if let stop {
                group.addTask {
                    for await _ in stop { break }
                    return nil
                }
            }
            let winner = try await group.next() ?? nil
            group.cancelAll()
            return winner
        }
        if let woken { return woken }
        return try await read(after: first.newAnchor, limit: pageSize)
    }
}
