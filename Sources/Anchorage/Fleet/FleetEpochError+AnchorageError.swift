public import AnchorageCore

/// `store.staleEpoch`.
extension FleetEpochError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.store, "staleEpoch") }
    public var message: String { description }
}
