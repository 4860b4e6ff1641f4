/// A statistics request that cannot be answered as written: what was wrong,
/// in words a person can act on, naming the field as the front end spells it
/// (`from` over HTTP, `--from` on the command line).
///
/// ```swift
/// do { _ = try StatisticsRequest(queryString: "type=stepz") } catch { print(error.code, error.message) }
/// ```
public struct StatisticsRequestError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of mistake it is; the HTTP API answers `400` with it.
    public enum Code: String, Sendable {
        /// A value not in the expected form, or a request too large.
        case invalidArgument
        /// A type name that names no sample type.
        case unknownType
        /// A unit the type cannot be expressed in (UNIT-18).
        case incompatibleUnit
    }

    /// What kind of mistake it is.
    public let code: Code
    /// The field at fault, when one is.
    public let field: StatisticsRequest.Field?
    /// What was wrong and what to write instead.
    public let message: String

    /// An error about `field`.
    public init(_ code: Code, _ field: StatisticsRequest.Field?, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { message }
}
