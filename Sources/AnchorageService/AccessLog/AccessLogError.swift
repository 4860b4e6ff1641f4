/// Why the access log could not record or answer.
///
/// ```swift
/// catch let error as AccessLogError where error.code == .storageFailed { … }
/// ```
public struct AccessLogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }

        /// The entry could not be written: the read it records is refused.
        public static let storageFailed = Code(name: "storageFailed")
        /// A cursor that no access-log page handed out.
        public static let invalidCursor = Code(name: "invalidCursor")
        /// A limit, date or range outside what the log accepts.
        public static let invalidArgument = Code(name: "invalidArgument")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
