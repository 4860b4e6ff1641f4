public import AnchorageCore

/// `service.<code>`: `service.storeExists`, `service.quotaExceeded`…
extension ServiceError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.service, code.description) }
}

/// `service.<code>`: `service.invalidArgument`, `service.unknownType`,
/// `service.incompatibleUnit`.
extension StatisticsRequestError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.service, code.rawValue) }
}
