public import AnchorageKeys
public import AnchorageLog
public import Foundation
import LMDB

/// A data key destroyed on purpose: when, and by whom.
public struct ShreddedKey: Codable, Sendable, Hashable {
    public let keyID: KeyID
    public let at: Date
    /// Who asked (a principal's description; never a secret).
    public let by: String
}

extension NodeRegistry {
    /// The key id of `store`'s data key, or `nil` for a store that does not
    /// seal (created before the node sealed, or on a node without a key
    /// provider).
    public func keyID(of store: StoreName) throws(ServiceError) -> KeyID? {
        try Self.storage("reading the key id of store \(store)") {
            try environment.read { txn in
                try txn.withValue(forKey: Array(store.rawValue.utf8), in: storeKeysDatabase) { value in
                    value.count == 16 ? KeyID(UUID(uuid: value.loadUnaligned(as: uuid_t.self))) : nil
                } ?? nil
            }
        }
    }

    /// The wrapped versions of data key `keyID`, oldest first.
    public func wrappedKeys(_ keyID: KeyID) throws(ServiceError) -> [WrappedKey] {
        try Self.storage("reading the wrapped data keys \(keyID)") {
            try environment.read { txn in
                var found: [WrappedKey] = []
                let prefix = Self.keyPrefix(keyID)
                try txn.withCursor(on: keysDatabase) { cursor in
                    try cursor.scan(from: prefix) { key, value in
                        guard key.starts(with: prefix) else { return false }
                        found.append(try decode(WrappedKey.self, value))
                        return true
                    }
                }
                return found
            }
        }
    }

    /// Records `store`'s key id and a wrapped version of its data key, in
    /// one commit (a store that seals, on its creation).
    ///
    /// - Throws: ``ServiceError`` `.keyShredded` for a key id shredded
    ///   before: a destroyed key never comes back.
    public func recordKey(_ wrapped: WrappedKey, for store: StoreName?) throws(ServiceError) {
        if let shredded = try shredded(wrapped.keyID) {
            throw ServiceError(
                .keyShredded,
                "data key \(shredded.keyID) was shredded at \(shredded.at); it is never used again"
            )
        }
        let encoded = try Self.storage("recording data key \(wrapped.keyID)") { try encode(wrapped) }
        try Self.storage("recording data key \(wrapped.keyID)") {
            try environment.write { txn in
                try txn.put(
                    encoded,
                    forKey: Self.keyPrefix(wrapped.keyID) + wrapped.version.bigEndianBytes,
                    in: keysDatabase
                )
                if let store {
                    try txn.put(
                        withUnsafeBytes(of: wrapped.keyID.uuid) { Array($0) },
                        forKey: Array(store.rawValue.utf8),
                        in: storeKeysDatabase
                    )
                }
            }
        }
    }

    /// Replaces the wrapped versions of data keys with re-wrapped ones (a
    /// wrapping-key rotation), all in one commit.
    public func replaceWrappedKeys(_ wrapped: [WrappedKey]) throws(ServiceError) {
        let encoded = try Self.storage("re-wrapping data keys") { try wrapped.map { try encode($0) } }
        try Self.storage("re-wrapping data keys") {
            try environment.write { txn in
                for (key, bytes) in zip(wrapped, encoded) {
                    try txn.put(bytes, forKey: Self.keyPrefix(key.keyID) + key.version.bigEndianBytes, in: keysDatabase)
                }
            }
        }
    }

    /// Every wrapped data key the registry holds.
    public func allWrappedKeys() throws(ServiceError) -> [WrappedKey] {
        try Self.storage("reading the wrapped data keys") {
            try environment.read { txn in
                var found: [WrappedKey] = []
                try txn.withCursor(on: keysDatabase) { cursor in
                    try cursor.scan { _, value in
                        found.append(try decode(WrappedKey.self, value))
                        return true
                    }
                }
                return found
            }
        }
    }

    /// Destroys data key `keyID`: every wrapped version leaves the registry
    /// and a tombstone stays, in one commit. Whatever the key sealed, on
    /// every copy, can never be read again once no backup of the registry
    /// (or of the wrapping key) holds it.
    ///
    /// - Throws: ``ServiceError`` `.keyShredded` when it was shredded already
    ///   (the first tombstone stays).
    @discardableResult
    public func shred(_ keyID: KeyID, by principal: String, now: Date = Date()) throws(ServiceError) -> ShreddedKey {
        if let shredded = try shredded(keyID) {
            throw ServiceError(
                .keyShredded,
                "the data key \(keyID) was shredded already, at \(shredded.at.formatted(.iso8601)), by \(shredded.by)"
            )
        }
        let record = ShreddedKey(keyID: keyID, at: Self.recorded(now), by: principal)
        let encoded = try Self.storage("shredding data key \(keyID)") { try encode(record) }
        try Self.storage("shredding data key \(keyID)") {
            try environment.write { txn in
                let prefix = Self.keyPrefix(keyID)
                var doomed: [[UInt8]] = []
                try txn.withCursor(on: keysDatabase) { cursor in
                    try cursor.scan(from: prefix) { key, _ in
                        guard key.starts(with: prefix) else { return false }
                        doomed.append(Array(key))
                        return true
                    }
                }
                for key in doomed { _ = try txn.removeValue(forKey: key, in: keysDatabase) }
                try txn.put(encoded, forKey: prefix, in: shreddedDatabase)
            }
        }
        return record
    }

    /// The tombstone of a shredded key, or `nil`.
    public func shredded(_ keyID: KeyID) throws(ServiceError) -> ShreddedKey? {
        try Self.storage("reading the shredded keys") {
            try environment.read { txn in
                try txn.withValue(forKey: Self.keyPrefix(keyID), in: shreddedDatabase) { value in
                    try decode(ShreddedKey.self, value)
                }
            }
        }
    }

    static func keyPrefix(_ keyID: KeyID) -> [UInt8] {
        withUnsafeBytes(of: keyID.uuid) { Array($0) }
    }
}
