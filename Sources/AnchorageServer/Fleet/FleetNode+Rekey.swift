import AnchorageCore
import AnchorageFleet
import AnchorageKeys
import AnchorageLog
import AnchorageService
import Etcd
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// A record under `rekeys/`: a re-sealing asked for (`rekeys/<key id>`,
/// a ``RekeyRecord``), or a node's report of it (`rekeys/<key id>/<node>`,
/// the version); `nil` for anything else.
enum RekeyEntry {
    case asked(KeyID, version: UInt16)
    case reported(KeyID, node: String, version: UInt16)

    init?(_ kv: EtcdKeyValue, keys: FleetKeys) {
        guard let path = keys.id(in: kv.keyText, under: keys.rekeys) else { return nil }
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        guard let keyID = KeyID(parts[0]) else { return nil }
        if parts.count == 1 {
            guard let record = try? FleetDataKeys.decoder.decode(RekeyRecord.self, from: Data(kv.value)) else {
                return nil
            }
            self = .asked(keyID, version: record.version)
        } else {
            guard let version = UInt16(String(decoding: kv.value, as: UTF8.self)) else { return nil }
            self = .reported(keyID, node: parts[1], version: version)
        }
    }
}

/// What `POST /v1/stores/{store}/rekey` answers: the re-sealing asked for.
struct RekeyAnswer: Encodable, Sendable {
    var keyID: String
    var version: UInt16
    /// The stores placed under the key, every copy of which is re-sealed.
    var stores: [String]
}

extension FleetNode {
    var dataKeys: FleetDataKeys { FleetDataKeys(etcd: etcd, keys: fleet.keys, cache: cache) }

