import AnchorageKeys
public import AnchorageLog
import Foundation

extension StoreKeyring {
    /// What ``rekey(_:)`` did.
    public struct Rekeyed: Sendable, Hashable {
        /// The data key.
        public let keyID: KeyID
        /// The version every store of the key is sealed under now.
        public let version: UInt16
        /// The stores re-sealed, and how many entries of each.
        public let stores: [StoreName: Int]
        /// The versions destroyed.
        public let destroyed: [UInt16]
    }

    /// Gives `store`'s data key a new version, re-seals every store of the
    /// key on this node under it (``EventLog/rekey(at:keys:configuration:progress:)``:
    /// the stores must be closed), then destroys the older versions: what
    /// an older version sealed, wherever a copy of it survives, needs a key
    /// that no longer exists. Safe to run again after an interruption: it
    /// adds another version and finishes.
    ///
    /// - Throws: ``ServiceError`` `.invalidArgument` for a store that does
    ///   not seal, `.keyShredded`, `.keyUnavailable`; or the ``LogError``
    ///   of a store that cannot be re-sealed (nothing is destroyed then).
    public func rekey(_ store: StoreName) async throws -> Rekeyed {
        guard let keyID = try registry.keyID(of: store) else {
            throw ServiceError(.invalidArgument, "store \(store) is not sealed: seal it (keys seal) first")
        }
        var keys = try await dataKeys(keyID, store: store)
        let next = try Self.nextVersion(after: keys.map(\.version), of: keyID)
        let key = DataKey.generate(id: keyID, version: next)
        try registry.recordKey(try await wrap(key, for: "version \(next) of data key \(keyID)"), for: nil)
        keys.append(key)
        var stores: [StoreName: Int] = [:]
        for name in try registry.stores(sealedUnder: keyID) {
            stores[name] = try EventLog.rekey(at: registry.directory(of: name), keys: keys).entries
        }
        let destroyed = try registry.destroyVersions(of: keyID, olderThan: next)
        return Rekeyed(keyID: keyID, version: next, stores: stores, destroyed: destroyed)
    }

    /// The version after the highest of `versions` (1 for none).
    ///
    /// - Throws: ``ServiceError`` `.invalidArgument` once the 65,535 versions
    ///   a key may have are used up.
    static func nextVersion(after versions: [UInt16], of keyID: KeyID) throws(ServiceError) -> UInt16 {
        let highest = versions.max() ?? 0
        guard highest < UInt16.max else {
            throw ServiceError(
                .invalidArgument,
                "data key \(keyID) has reached its last version (65535); seal its stores under a new key instead"
            )
        }
        return highest + 1
    }
}
