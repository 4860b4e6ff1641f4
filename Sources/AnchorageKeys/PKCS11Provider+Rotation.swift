import CPKCS11
import Synchronization

/// Rotation on a token: a new wrapping key (another label) wraps from now
/// on, and the keys it replaced still unwrap what they wrapped until they
/// are destroyed on the token.
///
/// ```swift
/// configuration.keyLabel = "anchorage-wrapping-key-2"
/// configuration.createsKey = true
/// let provider = try await PKCS11Provider(configuration: configuration)
/// // data keys wrapped by "anchorage-wrapping-key" still unwrap; re-wrap them all, then:
/// try await provider.destroyRetiredKey(label: "anchorage-wrapping-key")
/// ```
extension PKCS11Provider {
    /// How ``WrappedKey/wrappingKeyID`` names a key of a token: this, then its label.
    public static let wrappingKeyPrefix = "pkcs11:"

    /// The token's key that wrapped `wrapped` (named `id` in it): the
    /// current one, or a retired one the token still holds.
    ///
    /// - Throws: ``KeyError`` `wrappingKeyUnavailable` for a key of
    ///   another provider, or one no longer on the token.
    func wrappingKey(named id: String, unwrapping wrapped: WrappedKey) async throws(KeyError) -> CK_OBJECT_HANDLE {
        if id == wrappingKeyID { return key }
        guard id.hasPrefix(Self.wrappingKeyPrefix) else {
            throw KeyError(
                .wrappingKeyUnavailable,
                "the data key \(wrapped.keyID) is wrapped by \(id), not by a key of \(name)"
            )
        }
        let label = String(id.dropFirst(Self.wrappingKeyPrefix.count))
        if let known = retiredKeys.withLock({ $0[label] }) { return known }
        let (module, session, configuration) = (self.module, self.session, self.configuration)
        let found: CK_OBJECT_HANDLE
        do {
            found = try await Self.run(on: queue, timeout: configuration.timeout, what: "finding the key \(label)") {
                () throws(KeyError) in
                try Self.findKey(module, session: session, configuration: configuration, label: label)
            }
        } catch  where error.code == .keyMissing {
            throw KeyError(
                .wrappingKeyUnavailable,
                "the data key \(wrapped.keyID) (version \(wrapped.version)) is wrapped by the key labelled "
                    + "\"\(label)\", which \(name) no longer holds: it was destroyed after a rotation"
            )
        }
        retiredKeys.withLock { $0[label] = found }
        return found
    }

    /// Destroys the token's wrapping key labelled `label`, one a rotation
    /// retired: what it alone wrapped (a registry backup made before the
    /// rotation) can never be unwrapped again. Re-wrap the registry's data
    /// keys first (``StoreKeyring/rewrapAll()``).
    ///
    /// - Throws: ``KeyError`` `invalidArgument` for the key in use;
    ///   `keyMissing` when the token holds no key so labelled; `tokenError`
    ///   when the token refuses.
    public func destroyRetiredKey(label: String) async throws(KeyError) {
        guard label != configuration.keyLabel else {
            throw KeyError(
                .invalidArgument,
                "\"\(label)\" is the wrapping key in use: rotate to another label before destroying it"
            )
        }
        let (module, session, configuration) = (self.module, self.session, self.configuration)
        try await Self.run(on: queue, timeout: configuration.timeout, what: "destroying the key \(label)") {
            () throws(KeyError) in
            let found = try Self.findKey(module, session: session, configuration: configuration, label: label)
            try module.check(module.list.C_DestroyObject(session, found), "C_DestroyObject")
        }
        retiredKeys.withLock { _ = $0.removeValue(forKey: label) }
    }
}
