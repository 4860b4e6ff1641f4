public import AnchorageKeys
public import AnchorageLog
import Foundation

extension StoreKeyring {
    /// How a copy of `store` opens on a node that shares keys: under the
    /// key its placement names, made by the first copy that opens, kept in
    /// this node's registry as well (so ``NodeRegistry`` lists it, and an
    /// audit finds its id), unwrapped here.
    func sharedSealing(for store: StoreName, shared: any SharedDataKeys) async throws(ServiceError) -> EventLog.Sealing
    {
        let recorded = try registry.keyID(of: store)
        var placed: KeyID?
        do {
            placed = try await shared.keyID(of: store)
        } catch  where recorded != nil && error.code == .keyUnavailable {
            // The shared record is out of reach (etcd has no majority): a
            // copy this node has opened before opens with what it keeps.
            placed = recorded
        }
        if placed == nil { placed = recorded }
        guard let keyID = placed else { return .off }
        if let shredded = try registry.shredded(keyID) {
            throw ServiceError(
                .keyShredded,
                "the data of store \(store) was erased: its data key \(keyID) was shredded at "
                    + "\(shredded.at.formatted(.iso8601)); nothing it sealed can be read again"
            )
        }
        var wrapped: [WrappedKey]
        do {
            wrapped = try await shared.wrappedKeys(keyID)
        } catch  where error.code == .keyShredded {
            // Destroyed elsewhere: this node's wrapped copy goes too.
            _ = try? registry.shred(keyID, by: "the fleet", now: Date())
            throw ServiceError(.keyShredded, "the data of store \(store) was erased: \(error.message)")
        } catch  where error.code == .keyUnavailable && recorded == keyID {
            // Out of reach: the versions this node keeps serve, as its
            // cached placements do; a shred reaches it once etcd answers
            // again (the node follows the tombstones).
            return .sealed(try await dataKeys(keyID, store: store))
        }
        if wrapped.isEmpty {
            let key = DataKey.generate(id: keyID, version: 1)
            wrapped = try await shared.publishFirst(try await wrap(key, for: "store \(store)"))
        }
        let local = Set(try registry.wrappedKeys(keyID).map(\.version))
        let mapped = try registry.keyID(of: store) == keyID
        for version in wrapped where !local.contains(version.version) || !mapped {
            try registry.recordKey(version, for: store)
        }
        // Versions the fleet destroyed after re-sealing every copy go here too.
        if let oldest = wrapped.map(\.version).min() { _ = try registry.destroyVersions(of: keyID, olderThan: oldest) }
        return .sealed(try await dataKeys(keyID, store: store))
    }

    /// A new version of `keyID`, one past the highest of `existing`,
    /// wrapped by this node's provider: what a fleet adds before it
    /// re-seals every copy of a person's stores under it.
    ///
    /// - Throws: ``ServiceError`` `.keyUnavailable` when the provider
    ///   cannot wrap; `.invalidArgument` when the key has no version left.
    public func wrappedNextVersion(
        of keyID: KeyID,
        after existing: [WrappedKey]
    ) async throws(ServiceError)
        -> WrappedKey
    {
        let next = try Self.nextVersion(after: existing.map(\.version), of: keyID)
        return try await wrap(DataKey.generate(id: keyID, version: next), for: "version \(next) of data key \(keyID)")
    }
}
