public import AnchorageCore

/// `node.invalidConfiguration`.
extension NodeConfigurationError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.node, "invalidConfiguration") }
    public var message: String { description }
    public var cause: (any Error)? { underlyingError }
}
