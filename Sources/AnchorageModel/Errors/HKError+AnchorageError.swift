public import AnchorageCore

/// `model.<code>`, named finer where a caller acts differently:
/// `model.anchorNotValid` (an anchor the store no longer serves, AQ-11),
/// `model.incompatibleUnit` (a unit of the wrong kind for the type),
/// `model.unknownType` (a type identifier that names none).
extension HKError: AnchorageError {
    public var stableCode: ErrorCode {
        guard code == .errorInvalidArgument else { return ErrorCode(.model, code.description) }
        if rule == "AQ-11" { return Self.anchorNotValid }
        // A unit string that does not parse is a bad value, not a unit of the wrong kind.
        if rule != "UNIT-1" && (rule?.hasPrefix("UNIT") == true || message.contains("does not accept the unit")) {
            return Self.incompatibleUnit
        }
        if ["OBJ-11", "OBJ-13", "OBJ-15"].contains(rule) && message.contains("is not a") { return Self.unknownType }
        return ErrorCode(.model, code.description)
    }

    public var cause: (any Error)? { underlyingError }
    public var shownMessage: String { messageWithRule }

    /// An anchor the store no longer serves (AQ-11): start again from none.
    public static let anchorNotValid = ErrorCode(.model, "anchorNotValid")
    /// A unit of the wrong kind for the type (UNIT-2…).
    public static let incompatibleUnit = ErrorCode(.model, "incompatibleUnit")
    /// A type identifier that names no type.
    public static let unknownType = ErrorCode(.model, "unknownType")
}

/// `model.invalidArgument`: a text form (a date, a unit, an interval) that
/// does not parse.
extension TextFormError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.model, "invalidArgument") }
    public var message: String { description }
}
