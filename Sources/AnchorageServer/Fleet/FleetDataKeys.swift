import AnchorageFleet
import AnchorageKeys
import AnchorageLog
import AnchorageService
import Etcd
import Foundation

/// A fleet's shared data keys, in etcd: a sealed store's placement names
/// its key id; `data-keys/<key id>` holds the key's wrapped versions (a JSON
/// array of ``WrappedKey``, wrapped by the fleet's wrapping key — every node
/// must be given the same key file or HSM token); `shredded/<key id>` its
/// tombstone. The first copy to open a new store makes the key and
/// publishes it with a compare-and-swap; the others take what it published.
///
/// ```swift
/// configuration.sharedDataKeys = FleetDataKeys(etcd: etcd, keys: fleet.keys, cache: cache)
/// ```
struct FleetDataKeys: SharedDataKeys {
    let etcd: EtcdClient
    let keys: FleetKeys
    let cache: PlacementCache

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    func unreachable(_ what: String, _ error: any Error) -> ServiceError {
        ServiceError(.keyUnavailable, "the fleet's data keys cannot be read (\(what)): etcd answered \(error)")
    }

    func keyID(of store: StoreName) async throws(ServiceError) -> KeyID? {
        var record = cache.placements[store.rawValue]
        if record == nil {
            // Not mirrored yet (a store placed a moment ago): ask etcd.
            do {
                record = try await PlacementStore(etcd: etcd, keys: keys).placement(of: store.rawValue)
            } catch {
                throw unreachable("the placement of \(store)", error)
            }
        }
        guard let text = record?.placement.keyID else { return nil }
        guard let keyID = KeyID(text) else {
            throw ServiceError(.keyUnavailable, "the placement of store \(store) names a malformed key id")
        }
        return keyID
    }

    func wrappedKeys(_ keyID: KeyID) async throws(ServiceError) -> [WrappedKey] {
        let answer: EtcdTxnResult
        do {
            answer = try await etcd.txn(
                EtcdTxn(
                    compare: [],
                    success: [
                        .range(.key(keys.shredded(keyID.description))), .range(.key(keys.dataKey(keyID.description))),
                    ]
                )
            )
        } catch {
            throw unreachable("key \(keyID)", error)
        }
        var ranges: [[EtcdKeyValue]] = []
        for response in answer.responses { if case .range(let result) = response { ranges.append(result.kvs) } }
        guard ranges.count == 2 else { throw ServiceError(.keyUnavailable, "etcd answered an unexpected transaction") }
        if let tombstone = ranges[0].first {
            let shredded = try? Self.decoder.decode(ShreddedKey.self, from: Data(tombstone.value))
            throw ServiceError(
                .keyShredded,
                "its data key \(keyID) was shredded"
                    + (shredded.map { " at \($0.at.formatted(.iso8601)) by \($0.by)" } ?? "")
                    + "; nothing it sealed can be read again"
            )
        }
        guard let stored = ranges[1].first else { return [] }
        return try decode(stored.value, keyID)
    }

    func decode(_ value: [UInt8], _ keyID: KeyID) throws(ServiceError) -> [WrappedKey] {
        guard let wrapped = try? Self.decoder.decode([WrappedKey].self, from: Data(value)),
            wrapped.allSatisfy({ $0.keyID == keyID })
        else {
            throw ServiceError(.keyUnavailable, "the fleet's record of data key \(keyID) is malformed")
        }
        return wrapped
    }

    func publishFirst(_ wrapped: WrappedKey) async throws(ServiceError) -> [WrappedKey] {
        let key = keys.dataKey(wrapped.keyID.description)
        let answer: EtcdTxnResult
        do {
            answer = try await etcd.txn(
                EtcdTxn(
                    compare: [
                        EtcdCompare(key, .equal, .createRevision(0)),
                        EtcdCompare(keys.shredded(wrapped.keyID.description), .equal, .createRevision(0)),
                    ],
                    success: [.put(key, value: Array(try Self.encoder.encode([wrapped])))],
                    failure: [.range(.key(key))]
                )
            )
        } catch {
            throw unreachable("publishing key \(wrapped.keyID)", error)
        }
        if answer.succeeded { return [wrapped] }
        guard let stored = answer.firstRange.first else {
            // Not there, and the compare failed: the key was shredded.
            return try await wrappedKeys(wrapped.keyID)
        }
        return try decode(stored.value, wrapped.keyID)
    }

    func shred(_ record: ShreddedKey) async throws(ServiceError) {
        do {
            _ = try await etcd.txn(
                EtcdTxn(
                    compare: [],
                    success: [
                        .put(keys.shredded(record.keyID.description), value: Array(try Self.encoder.encode(record))),
                        .delete(.key(keys.dataKey(record.keyID.description))),
                    ]
                )
            )
        } catch {
            throw unreachable("shredding key \(record.keyID)", error)
        }
    }
}
