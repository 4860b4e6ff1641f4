public import AnchorageCore

/// `keys.<code>`.
extension KeyError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.keys, code.description) }
}
