/// The one shape of every error Anchorage's modules throw: a stable code to
/// match (the same across releases, named by where it came from), a
/// message a person understands, and the error that caused it, if any.
/// Messages never hold a health value or a secret.
///
/// Front ends map errors by ``stableCode``, never by their type: the HTTP
/// API's status and code, the CLI's words.
///
/// ```swift
/// do { try await store.save(sample) } catch let error as any AnchorageError {
///     if error.stableCode == ErrorCode(.model, "errorInvalidArgument") { … }
///     print(error.stableCode, error.message)        // model.errorInvalidArgument: …
/// }
/// ```
public protocol AnchorageError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, stable across releases, and where.
    var stableCode: ErrorCode { get }
    /// What went wrong and what to do, in words.
    var message: String { get }
    /// The error that caused this one (a C library's, a file system's).
    var cause: (any Error)? { get }
    /// How long to wait before trying again, when the failure is temporary.
    var retryAfter: Duration? { get }
    /// The message as front ends show it (an `HKError` adds the id of the
    /// rule that was broken).
    var shownMessage: String { get }
}

extension AnchorageError {
    public var cause: (any Error)? { nil }
    public var retryAfter: Duration? { nil }
    public var shownMessage: String { message }
    /// Where the error came from.
    public var origin: ErrorOrigin { stableCode.origin }
}