    /// Re-seals every copy of the stores under `name`'s data key, on every
    /// node, under a new version of the key (docs/fleet.md, "Re-sealing"):
    /// the version is added to the key's record in etcd, then
    /// `rekeys/<key id>` asks each node to re-seal its copies
    /// (``followRekeys()``); once every node holding a copy has reported,
    /// the older versions are destroyed, in etcd and in every registry.
    func rekeyStore(_ name: StoreName) async throws -> RekeyAnswer {
        guard let record = cache.placements[name.rawValue] else {
            throw APIError(.notFound, .notFound, "the fleet has no store \(name)")
        }
        guard let keyring = node.keyring, let text = record.placement.keyID, let keyID = KeyID(text) else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "store \(name) is not sealed (serve --seal places sealed stores): it has no data key to re-seal under"
            )
        }
        let shared = dataKeys
        var version: UInt16?
        // Another node may add a version at the same moment: read again and retry.
        for _ in 0..<5 where version == nil {
            let (wrapped, revision) = try await shared.versions(keyID)
            guard !wrapped.isEmpty else {
                throw APIError(
                    .conflict,
                    .invalidArgument,
                    "store \(name) was never opened: its data key does not exist yet, and nothing is sealed under it"
                )
            }
            // One re-sealing at a time: the older versions go when it ends.
            guard wrapped.count == 1 else {
                let newest = wrapped.map(\.version).max() ?? 0
                throw APIError(
                    .conflict,
                    .invalidArgument,
                    "the copies of store \(name) are being re-sealed under version \(newest) of its data key; "
                        + "ask again once every node holding a copy has re-sealed it"
                )
            }
            let next = try await keyring.wrappedNextVersion(of: keyID, after: wrapped)
            if try await shared.replaceVersions(keyID, with: wrapped + [next], ifAt: revision) {
                version = next.version
            }
        }
        guard let version else {
            throw APIError(.serviceUnavailable, .fleetUnavailable, "the data key \(keyID) kept changing; try again")
        }
        try await shared.requestRekey(keyID, RekeyRecord(version: version, at: Date(), by: "the fleet's administrator"))
        logger.notice("re-sealing a data key's copies", metadata: ["key": "\(keyID)", "version": "\(version)"])
        let stores = cache.placements.values.filter { $0.placement.keyID == text }.map(\.store).sorted()
        return RekeyAnswer(keyID: text, version: version, stores: stores)
    }

    /// `POST /v1/stores/{store}/seal`: seals every copy of a store placed
    /// before the fleet sealed (docs/fleet.md, "Sealing a placed store"):
    /// the controller names a new data key in its placement, then
    /// `rekeys/<key id>` asks each node to seal its copy under the key's
    /// first version, which the first node to get there makes.
    func sealStore(_ request: Request, context: NodeContext) async throws -> Response {
        guard node.keyring != nil else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "this fleet does not seal (serve --fleet --seal on every node, with the same wrapping key)"
            )
        }
        if controller.currentClaim == nil {
            return
                try await forwarder
                .forward(request, to: try await controllerAddress(), maximumBodyBytes: 64 * 1_024)
        }
        let name = try StoreName(context.parameters.get("store") ?? "")
        let record: PlacementRecord
        do {
            record = try await controller.seal(name.rawValue)
        } catch let error as FleetError {
            if error.code == .notController {
                throw APIError(.serviceUnavailable, .fleetUnavailable, error.message).retrying(after: .seconds(1))
            }
            throw APIError(
                error.message.hasPrefix("there is no store") ? .notFound : .conflict,
                error.message.hasPrefix("there is no store") ? .notFound : .invalidArgument,
                error.message
            )
        }
        guard let text = record.placement.keyID, let keyID = KeyID(text) else {
            throw APIError(.internalServerError, .internalError, "the sealed placement names no key")
        }
        try await dataKeys.requestRekey(keyID, RekeyRecord(version: 1, at: Date(), by: "the fleet's administrator"))
        logger.notice("sealing a placed store's copies", metadata: ["store": "\(name)", "key": "\(keyID)"])
        return try JSONBodies.response(
            encoding: RekeyAnswer(keyID: text, version: 1, stores: [name.rawValue]),
            status: .accepted
        )
    }

    /// Follows the fleet's re-sealings until cancelled: each asks this
    /// node to re-seal its copies under a key's new version; each node's
    /// report may complete one (``finishRekey(_:version:)``).
    func followRekeys() async {
        await followPuts(under: fleet.keys.rekeys, what: "re-sealings") { kv in
            switch RekeyEntry(kv, keys: fleet.keys) {
            case .asked(let keyID, let version): await resealCopies(keyID, version: version)
            case .reported(let keyID, _, let version): await finishRekey(keyID, version: version)
            case nil: break
            }
        }
    }

    /// Every `period`, until cancelled, takes up the re-sealings this node
    /// has not reported yet: one whose copy could not be closed or
    /// re-sealed when it was asked (a store in use for longer than the
    /// retries allow), or asked while this node's follower was away.
    func retryUnfinishedRekeys(every period: Duration = .seconds(30)) async {
        let prefix = fleet.keys.rekeys
        while !Task.isCancelled {
            do { try await node.configuration.clock.sleep(period) } catch { return }
            do {
                var reported: [KeyID: UInt16] = [:]
                var asked: [(KeyID, UInt16)] = []
                for kv in try await etcd.range(.prefix(prefix)).kvs {
                    switch RekeyEntry(kv, keys: fleet.keys) {
                    case .asked(let keyID, let version): asked.append((keyID, version))
                    case .reported(let keyID, let node, let version) where node == fleet.nodeID:
                        reported[keyID] = version
                    default: break
                    }
                }
                for (keyID, version) in asked where (reported[keyID] ?? 0) < version {
                    await resealCopies(keyID, version: version)
                }
            } catch {
                logger.debug("cannot read the fleet's re-sealings", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Re-seals this node's copies sealed under `keyID` under `version`
    /// (each closed meanwhile, its requests answered 503 keyUnavailable for
    /// that moment, then started again), then reports it. A copy that fails
    /// is tried again, here and by ``retryUnfinishedRekeys(every:)``; the
    /// report waits for all, so no older version is destroyed while a copy
    /// here still needs it.
    func resealCopies(_ keyID: KeyID, version: UInt16) async {
        // The follower and the retries may both come here: one at a time.
        guard resealing.withLock({ $0.insert(keyID).inserted }) else { return }
        defer { resealing.withLock { _ = $0.remove(keyID) } }
        let shared = dataKeys
        let me = fleet.nodeID
        do {
            if let done = try await shared.rekeyReports(keyID)[me], done >= version {
                await finishRekey(keyID, version: version)
                return
            }
        } catch {
            logger.warning("cannot read a re-sealing", metadata: ["key": "\(keyID)", "error": "\(error.message)"])
            return
        }
        // The placements as etcd holds them now (the cache may not have
        // seen the one that named the key yet): the stores placed under
        // the key that this node holds.
        let placed: [StoreName]
        do {
            placed = try await PlacementStore(etcd: etcd, keys: fleet.keys).all().records.filter {
                $0.placement.keyID == keyID.description && $0.placement.role(of: me) != nil
            }.compactMap { try? StoreName($0.store) }
        } catch {
            logger.warning("cannot read the placements", metadata: ["key": "\(keyID)", "error": "\(error)"])
            return
        }
        let recorded = (try? node.registry.stores(sealedUnder: keyID)) ?? []
        var pending = Array(Set(recorded + placed)).sorted { $0.rawValue < $1.rawValue }
        for attempt in 1...5 where !pending.isEmpty {
            if attempt > 1 { try? await node.configuration.clock.sleep(.seconds(1)) }
            var failed: [StoreName] = []
            for name in pending {
                do {
                    try await reseal(name, version: version)
                } catch {
                    failed.append(name)
                    logger.warning(
                        "cannot re-seal a copy",
                        metadata: ["store": "\(name)", "key": "\(keyID)", "error": "\(error)"]
                    )
                }
            }
            pending = failed
        }
        guard pending.isEmpty else { return }
        do {
            try await shared.reportRekeyed(keyID, version: version, node: me)
        } catch {
            logger.warning("cannot report a re-sealing", metadata: ["key": "\(keyID)", "error": "\(error.message)"])
        }
    }

    /// Closes the copy `name`, seals it (a copy of a store placed before
    /// the fleet sealed) or re-seals it under `version`, and starts it
    /// again. A copy with no data yet is made sealed when it first opens.
    private func reseal(_ name: StoreName, version: UInt16) async throws {
        guard let keyring = node.keyring else { return }
        let directory = node.registry.directory(of: name)
        guard FileManager.default.fileExists(atPath: directory.appending(path: "data.mdb").path) else { return }
        guard case .sealed(let keys) = try await keyring.sealing(for: name, directory: directory) else {
            throw ServiceError(.keyUnavailable, "the placement of \(name) names no data key yet")
        }
        guard keys.contains(where: { $0.version == version }) else {
            throw ServiceError(
                .keyUnavailable,
                "version \(version) of the store's data key is not in the fleet's record"
            )
        }
        await copies.stop(name.rawValue)
        // Read while the store is closed: one process never holds a store's
        // environment twice.
        let outcome = await node.pool.pause(name, reason: "sealed under a new version of its data key") {
            Result { () throws -> (sealed: Bool, entries: Int) in
                try EventLog.sealingKeyID(at: directory) != nil
                    ? (true, try EventLog.rekey(at: directory, keys: keys).entries)
                    : (false, try EventLog.seal(at: directory, keys: keys).entries)
            }
        }
        await copies.restart(name.rawValue)
        let (sealed, entries) = try outcome.get()
        logger.info(
            sealed ? "re-sealed a copy" : "sealed a copy",
            metadata: ["store": "\(name)", "version": "\(version)", "entries": "\(entries)"]
        )
    }

    /// Destroys the versions of `keyID` older than `version`, in etcd and
    /// in this node's registry, once every node holding a copy of a store
    /// under it has reported its copies re-sealed.
    func finishRekey(_ keyID: KeyID, version: UInt16) async {
        let shared = dataKeys
        do {
            let text = keyID.description
            let members = Set(cache.placements.values.filter { $0.placement.keyID == text }.flatMap(\.placement.copies))
            let reports = try await shared.rekeyReports(keyID)
            guard members.allSatisfy({ (reports[$0] ?? 0) >= version }) else { return }
            let (wrapped, revision) = try await shared.versions(keyID)
            let kept = wrapped.filter { $0.version >= version }
            if !kept.isEmpty, kept.count < wrapped.count {
                _ = try await shared.replaceVersions(keyID, with: kept, ifAt: revision)
            }
            let destroyed = try node.registry.destroyVersions(of: keyID, olderThan: version)
            if !destroyed.isEmpty {
                logger.notice(
                    "destroyed a data key's old versions: every copy is re-sealed",
                    metadata: ["key": "\(keyID)", "versions": "\(destroyed)"]
                )
            }
        } catch {
            logger.warning("cannot finish a re-sealing", metadata: ["key": "\(keyID)", "error": "\(error)"])
        }
    }
}
