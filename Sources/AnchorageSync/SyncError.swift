/// Why a replication exchange failed: a code to match on and a message a
/// person understands. Messages never contain health values.
///
/// ```swift
/// do { try await replicator.sync(.both) }
/// catch let error as SyncError where error.code == .unreachable { … }
/// ```
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public let code: Code
    /// A sentence saying what happened and what to do.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    /// The kinds of ``SyncError``; new kinds can be added without breaking
    /// source compatibility.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String

        init(_ name: String) { self.name = name }

        public var description: String { name }

        /// Bytes that are not a batch this protocol version wrote: wrong
        /// magic, truncated, a digest or hash link that does not match.
        public static let malformedBatch = Code("malformedBatch")
        /// A batch or message larger than the receiver accepts.
        public static let tooLarge = Code("tooLarge")
        /// The peer speaks a protocol version this build does not.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// The peer is this store itself, or not the store it was before.
        public static let wrongPeer = Code("wrongPeer")
        /// The peer restored from a backup (new incarnation) during the
        /// exchange; the next round starts from its version vector.
        public static let incarnationChanged = Code("incarnationChanged")
        /// The receiver's checkpoint moved (a delayed, repeated or
        /// reordered batch); nothing was applied, and the next round
        /// starts from the checkpoint.
        public static let checkpointMoved = Code("checkpointMoved")
        /// The receiver refused a batch its log cannot apply.
        public static let rejected = Code("rejected")
        /// The peer did not answer in time.
        public static let timedOut = Code("timedOut")
        /// The peer could not be reached, or the connection broke.
        public static let unreachable = Code("unreachable")
        /// The peer refused the credentials (401) or the token lacks the
        /// replication grant (403).
        public static let unauthorized = Code("unauthorized")
        /// One side of a fleet exchange holds a higher fleet epoch than the
        /// other: a copy never follows, nor acknowledges, a store whose
        /// epoch is lower than the highest it holds (a deposed primary).
        public static let staleEpoch = Code("staleEpoch")
        /// The peer answered something this protocol does not expect.
        public static let protocolViolation = Code("protocolViolation")

        /// Lets `catch SyncError.Code.timedOut` match a ``SyncError`` with that code.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            (error as? SyncError)?.code == pattern
        }
    }
}
