extension StoreClock {
    /// Waits for the first element of `stream` that `wanted` accepts, at
    /// most `timeout` on this clock, or until `stop` yields: what a
    /// long-poll holds a request on.
    ///
    /// ```swift
    /// let woken = await clock.waitForFirst(of: heads, where: { $0 > after }, timeout: .seconds(30), until: shutdown)
    /// ```
    ///
    /// - Returns: whether such an element came (`false`: the timeout, a
    ///   stop, the stream's end or cancellation).
    public func waitForFirst<Element: Sendable>(
        of stream: AsyncStream<Element>,
        where wanted: @escaping @Sendable (Element) -> Bool,
        timeout: Duration,
        until stop: AsyncStream<Void>? = nil
    ) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await element in stream where wanted(element) { return true }
                return false
            }
            group.addTask {
                do { try await sleep(timeout) } catch {}
                return false
            }
            if let stop {
                group.addTask {
                    for await _ in stop { break }
                    return false
                }
            }
            let winner = await group.next() ?? false
            group.cancelAll()
            return winner
        }
    }
}
