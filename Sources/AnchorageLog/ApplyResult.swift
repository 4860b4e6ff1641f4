/// What applying a batch of replicated entries did.
public struct ApplyResult: Sendable, Hashable {
    /// Entries appended to this log.
    public let applied: Int
    /// Entries skipped because the version vector already covered their dot.
    public let skipped: Int
    /// This log's head after the batch.
    public let head: Anchor
}
