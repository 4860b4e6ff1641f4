import AnchorageTestRun
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import AnchorageService

/// The registry remembers decoded records by their bytes: what a lookup
/// answers must be what the registry holds now, whoever changed it.
// Thousands of registry writes and lookups: on a thread of their own, not the pool's.
@Suite("A registry's decoded records", .ownThread)
struct NodeRegistryDecodedTests {
    static var configuration: NodeRegistry.Configuration {
        var configuration = NodeRegistry.Configuration()
        configuration.synchronous = false
        return configuration
    }

    @Test("lookups answer the records as they are now: revoked, reissued, deleted")
    func currentRecords() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: Self.configuration)
            let alice = try StoreName("alice")
            _ = try registry.createStore(alice)
            let issued = try registry.issueToken(TokenGrant(store: alice, owner: true))
            for _ in 0..<3 { #expect(try registry.token(forSecret: issued.secret) == issued.record) }
            #expect(try registry.store(alice)?.state == .active)
            try registry.revokeToken(id: issued.record.id)
            #expect(try registry.token(forSecret: issued.secret) == nil)
            let second = try registry.issueToken(TokenGrant(store: alice, owner: true))
            #expect(try registry.token(forSecret: second.secret) == second.record)
            try registry.deleteStore(alice)
            #expect(try registry.token(forSecret: second.secret) == nil)
            #expect(try registry.store(alice)?.state != .active)
        }
    }

    @Test("at most decodedCapacity records are kept, and lookups past it still answer")
    func bounded() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: Self.configuration)
            let names = try (0..<(NodeRegistry.decodedCapacity + 300)).map {
                try StoreName(String(format: "s%05d", $0))
            }
            _ = try registry.createStores(names)
            for name in names { #expect(try registry.store(name)?.id == name.rawValue) }
            let kept = registry.decoded.withLock { $0.count }
            #expect(kept <= NodeRegistry.decodedCapacity && kept > 0, "\(kept) records kept")
        }
    }
}
