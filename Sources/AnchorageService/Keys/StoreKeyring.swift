public import AnchorageKeys
public import AnchorageLog
public import Foundation

/// A node's data keys: one per store (a person), wrapped in the node's
/// registry, unwrapped by its key provider when the store opens and held
/// only while it is open.
///
/// A store created on a node with a keyring gets a new data key on its
/// first open and seals everything it writes; a store created before (or
/// on a node without one) stays unsealed until it is sealed on purpose.
///
/// ```swift
/// let keyring = StoreKeyring(registry: registry, provider: try KeyFileProvider(url: keyFile))
/// configuration.log.sealing = try await keyring.sealing(for: name, directory: registry.directory(of: name))
/// ```
public final class StoreKeyring: Sendable {
    /// Where the wrapping keys are.
    public let provider: any KeyProvider
    let registry: NodeRegistry
    /// Where the copies of a store on other nodes find the key they share
    /// (a fleet); `nil` on a node of its own.
    public let shared: (any SharedDataKeys)?

    public init(registry: NodeRegistry, provider: any KeyProvider, shared: (any SharedDataKeys)? = nil) {
        self.registry = registry
        self.provider = provider
        self.shared = shared
    }

    /// How `store` opens: sealed under every version of its data key,
    /// unwrapped now; a store never opened before gets its data key first;
    /// one that holds entries and no key opens unsealed.
    ///
    /// - Throws: ``ServiceError`` `.keyShredded` for a store whose key was
    ///   destroyed, `.keyUnavailable` when the provider cannot unwrap it
    ///   (an HSM that does not answer, a destroyed wrapping key).
    public func sealing(for store: StoreName, directory: URL) async throws(ServiceError) -> EventLog.Sealing {
        if let shared { return try await sharedSealing(for: store, shared: shared) }
        guard let keyID = try registry.keyID(of: store) else {
            let isNew = !FileManager.default.fileExists(atPath: directory.appending(path: "data.mdb").path)
            guard isNew else { return .off }
            return .sealed([try await createKey(for: store)])
        }
        return .sealed(try await dataKeys(keyID, store: store))
    }

    /// Every version of data key `keyID`, unwrapped.
    public func dataKeys(_ keyID: KeyID, store: StoreName) async throws(ServiceError) -> [DataKey] {
        if let shredded = try registry.shredded(keyID) {
            throw ServiceError(
                .keyShredded,
                "the data of store \(store) was erased: its data key \(keyID) was shredded at "
                    + "\(shredded.at.formatted(.iso8601)); nothing it sealed can be read again"
            )
        }
        let wrapped = try registry.wrappedKeys(keyID)
        guard !wrapped.isEmpty else {
            throw ServiceError(
                .keyUnavailable,
                "store \(store) is sealed under data key \(keyID), which this node's registry does not hold; "
                    + "restore the registry from a backup, or give the node the key"
            )
        }
        var keys: [DataKey] = []
        for version in wrapped {
            do {
                keys.append(try await provider.unwrap(version))
            } catch {
                throw ServiceError(
                    .keyUnavailable,
                    "the data key of store \(store) cannot be unwrapped by \(provider.name): \(error.message)"
                )
            }
        }
        return keys
    }

    /// The data keys `store` is (or is to be) sealed under: its own when it
    /// has one, else a new one, made and recorded first, so that sealing
    /// the store's entries never runs ahead of the registry holding the key.
    public func keysForSealing(_ store: StoreName) async throws(ServiceError) -> [DataKey] {
        if let keyID = try registry.keyID(of: store) { return try await dataKeys(keyID, store: store) }
        return [try await createKey(for: store)]
    }

    /// Makes, wraps and records a new data key for `store`.
    func createKey(for store: StoreName) async throws(ServiceError) -> DataKey {
        let key = DataKey.generate()
        try registry.recordKey(try await wrap(key, for: "store \(store)"), for: store)
        return key
    }

    /// `key`, wrapped by the provider.
    ///
    /// - Throws: ``ServiceError`` `.keyUnavailable` naming `what` the key
    ///   was for, when the provider fails.
    func wrap(_ key: DataKey, for what: String) async throws(ServiceError) -> WrappedKey {
        do {
            return try await provider.wrap(key)
        } catch {
            throw ServiceError(
                .keyUnavailable,
                "no data key could be made for \(what): \(provider.name) failed: \(error.message)"
            )
        }
    }

    /// Destroys `store`'s data key (crypto-shredding): from now on every
    /// copy of its data — this node's, replicas', backups, relays' —
    /// answers `keyShredded`. Returns the tombstone.
    @discardableResult
    public func shred(_ store: StoreName, by principal: String, now: Date = Date()) throws(ServiceError) -> ShreddedKey
    {
        guard let keyID = try registry.keyID(of: store) else {
            throw ServiceError(.invalidArgument, "store \(store) is not sealed: there is no data key to shred")
        }
        return try registry.shred(keyID, by: principal, now: now)
    }

    /// ``shred(_:by:now:)``, and on every node sharing the key: the shared
    /// copies' tombstone first, so no node unwraps it again.
    @discardableResult
    public func shredEverywhere(
        _ store: StoreName,
        by principal: String,
        now: Date = Date()
    ) async throws(ServiceError) -> ShreddedKey {
        guard let shared else { return try shred(store, by: principal, now: now) }
        var keyID = try registry.keyID(of: store)
        if keyID == nil { keyID = try await shared.keyID(of: store) }
        guard let keyID else {
            throw ServiceError(.invalidArgument, "store \(store) is not sealed: there is no data key to shred")
        }
        let record = try registry.shredded(keyID) ?? ShreddedKey(keyID: keyID, at: now, by: principal)
        try await shared.shred(record)
        if try registry.shredded(keyID) == nil { _ = try registry.shred(keyID, by: principal, now: record.at) }
        return record
    }

    /// Re-wraps every data key of the registry with the provider's current
    /// wrapping key (after it rotated): no store's data is touched. Returns
    /// how many were re-wrapped.
    @discardableResult
    public func rewrapAll() async throws(ServiceError) -> Int {
        let current: String
        do {
            current = try await provider.currentWrappingKeyID()
        } catch {
            throw ServiceError(.keyUnavailable, "\(provider.name) cannot be used: \(error.message)")
        }
        var rewrapped: [WrappedKey] = []
        for wrapped in try registry.allWrappedKeys() where wrapped.wrappingKeyID != current {
            do {
                rewrapped.append(try await provider.wrap(try await provider.unwrap(wrapped)))
            } catch {
                throw ServiceError(
                    .keyUnavailable,
                    "data key \(wrapped.keyID) could not be re-wrapped by \(provider.name): \(error.message)"
                )
            }
        }
        try registry.replaceWrappedKeys(rewrapped)
        return rewrapped.count
    }
}
