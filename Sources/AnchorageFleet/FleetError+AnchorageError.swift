public import AnchorageCore

/// `fleet.<code>`: `fleet.nodeIDInUse`…
extension FleetError: AnchorageError {
    public var stableCode: ErrorCode { ErrorCode(.fleet, code.description) }
}
