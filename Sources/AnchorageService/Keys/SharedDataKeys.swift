public import AnchorageKeys
public import AnchorageLog

/// Where the copies of a store on several nodes find the data key they
/// share (a fleet keeps it in etcd): which key a store is placed under, its
/// wrapped versions, and its tombstone once shredded. Only wrapped keys
/// pass through it; each node unwraps them with its own ``KeyProvider``,
/// which must hold the wrapping key they were wrapped with.
///
/// ```swift
/// let keyring = StoreKeyring(registry: registry, provider: provider, shared: fleetKeys)
/// ```
public protocol SharedDataKeys: Sendable {
    /// The key id `store` is placed under, or `nil` for a store placed
    /// without one (it does not seal).
    func keyID(of store: StoreName) async throws(ServiceError) -> KeyID?

    /// The wrapped versions of `keyID`, oldest first; empty when no copy
    /// has made the key yet.
    ///
    /// - Throws: ``ServiceError`` `.keyShredded` when the key was destroyed.
    func wrappedKeys(_ keyID: KeyID) async throws(ServiceError) -> [WrappedKey]

    /// Publishes `wrapped` as the key's first version unless a version is
    /// there already, and returns what is there then: the key the first
    /// copy made, whichever copy it was.
    func publishFirst(_ wrapped: WrappedKey) async throws(ServiceError) -> [WrappedKey]

    /// Destroys `keyID` everywhere: its wrapped versions go and the
    /// tombstone stays, in one step.
    func shred(_ record: ShreddedKey) async throws(ServiceError)
}
