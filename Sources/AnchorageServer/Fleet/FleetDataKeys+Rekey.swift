import AnchorageFleet
import AnchorageKeys
import AnchorageLog
import AnchorageService
import Etcd
import Foundation

/// A re-sealing of every copy sealed under a data key, under a new version
/// of it (`rekeys/<key id>` in etcd): what ``FleetNode/followRekeys()``
/// carries out on each node.
struct RekeyRecord: Codable, Sendable, Hashable {
    /// The version every copy is re-sealed under.
    var version: UInt16
    var at: Date
    var by: String
}

extension FleetDataKeys {
    /// The key's wrapped versions and the revision they were written at
    /// (0 when there are none).
    func versions(_ keyID: KeyID) async throws(ServiceError) -> (wrapped: [WrappedKey], revision: Int64) {
        let kv: EtcdKeyValue?
        do {
            kv = try await etcd.range(.key(keys.dataKey(keyID.description))).kvs.first
        } catch {
            throw unreachable("key \(keyID)", error)
        }
        guard let kv else { return ([], 0) }
        return (try decode(kv.value, keyID), kv.modRevision)
    }

    /// Replaces the key's wrapped versions with `wrapped` if they are still
    /// those written at `revision` and the key was not shredded; returns
    /// whether it did.
    func replaceVersions(
        _ keyID: KeyID,
        with wrapped: [WrappedKey],
        ifAt revision: Int64
    ) async throws(ServiceError)
        -> Bool
    {
        let key = keys.dataKey(keyID.description)
        do {
            return try await etcd.txn(
                EtcdTxn(
                    compare: [
                        EtcdCompare(key, .equal, .modRevision(revision)),
                        EtcdCompare(keys.shredded(keyID.description), .equal, .createRevision(0)),
                    ],
                    success: [.put(key, value: Array(try Self.encoder.encode(wrapped)))]
                )
            ).succeeded
        } catch {
            throw unreachable("changing key \(keyID)", error)
        }
    }

    /// Asks every node to re-seal its copies under `record.version`.
    func requestRekey(_ keyID: KeyID, _ record: RekeyRecord) async throws(ServiceError) {
        do {
            _ = try await etcd.put(keys.rekey(keyID.description), value: Array(try Self.encoder.encode(record)))
        } catch {
            throw unreachable("asking for key \(keyID)'s re-sealing", error)
        }
    }

    /// Records that `node` has re-sealed all its copies under `version`.
    func reportRekeyed(_ keyID: KeyID, version: UInt16, node: String) async throws(ServiceError) {
        do {
            _ = try await etcd.put(keys.rekeyed(keyID.description, on: node), value: Array("\(version)".utf8))
        } catch {
            throw unreachable("reporting key \(keyID)'s re-sealing", error)
        }
    }

    /// The version each node has re-sealed its copies under.
    func rekeyReports(_ keyID: KeyID) async throws(ServiceError) -> [String: UInt16] {
        let kvs: [EtcdKeyValue]
        do {
            kvs = try await etcd.range(.prefix(keys.rekey(keyID.description) + "/")).kvs
        } catch {
            throw unreachable("key \(keyID)'s re-sealing", error)
        }
        var reports: [String: UInt16] = [:]
        for kv in kvs {
            if case .reported(_, let node, let version) = RekeyEntry(kv, keys: keys) { reports[node] = version }
        }
        return reports
    }
}
