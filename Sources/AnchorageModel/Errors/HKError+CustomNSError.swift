public import Foundation

/// HealthKit's error domain: `HKError.errorDomain`.
public let HKErrorDomain = "com.apple.healthkit"

/// The `userInfo` key under which an ``HKError`` carries its rule id.
package let HKErrorRuleKey = "HKErrorRule"

/// HealthKit's `HKError` is a `CustomNSError` with a static member per code,
/// so that `catch HKError.errorAuthorizationDenied` and `error.code` read as
/// they do on Apple's platforms.
///
/// ```swift
/// do { try await store.save(sample) } catch HKError.errorAuthorizationDenied { askAgain() }
/// ```
extension HKError: CustomNSError {
    public static var errorDomain: String { HKErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var errorUserInfo: [String: Any] { userInfo }

    /// `NSLocalizedDescriptionKey` with the message, the rule id under
    /// `HKErrorRule` when there is one, and the cause under
    /// `NSUnderlyingErrorKey` when there is one.
    public var userInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let rule { info[HKErrorRuleKey] = rule }
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError }
        return info
    }

    /// An error with `code`, its message from `userInfo`'s
    /// `NSLocalizedDescriptionKey` (the code's name without one).
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.init(
            code,
            rule: userInfo[HKErrorRuleKey] as? String,
            userInfo[NSLocalizedDescriptionKey] as? String ?? "\(code)",
            underlyingError: userInfo[NSUnderlyingErrorKey] as? any Error
        )
    }

    public static var unknownError: Code { .unknownError }
    @available(*, deprecated, renamed: "unknownError")
    public static var noError: Code { .unknownError }
    public static var errorHealthDataUnavailable: Code { .errorHealthDataUnavailable }
    public static var errorHealthDataRestricted: Code { .errorHealthDataRestricted }
    public static var errorInvalidArgument: Code { .errorInvalidArgument }
    public static var errorAuthorizationDenied: Code { .errorAuthorizationDenied }
    public static var errorAuthorizationNotDetermined: Code { .errorAuthorizationNotDetermined }
    public static var errorDatabaseInaccessible: Code { .errorDatabaseInaccessible }
    public static var errorUserCanceled: Code { .errorUserCanceled }
    public static var errorAnotherWorkoutSessionStarted: Code { .errorAnotherWorkoutSessionStarted }
    public static var errorUserExitedWorkoutSession: Code { .errorUserExitedWorkoutSession }
    public static var errorRequiredAuthorizationDenied: Code { .errorRequiredAuthorizationDenied }
    public static var errorNoData: Code { .errorNoData }
    public static var errorWorkoutActivityNotAllowed: Code { .errorWorkoutActivityNotAllowed }
    public static var errorDataSizeExceeded: Code { .errorDataSizeExceeded }
    public static var errorBackgroundWorkoutSessionNotAllowed: Code { .errorBackgroundWorkoutSessionNotAllowed }
    public static var errorNotPermissibleForGuestUserMode: Code { .errorNotPermissibleForGuestUserMode }
}
