import AnchorageService
import AnchorageSync
import AnchorageTesting
import Foundation
import Testing

@Suite("The registry's peers: the nodes each store replicates with")
struct NodeRegistryPeersTests {
    @Test(
        "a generated history of adds and removes over several stores: each store's peers and the paged walk of every store with peers agree with a model, at every page size"
    )
    func historyAgreesWithModel() async throws {
        try await withTemporaryDirectory { root in
            var generator = SeededGenerator(seed: 35)
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            // Ids that share prefixes ("a", "a-b", "ab"), so a page boundary between them is exercised.
            let names = try ["a", "a-b", "a_b", "ab", "b", "c0", "z"].map { try StoreName($0) }
            _ = try registry.createStores(names)
            var model: [StoreName: [String: URL]] = [:]
            for step in 0..<200 {
                let name = names[Int.random(in: 0..<names.count, using: &generator)]
                let known = model[name, default: [:]]
                if known.isEmpty || Int.random(in: 0..<3, using: &generator) > 0 {
                    let url = URL(
                        string: "https://peer\(Int.random(in: 0..<12, using: &generator)).example/v1/stores/x"
                    )!
                    do {
                        let peer = try registry.addPeer(to: name, url: url, token: "t\(step)", direction: .both)
                        #expect(!known.values.contains(url) && known.count < NodeRegistry.maximumPeersPerStore)
                        model[name, default: [:]][peer.id] = url
                    } catch let error as ServiceError {
                        #expect(
                            (error.code == .peerExists && known.values.contains(url))
                                || (error.code == .quotaExceeded && known.count == NodeRegistry.maximumPeersPerStore),
                            "\(error)"
                        )
                    }
                } else {
                    let id = known.keys.sorted()[Int.random(in: 0..<known.count, using: &generator)]
                    try registry.removePeer(id, of: name)
                    model[name]?[id] = nil
                }
            }
            for name in names {
                let peers = try registry.peers(of: name)
                #expect(Dictionary(uniqueKeysWithValues: peers.map { ($0.id, $0.url) }) == model[name, default: [:]])
                #expect(peers.allSatisfy { $0.token?.hasPrefix("t") == true && $0.withoutToken.token == nil })
            }
            let expected = names.filter { !(model[$0]?.isEmpty ?? true) }
            for size in 1...4 {
                var walked: [StoreName] = []
                var after: StoreName?
                while true {
                    let page = try registry.storesWithPeers(after: after, limit: size)
                    #expect(page.count <= size)
                    for entry in page {
                        #expect(Set(entry.peers.map(\.id)) == Set(model[entry.store, default: [:]].keys))
                    }
                    walked += page.map(\.store)
                    guard page.count == size, let last = page.last else { break }
                    after = last.store
                }
                #expect(walked == expected, "page size \(size)")
            }
        }
    }

    @Test(
        "hostile peers are typed errors and nothing is stored: bad schemes, credentials in the url, huge urls and tokens, unknown stores and ids"
    )
    func hostile() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            let alice = try StoreName("alice")
            try registry.createStore(alice)
            let refused: [(String, String?)] = [
                ("ftp://peer.example", nil),
                ("file:///etc/passwd", nil),
                ("http://", nil),
                ("https://user:secret@peer.example", nil),
                ("https://peer.example/v1?token=x", nil),
                ("https://peer.example/" + String(repeating: "a", count: 3_000), nil),
                ("https://peer.example", ""),
                ("https://peer.example", "has space"),
                ("https://peer.example", String(repeating: "x", count: 2_000)),
                ("https://peer.example", "tökén"),
            ]
            for (text, token) in refused {
                let url = try #require(URL(string: text))
                #expect {
                    try registry.addPeer(to: alice, url: url, token: token, direction: .both)
                } throws: { ($0 as? ServiceError)?.code == .invalidArgument }
            }
            #expect(try registry.peers(of: alice).isEmpty)
            #expect {
                try registry.addPeer(
                    to: try StoreName("nobody"),
                    url: URL(string: "https://peer.example")!,
                    token: nil,
                    direction: .pull
                )
            } throws: { ($0 as? ServiceError)?.code == .storeNotFound }
            #expect { try registry.removePeer("peer_nothing", of: alice) } throws: {
                ($0 as? ServiceError)?.code == .peerNotFound
            }
            // A peer of another store cannot be removed through this one.
            let bob = try StoreName("bob")
            try registry.createStore(bob)
            let bobs = try registry.addPeer(
                to: bob,
                url: URL(string: "https://b.example")!,
                token: nil,
                direction: .push
            )
            #expect { try registry.removePeer(bobs.id, of: alice) } throws: {
                ($0 as? ServiceError)?.code == .peerNotFound
            }
            #expect(try registry.peers(of: bob).map(\.id) == [bobs.id])
        }
    }

    @Test("deleting a store removes its peers with its tokens; a new store of the same id starts with none")
    func deletionRemovesPeers() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: NodeRegistryTests.configuration())
            let alice = try StoreName("alice")
            try registry.createStore(alice)
            try registry.addPeer(to: alice, url: URL(string: "https://b.example")!, token: "s", direction: .both)
            try registry.deleteStore(alice)
            #expect(try registry.storesWithPeers(after: nil, limit: 10).isEmpty)
            try registry.createStore(alice)
            #expect(try registry.peers(of: alice).isEmpty)
        }
    }
}
