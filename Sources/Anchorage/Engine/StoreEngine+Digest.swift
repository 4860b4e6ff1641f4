import AnchorageLog
import AnchorageModel
import Crypto
import LMDB

extension StoreEngine {
    /// The digest of ``HKHealthStore/stateDigest()``, in one snapshot. Every
    /// part is read in key order, so the result depends only on what is
    /// visible.
    func stateDigest(in txn: borrowing ReadTransaction) throws -> String {
        var hasher = SHA256()
        try txn.withCursor(on: index.objects) { cursor in
            try cursor.scan { key, value in
                guard let record = ObjectRecord(value) else { return true }
                switch record.state {
                case .live:
                    guard let content = try contentDigest(at: record.saveSeq, in: txn) else { return true }
                    hasher.update(data: [UInt8(ascii: "L")] + Array(key) + record.kind.rawValue.bigEndianBytes)
                    hasher.update(data: content)
                case .deleted:
                    hasher.update(data: [UInt8(ascii: "D")] + Array(key))
                case .superseded:
                    break
                }
                return true
            }
        }
        try txn.withCursor(on: index.grants) { cursor in
            try cursor.scan { key, value in
                hasher.update(data: [UInt8(ascii: "G"), UInt8(truncatingIfNeeded: key.count)] + Array(key))
                hasher.update(data: [value.first ?? 0])
                return true
            }
        }
        try txn.withCursor(on: views.priorities) { cursor in
            try cursor.scan { key, value in
                guard value.count > 8 else { return true }
                hasher.update(data: [UInt8(ascii: "P")] + Array(key) + EntryDigest.of(Array(value[8...])).bytes)
                return true
            }
        }
        for (key, tag) in [
            (HealthIndex.characteristicsSetting, "C"), (HealthIndex.preferredUnitsSetting, "U"),
            (HealthIndex.fleetEpochSetting, "F"),
        ] {
            guard let seq = try index.settingSeq(key, in: txn), let content = try contentDigest(at: seq, in: txn)
            else { continue }
            hasher.update(data: Array(tag.utf8) + content)
        }
        // Effort relations (the deciding entry's position differs from peer
        // to peer; what it decided does not).
        try txn.withCursor(on: index.efforts) { cursor in
            try cursor.scan { key, value in
                hasher.update(data: [UInt8(ascii: "E")] + Array(key) + Array(value.dropFirst(8)))
                return true
            }
        }
        // The visible activity summary of each day.
        try txn.withCursor(on: index.settings) { cursor in
            let prefix = HealthIndex.activityPrefix
            try cursor.scan(from: prefix) { key, value in
                guard key.starts(with: prefix) else { return false }
                guard let content = try contentDigest(at: value.uint64(at: 0), in: txn) else { return true }
                hasher.update(data: [UInt8(ascii: "A")] + Array(key) + content)
                return true
            }
        }
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: hasher.finalize().flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// SHA-256 of the payload of the save at `seq` without its salt: equal
    /// contents give equal digests whatever their entries' salts, so two
    /// stores that imported the same data independently agree. (For a
    /// version-1 entry it is the entry's own payload digest.) A purged
    /// save, never visible, gives its stored digest.
    private func contentDigest(at seq: UInt64, in txn: borrowing ReadTransaction) throws -> [UInt8]? {
        try index.lookup.withEntry(at: seq, in: txn) { entry, payload in
            // Version 1 (no salt): the entry's own digest is already that
            // hash. Versions 2 and 3 (salted, sealed): it covers the salt
            // or envelope, so the payload is hashed here.
            guard let payload, entry.salt != nil || entry.isSealed else { return entry.payloadDigest.bytes }
            return Array(SHA256.hash(data: payload))
        }
    }
}
