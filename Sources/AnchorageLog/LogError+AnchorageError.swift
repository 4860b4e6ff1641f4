public import AnchorageCore

/// `log.<code>`: `log.staleAnchor`, `log.malformedEntry`…
extension LogError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.log, code.description) }
}
