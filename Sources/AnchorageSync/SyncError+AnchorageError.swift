public import AnchorageCore

/// `sync.<code>`: `sync.wrongPeer`, `sync.malformedBatch`…
extension SyncError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.sync, code.description) }
}
