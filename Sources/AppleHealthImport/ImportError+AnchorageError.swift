public import AnchorageCore

/// `import.<code>`: `import.malformed`, `import.notAnExport`…
extension ImportError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.healthImport, "\(code)") }
    /// The message with where in the export it went wrong.
    public var shownMessage: String { description }
}
