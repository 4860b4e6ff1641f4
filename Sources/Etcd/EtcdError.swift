/// Why an etcd request failed. The three codes say what a caller may do:
///
/// - ``Code/notSent``: no endpoint received the request; nothing changed,
///   and trying again is safe.
/// - ``Code/noAnswer``: the request may have been applied or not (a timeout,
///   a connection lost after sending, an election in progress). Never
///   resend a write blindly: read the keys again and decide (a compare on
///   a revision or an id in the value tells).
/// - ``Code/refused``: etcd answered and refused (a compare's lease is
///   gone, the token is wrong, the revision is compacted); nothing changed.
///
/// ```swift
/// do {
///     try await etcd.put("/anchorage/nodes/n1", value: record, lease: lease)
/// } catch let error as EtcdError where error.code == .noAnswer {
///     let now = try await etcd.range("/anchorage/nodes/n1")   // decide from what etcd holds
/// }
/// ```
public struct EtcdError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the caller may conclude about the request.
    public enum Code: String, Sendable, Hashable {
        case notSent
        case noAnswer
        case refused
    }

    public let code: Code
    /// The gRPC status code of etcd's answer (0 when etcd did not answer).
    public let status: Int
    /// What happened, in words (etcd's own message when it answered).
    public let message: String

    public init(_ code: Code, status: Int = 0, _ message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    public var description: String { "etcd \(code.rawValue): \(message)" }

    /// Whether etcd refused because the revision asked for was compacted
    /// away (gRPC `OutOfRange`): read again at the current revision.
    public var isCompacted: Bool { code == .refused && status == Status.outOfRange }

    /// Whether etcd refused because a lease named in the request no longer
    /// exists (it expired or was revoked).
    public var isLeaseNotFound: Bool { code == .refused && message.contains("requested lease not found") }

    /// The gRPC status codes the client tells apart.
    enum Status {
        static let canceled = 1
        static let unknown = 2
        static let deadlineExceeded = 4
        static let outOfRange = 11
        static let unavailable = 14
        static let unauthenticated = 16
    }
}
