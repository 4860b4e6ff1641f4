import AnchorageCore
import AnchorageFleet
import AnchorageLog
import AnchorageService
import Etcd
import Foundation
import HTTPTypes
import Logging

extension FleetNode {
    /// Follows the fleet's tombstones of shredded data keys until
    /// cancelled: a key shredded through any node closes this node's open
    /// copies sealed under it (no copy keeps the unwrapped key) and
    /// destroys this node's wrapped copy of it, so that every copy answers
    /// `keyShredded` from then on.
    func followShreddedKeys() async {
        await followPuts(under: fleet.keys.shredded, what: "shredded keys") { kv in
            guard let text = fleet.keys.id(in: kv.keyText, under: fleet.keys.shredded), let keyID = KeyID(text) else {
                return
            }
            await forgetShreddedKey(keyID)
        }
    }

    /// Calls `handle` with every record under `prefix` (all of them when
    /// the follow begins, then each one put), until cancelled; a follow
    /// that fails is logged and begun again a second later.
    func followPuts(under prefix: String, what: String, _ handle: (EtcdKeyValue) async -> Void) async {
        while !Task.isCancelled {
            do {
                for try await update in etcd.follow(.prefix(prefix)) {
                    let kvs: [EtcdKeyValue]
                    switch update {
                    case .snapshot(let all, _): kvs = all
                    case .events(let events): kvs = events.filter { $0.kind == .put }.map(\.kv)
                    }
                    for kv in kvs { await handle(kv) }
                }
            } catch {
                logger.warning("cannot follow the fleet's \(what)", metadata: ["error": "\(error)"])
            }
            try? await node.configuration.clock.sleep(.seconds(1))
        }
    }
}

extension FleetNode {
    /// Closes this node's copies sealed under `keyID` (their followers
    /// stopped first, so nothing holds them open) and destroys this node's
    /// wrapped copy of the key (shredded through another node).
    func forgetShreddedKey(_ keyID: KeyID) async {
        do {
            // Forgotten already (a tombstone seen before this follow began):
            // its copies closed then, and cannot open again.
            guard try node.registry.shredded(keyID) == nil else { return }
            for name in try node.registry.stores(sealedUnder: keyID) {
                await copies.stop(name.rawValue)
                await node.pool.remove(name)
                node.pool.endRemoval(name)
            }
            _ = try node.registry.shred(keyID, by: "the fleet", now: Date())
        } catch {
            logger.warning(
                "cannot forget a data key shredded in the fleet",
                metadata: ["key": "\(keyID)", "error": "\(error.message)"]
            )
        }
    }
}

extension FleetNode {
    /// Destroys a placed store's data key for the whole fleet (through any
    /// node): this node's copy, if it holds one, closes first; the
    /// tombstone goes into etcd with the wrapped key's removal; the other
    /// nodes close theirs as they see it (``followShreddedKeys()``).
    func shredStore(_ name: StoreName) async throws -> ShreddedKey {
        guard cache.placements[name.rawValue] != nil else {
            throw APIError(.notFound, .notFound, "the fleet has no store \(name)")
        }
        guard let keyring = node.keyring else {
            throw APIError(
                .badRequest,
                .invalidArgument,
                "this fleet does not seal its stores (serve --seal): store \(name) has no data key to shred"
            )
        }
        return try await node.shredKey(of: name, by: "the fleet's administrator", keyring: keyring) {
            await copies.stop(name.rawValue)
        }
    }
}
