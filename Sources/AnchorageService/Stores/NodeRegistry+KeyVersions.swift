public import AnchorageLog
import Foundation
import LMDB

extension NodeRegistry {
    /// The stores sealed under data key `keyID` (a person's stores), in
    /// name order.
    public func stores(sealedUnder keyID: KeyID) throws(ServiceError) -> [StoreName] {
        try Self.storage("listing the stores of data key \(keyID)") {
            try environment.read { txn in
                var names: [StoreName] = []
                let wanted = Self.keyPrefix(keyID)
                try txn.withCursor(on: storeKeysDatabase) { cursor in
                    try cursor.scan { key, value in
                        if value.elementsEqual(wanted),
                            let name = try? StoreName(String(decoding: key, as: UTF8.self))
                        {
                            names.append(name)
                        }
                        return true
                    }
                }
                return names
            }
        }
    }

    /// Destroys the wrapped versions of data key `keyID` older than
    /// `version`, in one commit (after every store of the key was re-sealed
    /// under `version`); returns the versions destroyed.
    @discardableResult
    public func destroyVersions(of keyID: KeyID, olderThan version: UInt16) throws(ServiceError) -> [UInt16] {
        try Self.storage("destroying old versions of data key \(keyID)") {
            try environment.write { txn in
                let prefix = Self.keyPrefix(keyID)
                var doomed: [([UInt8], UInt16)] = []
                try txn.withCursor(on: keysDatabase) { cursor in
                    try cursor.scan(from: prefix) { key, _ in
                        guard key.starts(with: prefix), key.count == prefix.count + 2 else { return false }
                        let found = UInt16(key[prefix.count]) << 8 | UInt16(key[prefix.count + 1])
                        if found < version { doomed.append((Array(key), found)) }
                        return true
                    }
                }
                for (key, _) in doomed { _ = try txn.removeValue(forKey: key, in: keysDatabase) }
                return doomed.map(\.1)
            }
        }
    }
}
