public import AnchorageCore

/// `interface.malformedFile`.
extension InterfaceFormatError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.interface, "malformedFile") }
}

/// `interface.malformedDeclaration`.
extension DeclarationError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.interface, "malformedDeclaration") }
}
