/// A node configuration that cannot be served: an unsafe listening address
/// without tokens, a token file that cannot be read, a TLS certificate that
/// cannot be loaded. The message says what to change.
///
/// ```swift
/// do { node = try await AnchorageNode(configuration: configuration) } catch let error as NodeConfigurationError {
///     print(error)   // "refusing to listen on 0.0.0.0 without tokens: …"
/// }
/// ```
public struct NodeConfigurationError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and what to do instead.
    public let description: String
    /// What caused it (a decoding or TLS error), when something did.
    public let underlyingError: (any Error)?

    init(_ description: String, underlyingError: (any Error)? = nil) {
        self.description = description
        self.underlyingError = underlyingError
    }
}
