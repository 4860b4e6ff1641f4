/// Why a use case of the application layer refused or failed: a code to
/// match and a message a person understands. Messages never hold a health
/// value or a token's secret.
///
/// ```swift
/// do { try registry.createStore("alice") } catch let error as ServiceError where error.code == .storeExists { … }
/// ```
public struct ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// A store id that cannot name a store (see ``StoreName``).
        public static let invalidStoreID = Code(name: "invalidStoreID")
        /// Creating a store whose id is taken.
        public static let storeExists = Code(name: "storeExists")
        /// A store the registry does not hold (or that is being deleted).
        public static let storeNotFound = Code(name: "storeNotFound")
        /// Adding a peer a store already replicates with.
        public static let peerExists = Code(name: "peerExists")
        /// A peer id the store does not have.
        public static let peerNotFound = Code(name: "peerNotFound")
        /// A token id the registry does not hold.
        public static let tokenNotFound = Code(name: "tokenNotFound")
        /// A grant that cannot be issued (unknown type, owner with grants…).
        public static let invalidGrant = Code(name: "invalidGrant")
        /// The node holds as many stores as its quota allows.
        public static let quotaExceeded = Code(name: "quotaExceeded")
        /// A cursor that no access-log page handed out.
        public static let invalidCursor = Code(name: "invalidCursor")
        /// A limit, date or range outside what the use case accepts.
        public static let invalidArgument = Code(name: "invalidArgument")
        /// Input that is not the JSON asked for (the message names where).
        public static let invalidJSON = Code(name: "invalidJSON")
        /// A request that makes no sense, such as a save of nothing.
        public static let badRequest = Code(name: "badRequest")
        /// A store open in a running process (a node) cannot be deleted.
        public static let storeInUse = Code(name: "storeInUse")
        /// The store's data key was destroyed on purpose (crypto-shredding):
        /// nothing it sealed can be read again, on any copy.
        public static let keyShredded = Code(name: "keyShredded")
        /// The store's data key cannot be had now: its key provider (an HSM)
        /// does not answer, or its wrapping key is gone.
        public static let keyUnavailable = Code(name: "keyUnavailable")
        /// A write waits for a replica's acknowledgement and none follows
        /// the store or confirmed it in time (``WriteGuard``).
        public static let replicationUnavailable = Code(name: "replicationUnavailable")
        /// This node may not take the write now: it is taking a fleet
        /// store over, or cannot renew its fleet lease (``WriteLease``).
        public static let fleetUnavailable = Code(name: "fleetUnavailable")
        /// A copy of the store holds a higher fleet epoch than this node
        /// leads it at: this node is no longer its primary.
        public static let notPrimary = Code(name: "notPrimary")
        /// The registry's database, a store's directory or the access log
        /// failed (a read that cannot be recorded is refused).
        public static let storageFailed = Code(name: "storageFailed")
    }

    public let code: Code
    public let message: String
    /// How long the caller should wait before asking again, when the
    /// refusal is temporary (a failover, a replica reconnecting).
    public var retryAfter: Duration?

    public init(_ code: Code, _ message: String, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        // A key provider that does not answer (an HSM) takes seconds to come back.
        self.retryAfter = retryAfter ?? (code == .keyUnavailable ? .seconds(5) : nil)
    }

    public var description: String { message }
}
