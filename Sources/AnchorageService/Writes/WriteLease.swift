/// The right to write a store now, held by the node that leads it — in a
/// fleet, the store's primary at an epoch, while it holds its lease.
///
/// ```swift
/// struct AlwaysLeads: WriteLease {
///     var epoch: UInt64 { 1 }
///     func check() throws(ServiceError) {}
/// }
/// ```
public protocol WriteLease: Sendable {
    /// The fleet epoch this node leads the store at.
    var epoch: UInt64 { get }
    /// Throws `fleetUnavailable` when this node may not take a write now
    /// (it is taking the store over, or cannot renew its lease).
    func check() throws(ServiceError)
}
