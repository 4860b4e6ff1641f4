import AnchorageFleet
import AnchorageKeys
import AnchorageLog
import AnchorageService
import AnchorageTestRun
import AnchorageTesting
import Crypto
import Etcd
import Foundation
import Testing

@testable import AnchorageServer

/// The fleet's shared data keys on a real etcd, node by node: keyrings of
/// separate registries (separate nodes) opening copies of the same stores
/// at once agree on one key per store; a node without the fleet's wrapping
/// key gets a typed error; a shred through one reaches the others.
@Suite("Fleet: shared data keys on etcd", .serialized, .startsProcesses(weight: 1))
struct FleetDataKeysTests {
    /// Two nodes' keyrings (and a third with a wrapping key of its own)
    /// over one etcd; every resource stopped afterwards.
    static func withNodes(
        _ body: (
            _ nodes: [(keyring: StoreKeyring, registry: NodeRegistry)], _ stranger: StoreKeyring, _ etcd: EtcdClient,
            _ keys: FleetKeys, _ cluster: EtcdTestCluster
        ) async throws -> Void
    ) async throws {
        try await EtcdTestCluster.with(size: 1) { cluster in
            try await withTemporaryDirectory { directory in
                let etcd = try EtcdClient(.init(endpoints: cluster.endpoints))
                let keys = FleetKeys(root: "/keys-\(UUID().uuidString.prefix(8))/")
                let shared = FleetDataKeys(etcd: etcd, keys: keys, cache: PlacementCache(etcd: etcd, keys: keys))
                let keyFile = directory.appending(path: "fleet.keys")
                let provider = try KeyFileProvider(url: keyFile)
                _ = try await provider.currentWrappingKeyID()
                let nodes = try (0..<2).map { index in
                    let registry = try NodeRegistry(root: directory.appending(path: "n\(index)"))
                    let keyring = StoreKeyring(
                        registry: registry,
                        provider: try KeyFileProvider(url: keyFile),
                        shared: shared
                    )
                    return (keyring, registry)
                }
                let stranger = StoreKeyring(
                    registry: try NodeRegistry(root: directory.appending(path: "n2")),
                    provider: try KeyFileProvider(url: directory.appending(path: "other.keys")),
                    shared: shared
                )
                let result = await Result { try await body(nodes, stranger, etcd, keys, cluster) }
                await etcd.shutdown()
                try result.get()
            }
        }
    }

    /// Places `store` under a new key id, as the controller does.
    static func place(_ store: String, etcd: EtcdClient, keys: FleetKeys) async throws -> KeyID {
        let keyID = KeyID()
        let placement = Placement(primary: "n0", replicas: ["n1"], epoch: 1, keyID: keyID.description)
        try await etcd.put(keys.store(store), value: Array(try JSONEncoder().encode(placement)))
        return keyID
    }

    static func material(_ sealing: EventLog.Sealing) -> [[UInt8]] {
        guard case .sealed(let keys) = sealing else { return [] }
        return keys.map { key in key.material.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in Array(bytes) } }
    }

    @Test(
        "copies of 12 stores opened on two nodes at once: one key per store, the one its placement names; a node without the fleet's wrapping key is keyUnavailable; a shred through one node is keyShredded on the other; with etcd out of reach, a copy opened before opens with its own keys"
    )
    func sharedKeys() async throws {
        try await Self.withNodes { nodes, stranger, etcd, keys, cluster in
            var placed: [StoreName: KeyID] = [:]
            for index in 0..<12 {
                let name = try StoreName("s\(index)")
                placed[name] = try await Self.place(name.rawValue, etcd: etcd, keys: keys)
            }
            for (name, keyID) in placed.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                // Both nodes open their copy at the same moment: each may make
                // a key; the first published wins, and both seal under it.
                async let first = nodes[0].keyring.sealing(for: name, directory: URL(fileURLWithPath: "/nonexistent"))
                async let second = nodes[1].keyring.sealing(for: name, directory: URL(fileURLWithPath: "/nonexistent"))
                let (a, b) = try await (first, second)
                #expect(!Self.material(a).isEmpty && Self.material(a) == Self.material(b), "\(name): two keys")
                guard case .sealed(let sealed) = a else { continue }
                #expect(sealed.allSatisfy { $0.id == keyID })
                for node in nodes { #expect(try node.registry.keyID(of: name) == keyID) }
            }
            // A node given another wrapping key cannot unwrap the fleet's keys.
            let name = try StoreName("s0")
            do {
                _ = try await stranger.sealing(for: name, directory: URL(fileURLWithPath: "/nonexistent"))
                Issue.record("a node without the fleet's wrapping key unwrapped a data key")
            } catch let error as ServiceError {
                #expect(error.code == .keyUnavailable, "\(error)")
            }
            // Shredded through node 0: node 1 refuses, and forgets its copy.
            let record = try await nodes[0].keyring.shredEverywhere(name, by: "a test")
            #expect(record.keyID == placed[name])
            do {
                _ = try await nodes[1].keyring.sealing(for: name, directory: URL(fileURLWithPath: "/nonexistent"))
                Issue.record("a shredded key was unwrapped")
            } catch let error as ServiceError {
                #expect(error.code == .keyShredded, "\(error)")
            }
            #expect(try nodes[1].registry.wrappedKeys(placed[name]!).isEmpty)
            #expect(try nodes[1].registry.shredded(placed[name]!) != nil)
            // The others are untouched.
            let other = try StoreName("s1")
            let before = Self.material(
                try await nodes[1].keyring.sealing(for: other, directory: URL(fileURLWithPath: "/x"))
            )
            #expect(!before.isEmpty)
            // etcd out of reach: a copy a node opened before opens with the
            // versions it keeps; one it never held cannot.
            cluster.kill(0)
            let during = Self.material(
                try await nodes[1].keyring.sealing(for: other, directory: URL(fileURLWithPath: "/x"))
            )
            #expect(during == before)
            do {
                _ = try await stranger.sealing(for: other, directory: URL(fileURLWithPath: "/x"))
                Issue.record("a node that never held the key opened a copy with etcd out of reach")
            } catch let error as ServiceError {
                #expect(error.code == .keyUnavailable, "\(error)")
            }
        }
    }
}
