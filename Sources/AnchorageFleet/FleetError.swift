/// Why a fleet operation failed, with a code to match.
///
/// ```swift
/// do { try await placements.create("alice", on: nodes, by: claim) }
/// catch let error as FleetError where error.code == .notController { /* another node decides now */ }
/// ```
public struct FleetError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public let name: String
        public var description: String { name }

        /// Another live process holds this node id.
        public static let nodeIDInUse = Code(name: "nodeIDInUse")
        /// The caller is no longer the controller: its claim was fenced off.
        public static let notController = Code(name: "notController")
        /// Too few live nodes to place a store.
        public static let noNodes = Code(name: "noNodes")
        /// etcd holds something that is not the fleet's record.
        public static let malformedRecord = Code(name: "malformedRecord")
        public static let invalidArgument = Code(name: "invalidArgument")
        /// A store-updates cursor that is no position of this fleet's feed.
        public static let invalidCursor = Code(name: "invalidCursor")
        /// A store-updates cursor older than what etcd keeps (compacted):
        /// read the feed again from its beginning.
        public static let cursorExpired = Code(name: "cursorExpired")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
