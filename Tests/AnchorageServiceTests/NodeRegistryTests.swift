import Anchorage
import AnchorageLog
import AnchorageService
import AnchorageTesting
import Foundation
import Testing

@Suite("A multi-store node's registry: stores, tokens bound to one store, deletion")
struct NodeRegistryTests {
    static func configuration(maximumStores: Int = 1_000_000) -> NodeRegistry.Configuration {
        var configuration = NodeRegistry.Configuration()
        configuration.maximumStores = maximumStores
        configuration.synchronous = false
        return configuration
    }

    /// What the root holds besides the registry's own directory.
    static func entries(_ root: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0 != NodeRegistry.directoryName }
            .sorted()
    }

    @Test(
        "store ids are checked before they touch a path: traversal, encoded slashes, 4 KB, unicode, upper case, control characters",
        arguments: [
            "", ".", "..", "../etc", "a/b", "%2F", "a%2Fb", "..%2F..", ".registry", "-a", "_a", "Alice", "ålice",
            "a b", "a\nb", "a\u{0}b", "a.b", "\u{202E}abc", String(repeating: "a", count: 65),
            String(repeating: "x", count: 4_096), "ａ",
        ]
    )
    func hostileIDs(text: String) async throws {
        #expect {
            try StoreName(text)
        } throws: { error in
            guard let error = error as? ServiceError, error.code == .invalidStoreID else { return false }
            // The message quotes at most the id's first 64 characters, escaped on one line.
            return error.message.count < 300 && !error.message.contains("\n") && !error.message.contains("\u{0}")
        }
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: Self.configuration())
            #expect(try registry.stores().isEmpty)
            #expect(try Self.entries(root).isEmpty)
        }
    }

    @Test(
        "ids of 1 to 64 lowercase letters, digits, '-' and '_' are stores' names",
        arguments: ["a", "0", "alice-2024_b", String(repeating: "z", count: 64)]
    )
    func goodIDs(text: String) throws {
        #expect(try StoreName(text).rawValue == text)
    }

    @Test(
        "a store is created once, listed, survives reopening, and its directory exists; a second create is storeExists"
    )
    func createAndList() async throws {
        try await withTemporaryDirectory { root in
            let alice = try StoreName("alice")
            do {
                let registry = try NodeRegistry(root: root, configuration: Self.configuration())
                let created = try registry.createStore(alice, now: Date(timeIntervalSince1970: 1_000))
                #expect(created.state == .active)
                #expect(throws: ServiceError(.storeExists, "there is already a store alice")) {
                    try registry.createStore(alice)
                }
                try registry.createStore(try StoreName("bob"))
            }
            let reopened = try NodeRegistry(root: root, configuration: Self.configuration())
            #expect(try reopened.stores().map(\.id) == ["alice", "bob"])
            #expect(try reopened.store(alice)?.created == Date(timeIntervalSince1970: 1_000))
            #expect(try Self.entries(root) == ["alice", "bob"])
        }
    }

    @Test(
        "a creation flood past the quota: exactly the quota's stores exist, the rest are quotaExceeded, nothing half made"
    )
    func creationFlood() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: Self.configuration(maximumStores: 10))
            let outcomes = await withTaskGroup(of: ServiceError.Code?.self) { group in
                for index in 0..<60 {
                    group.addTask {
                        do {
                            try registry.createStore(try StoreName("s\(index)"))
                            return nil
                        } catch {
                            return (error as? ServiceError)?.code ?? .storageFailed
                        }
                    }
                }
                return await group.reduce(into: [ServiceError.Code?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == nil }.count == 10)
            #expect(outcomes.filter { $0 == .quotaExceeded }.count == 50)
            #expect(try registry.stores().count == 10)
            #expect(try Self.entries(root).count == 10)
            #expect(Set(try Self.entries(root)) == Set(try registry.stores().map(\.id)))
        }
    }

    @Test("a token is bound to one store and one principal; only its digest is on disk; revoking takes effect at once")
    func tokens() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: Self.configuration())
            let alice = try StoreName("alice")
            try registry.createStore(alice)
            try registry.createStore(try StoreName("bob"))
            let owner = try registry.issueToken(TokenGrant(store: alice, owner: true))
            let app = try registry.issueToken(
                TokenGrant(store: alice, app: "com.example.dashboard", read: ["stepCount", "activitySummary"])
            )
            #expect(owner.secret != app.secret && owner.secret.hasPrefix("anc_") && owner.secret.count >= 40)
            #expect(try registry.token(forSecret: owner.secret) == owner.record)
            #expect(try registry.token(forSecret: app.secret)?.grant.app == "com.example.dashboard")
            #expect(try registry.token(forSecret: app.secret)?.grant.store == "alice")
            #expect(try registry.token(forSecret: "anc_not-a-token") == nil)
            #expect(try registry.token(forSecret: String(repeating: "a", count: 1 << 20)) == nil)
            #expect(try registry.tokens(of: try StoreName("bob")).isEmpty)
            #expect(Set(try registry.tokens(of: alice).map(\.id)) == [owner.record.id, app.record.id])

            // The secrets are nowhere in the registry's files.
            let files = try FileManager.default.contentsOfDirectory(
                at: root.appending(path: NodeRegistry.directoryName),
                includingPropertiesForKeys: nil
            )
            for file in files {
                let bytes = try Data(contentsOf: file)
                #expect(bytes.range(of: Data(owner.secret.utf8)) == nil, "\(file.lastPathComponent)")
                #expect(bytes.range(of: Data(app.secret.utf8)) == nil, "\(file.lastPathComponent)")
            }

            try registry.revokeToken(id: app.record.id)
            #expect(try registry.token(forSecret: app.secret) == nil)
            #expect(try registry.digestCount() == 1, "nothing of a revoked token is kept")
            #expect(try registry.token(forSecret: owner.secret) == owner.record)
            #expect(throws: ServiceError.self) { try registry.revokeToken(id: app.record.id) }
        }
    }

    @Test(
        "grants a token file would refuse are invalidGrant; a token for a store the node lacks is storeNotFound",
        arguments: [
            (TokenGrant(store: try! StoreName("alice"), app: "com.example.a", read: ["notAType"]), "invalidGrant"),
            (
                TokenGrant(store: try! StoreName("alice"), app: "com.example.a", share: ["bloodPressure"]),
                "invalidGrant"
            ),
            (TokenGrant(store: try! StoreName("alice"), app: "", read: ["stepCount"]), "invalidGrant"),
            (TokenGrant(store: try! StoreName("alice"), app: String(repeating: "x", count: 256)), "invalidGrant"),
            (TokenGrant(store: try! StoreName("nobody"), owner: true), "storeNotFound"),
            (TokenGrant(store: try! StoreName("alice"), owner: false), "invalidGrant"),
        ]
    )
    func refusedGrants(grant: TokenGrant, code: String) async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: Self.configuration())
            try registry.createStore(try StoreName("alice"))
            #expect {
                try registry.issueToken(grant)
            } throws: { error in
                (error as? ServiceError)?.code.description == code
            }
            #expect(try registry.tokens().isEmpty)
        }
    }

    @Test("deleting a store erases its directory, revokes its tokens, leaves others; the id can be created anew, empty")
    func deleteStore() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: Self.configuration())
            let alice = try StoreName("alice")
            let bob = try StoreName("bob")
            try registry.createStore(alice)
            try registry.createStore(bob)
            let store = HKHealthStore(directory: registry.directory(of: alice))
            let start = Date(timeIntervalSince1970: 1_717_200_000)
            try await store.save(
                HKQuantitySample(
                    type: HKQuantityType(.stepCount),
                    quantity: HKQuantity(unit: .count(), doubleValue: 12),
                    start: start,
                    end: start.addingTimeInterval(60)
                )
            )
            await store.close()
            let token = try registry.issueToken(TokenGrant(store: alice, owner: true))
            let kept = try registry.issueToken(TokenGrant(store: bob, owner: true))

            try registry.deleteStore(alice)
            #expect(try registry.store(alice) == nil)
            #expect(try registry.digestCount() == 1)
            #expect(try registry.token(forSecret: token.secret) == nil)
            #expect(try registry.token(forSecret: kept.secret) == kept.record)
            #expect(try Self.entries(root) == ["bob"])
            #expect(throws: ServiceError.self) { try registry.deleteStore(alice) }

            try registry.createStore(alice)
            let again = HKHealthStore(directory: registry.directory(of: alice))
            #expect(try again.eventLog().head.seq == 0)
            await again.close()
        }
    }

    @Test("a deletion a crash interrupted is finished when the registry opens: no store, no token, no directory left")
    func interruptedDeletion() async throws {
        try await withTemporaryDirectory { root in
            let alice = try StoreName("alice")
            let secret: String
            do {
                let registry = try NodeRegistry(root: root, configuration: Self.configuration())
                try registry.createStore(alice)
                secret = try registry.issueToken(TokenGrant(store: alice, owner: true)).secret
                try Data("x".utf8).write(to: registry.directory(of: alice).appending(path: "data.mdb"))
                try registry.beginDeletion(alice)
                // A rename done before the crash, its removal not.
                try FileManager.default.createDirectory(
                    at: root.appending(path: ".deleting-bob-1"),
                    withIntermediateDirectories: false
                )
            }
            let reopened = try NodeRegistry(root: root, configuration: Self.configuration())
            #expect(try reopened.stores().isEmpty)
            #expect(try reopened.token(forSecret: secret) == nil)
            #expect(try Self.entries(root).isEmpty)
        }
    }

    @Test("a store open in a running process is not deleted: storeInUse, and nothing changes; once closed it is")
    func deleteOpenStore() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: Self.configuration())
            let alice = try StoreName("alice")
            try registry.createStore(alice)
            let token = try registry.issueToken(TokenGrant(store: alice, owner: true))
            let store = HKHealthStore(directory: registry.directory(of: alice))
            try await store.opened()
            #expect {
                try registry.deleteStore(alice)
            } throws: { error in
                (error as? ServiceError)?.code == .storeInUse
            }
            #expect(try registry.store(alice) != nil)
            #expect(try registry.token(forSecret: token.secret) == token.record)
            #expect(try Self.entries(root) == ["alice"])
            await store.close()
            try registry.deleteStore(alice)
            #expect(try Self.entries(root).isEmpty)
        }
    }

    @Test("a deletion that crashed after removing the directory but before its record is finished on the next open")
    func interruptedAfterErasure() async throws {
        try await withTemporaryDirectory { root in
            let alice = try StoreName("alice")
            do {
                let registry = try NodeRegistry(root: root, configuration: Self.configuration())
                try registry.createStore(alice)
                try registry.beginDeletion(alice)
                try FileManager.default.removeItem(at: registry.directory(of: alice))
            }
            let reopened = try NodeRegistry(root: root, configuration: Self.configuration())
            #expect(try reopened.stores().isEmpty)
            try reopened.createStore(alice)
            #expect(try reopened.stores().map(\.id) == ["alice"])
        }
    }

    @Test("stores created together: all in one commit, or none when one is taken, given twice, or past the quota")
    func createTogether() async throws {
        try await withTemporaryDirectory { root in
            let registry = try NodeRegistry(root: root, configuration: Self.configuration(maximumStores: 600))
            let many = try (0..<500).map { try StoreName("s\($0)") }
            #expect(try registry.createStores(many).count == 500)
            #expect(try registry.stores().count == 500)
            #expect(try Self.entries(root).count == 500)
            for (batch, code) in [
                ([try StoreName("new-1"), try StoreName("s7")], ServiceError.Code.storeExists),
                ([try StoreName("new-1"), try StoreName("new-1")], .storeExists),
                (try (0..<101).map { try StoreName("more-\($0)") }, .quotaExceeded),
            ] {
                #expect {
                    try registry.createStores(batch)
                } throws: { error in
                    (error as? ServiceError)?.code == code
                }
                #expect(try registry.stores().count == 500, "none of the batch was added")
                #expect(try Self.entries(root).count == 500)
            }
            #expect(try registry.createStores(try (0..<100).map { try StoreName("more-\($0)") }).count == 100)
            #expect(try registry.stores().count == 600)
        }
    }
}
