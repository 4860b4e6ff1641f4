/// One page of entries read from an anchor.
public struct LogPage: Sendable {
    /// The entries, in sequence order.
    public let entries: [LogEntry]
    /// Where to resume: after the last entry examined, which may lie past the
    /// last entry returned when a kind filter skipped some.
    public let next: Anchor
    /// Whether the log held entries after ``next`` when the page was read.
    public let hasMore: Bool
}
