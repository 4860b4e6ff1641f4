/// An error of the HealthKit model and store, with HealthKit's codes.
///
/// Where HealthKit stops the program on bad input (an invalid unit string,
/// a sample whose start is after its end…), Anchorage's throwing twins
/// throw this error instead, with ``Code/errorInvalidArgument`` and the id
/// of the rule that was broken (see the behavioural spec):
///
/// ```swift
/// do {
///     let unit = try HKUnit.parse(userInput)
/// } catch let error as HKError where error.code == .errorInvalidArgument {
///     print(error.rule ?? "", error.message)   // "UNIT-1", "'kgg' is not a unit: …"
/// }
/// ```
///
/// Messages name types, units and identifiers, never health values.
///
/// An error the store could not avoid (the disk is full, the log is
/// damaged…) keeps what caused it in ``underlyingError``, so a caller can
/// match the storage layer's code:
///
/// ```swift
/// do { try await store.save(samples) } catch let error as HKError {
///     if let cause = error.underlyingError as? LMDBError, cause.code == .mapFull { grow() }
/// }
/// ```
public struct HKError: Error, Sendable, Hashable, CustomStringConvertible {
    /// HealthKit's error codes (`HKErrorDomain`).
    public enum Code: Int, Sendable, Hashable, Codable, CustomStringConvertible {
        case unknownError = 0
        case errorHealthDataUnavailable = 1
        case errorHealthDataRestricted = 2
        case errorInvalidArgument = 3
        case errorAuthorizationDenied = 4
        case errorAuthorizationNotDetermined = 5
        case errorDatabaseInaccessible = 6
        case errorUserCanceled = 7
        case errorAnotherWorkoutSessionStarted = 8
        case errorUserExitedWorkoutSession = 9
        case errorRequiredAuthorizationDenied = 10
        case errorNoData = 11
        case errorWorkoutActivityNotAllowed = 12
        case errorDataSizeExceeded = 13
        case errorBackgroundWorkoutSessionNotAllowed = 14
        case errorNotPermissibleForGuestUserMode = 15

        /// The name before iOS 9 of ``unknownError``.
        @available(*, deprecated, renamed: "unknownError")
        public static var noError: Code { .unknownError }

        public var description: String {
            switch self {
            case .unknownError: "unknownError"
            case .errorHealthDataUnavailable: "errorHealthDataUnavailable"
            case .errorHealthDataRestricted: "errorHealthDataRestricted"
            case .errorInvalidArgument: "errorInvalidArgument"
            case .errorAuthorizationDenied: "errorAuthorizationDenied"
            case .errorAuthorizationNotDetermined: "errorAuthorizationNotDetermined"
            case .errorDatabaseInaccessible: "errorDatabaseInaccessible"
            case .errorUserCanceled: "errorUserCanceled"
            case .errorAnotherWorkoutSessionStarted: "errorAnotherWorkoutSessionStarted"
            case .errorUserExitedWorkoutSession: "errorUserExitedWorkoutSession"
            case .errorRequiredAuthorizationDenied: "errorRequiredAuthorizationDenied"
            case .errorNoData: "errorNoData"
            case .errorWorkoutActivityNotAllowed: "errorWorkoutActivityNotAllowed"
            case .errorDataSizeExceeded: "errorDataSizeExceeded"
            case .errorBackgroundWorkoutSessionNotAllowed: "errorBackgroundWorkoutSessionNotAllowed"
            case .errorNotPermissibleForGuestUserMode: "errorNotPermissibleForGuestUserMode"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The id of the spec rule that was broken (`"OBJ-7"`, `"UNIT-1"`…), when
    /// there is one.
    public let rule: String?
    /// A sentence saying what was wrong and how to fix it.
    public let message: String
    /// The error that caused this one (an `LMDBError`, `LogError`,
    /// `SyncError`…), when another layer reported it; its text is already
    /// part of ``message``.
    public let underlyingError: (any Error)?

    /// Creates an error; `underlyingError` is what caused it, if anything.
    public init(_ code: Code, rule: String? = nil, _ message: String, underlyingError: (any Error)? = nil) {
        self.code = code
        self.rule = rule
        self.message = message
        self.underlyingError = underlyingError
    }

    /// Errors are equal when their code, rule and message are; the cause
    /// is not compared (errors of other layers need not be equatable).
    public static func == (lhs: HKError, rhs: HKError) -> Bool {
        lhs.code == rhs.code && lhs.rule == rhs.rule && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(rule)
        hasher.combine(message)
    }

    /// An invalid-argument error for a broken rule.
    package static func invalid(_ rule: String, _ message: String) -> HKError {
        HKError(.errorInvalidArgument, rule: rule, message)
    }

    public var description: String {
        let prefix = rule.map { "\(code) [\($0)]" } ?? "\(code)"
        return "\(prefix): \(message)"
    }

    /// The message followed by the broken rule's id, when there is one:
    /// what the command line and the HTTP API show (`… (OBJ-7)`).
    public var messageWithRule: String {
        rule.map { "\(message) (\($0))" } ?? message
    }

    /// The message, as HealthKit's `NSError` would show it.
    public var localizedDescription: String { message }
}

extension HKError.Code {
    /// Lets `catch HKError.Code.errorInvalidArgument` match an ``HKError``.
    public static func ~= (pattern: HKError.Code, error: any Error) -> Bool {
        (error as? HKError)?.code == pattern
    }
}

/// Stops the program with `error`'s message: HealthKit's behaviour for a
/// programmer error in a non-throwing API. Each call has a throwing twin.
package func programmerError(_ error: HKError, file: StaticString = #file, line: UInt = #line) -> Never {
    preconditionFailure("\(error)", file: file, line: line)
}
