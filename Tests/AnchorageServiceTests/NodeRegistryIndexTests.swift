import AnchorageService
import AnchorageTesting
import Foundation
import Testing

@Suite("The registry's index of tokens by store")
struct NodeRegistryIndexTests {
    @Test(
        "a store's tokens, revocations and deletions go through its index and agree with a scan of every token; a registry written before the index gets it when it opens"
    )
    func indexAgreesWithScan() async throws {
        try await withTemporaryDirectory { root in
            var generator = SeededGenerator(seed: 33)
            let names = try (0..<6).map { try StoreName("s\($0)") }
            do {
                let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
                _ = try registry.createStores(names)
                var live: [String: String] = [:]  // token id → store
                for _ in 0..<120 {
                    let name = names[Int.random(in: 0..<names.count, using: &generator)]
                    if Bool.random(using: &generator) || live.isEmpty {
                        let issued = try registry.issueToken(TokenGrant(store: name, owner: true))
                        live[issued.record.id] = name.rawValue
                    } else {
                        let id = live.keys.sorted()[Int.random(in: 0..<live.count, using: &generator)]
                        try registry.revokeToken(id: id)
                        live[id] = nil
                    }
                }
                _ = try registry.issueToken(.administrator())
                for name in names {
                    let indexed = Set(try registry.tokens(of: name).map(\.id))
                    let scanned = Set(try registry.tokens().filter { $0.grant.store == name.rawValue }.map(\.id))
                    #expect(indexed == scanned && indexed == Set(live.filter { $0.value == name.rawValue }.keys))
                }
                #expect(try registry.digestCount() == live.count + 1)
                try registry.dropTokenIndex()
            }
            // Reopened without its index: built again, then used.
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            let before = try registry.tokens()
            #expect(try registry.tokens(of: names[0]).count == before.count { $0.grant.store == "s0" })
            try registry.deleteStore(names[0])
            #expect(try registry.tokens().count == before.count - before.count { $0.grant.store == "s0" })
            #expect(try registry.digestCount() == registry.tokens().count, "every deleted token's digest went with it")
        }
    }
}
