import Anchorage
import AnchorageKeys
import AnchorageLog
import AnchorageService
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import AnchorageServer

/// A multi-store node with a key provider: every store it creates seals
/// under its own data key, wrapped in the registry; shredding the key
/// erases the store's data on every copy.
@Suite("A multi-store node that seals its stores")
struct MultiStoreSealingTests {
    static let marker = "sealed-marker-\(UUID().uuidString)"

    static func sample(_ value: Int) -> String {
        """
        {"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierHeartRate",\
        "startDate":"2024-06-01T08:0\(value % 10):00Z","endDate":"2024-06-01T08:0\(value % 10):00Z",\
        "quantity":{"unit":"count/min","value":\(60 + value)},"metadata":{"note":{"string":"\(marker)"}},\
        "sourceRevision":{"source":{"name":"Watch","bundleIdentifier":"com.example.watch"}}}
        """
    }

    /// Every file under `directory`, recursively.
    static func files(under directory: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    @Test(
        "a store created on the node seals: the same answers, no marker in any file, audits pass with and without the key"
    )
    func sealsNewStores() async throws {
        try await withTemporaryDirectory { keys in
            let provider = try KeyFileProvider(url: keys.appending(path: "wrapping.keys"))
            var configuration = NodeConfiguration()
            configuration.keyProvider = provider
            try await MultiStoreFixture.with(configuration: configuration) { fixture in
                try await fixture.node.application().test(.router) { client in
                    let saved = try await client.send(
                        .post,
                        "/v1/stores/alice/samples",
                        token: fixture.alice,
                        json: "[\((0..<5).map(Self.sample).joined(separator: ","))]"
                    )
                    #expect(saved.status == .created, "\(saved.text)")
                    let feed = try await client.send(
                        .get,
                        "/v1/stores/alice/changes?type=heartRate",
                        token: fixture.alice
                    )
                    #expect(feed.status == .ok && feed.text.contains(Self.marker), "\(feed.text.prefix(300))")
                    let statistics = try await client.send(
                        .get,
                        "/v1/stores/alice/statistics?type=heartRate&options=max&from=2024-06-01&to=2024-06-02&interval=1d",
                        token: fixture.alice
                    )
                    #expect(statistics.status == .ok && statistics.text.contains("64"), "\(statistics.text)")
                }
                let alice = try StoreName("alice")
                let keyID = try #require(try fixture.node.registry.keyID(of: alice))
                #expect(try fixture.node.registry.wrappedKeys(keyID).count == 1)
                await fixture.node.close()
                for file in Self.files(under: fixture.root) {
                    let bytes = try Data(contentsOf: file)
                    #expect(bytes.range(of: Data(Self.marker.utf8)) == nil, "\(file.path) holds the marker")
                }
                let keyring = try #require(fixture.node.keyring)
                let directory = fixture.node.registry.directory(of: alice)
                let sealing = try await keyring.sealing(for: alice, directory: directory)
                try await expectAuditPasses(directory, sealing: sealing)
                var keyless = EventLog.Configuration()
                keyless.sealing = .keyless(keyID)
                let log = try EventLog.open(at: directory, configuration: keyless)
                #expect(try log.verify().isIntact)
                await log.close()
            }
        }
    }

    @Test("a shredded store answers 410 keyShredded after it closes; its files still verify without the key")
    func shredding() async throws {
        try await withTemporaryDirectory { keys in
            var configuration = NodeConfiguration()
            configuration.keyProvider = try KeyFileProvider(url: keys.appending(path: "wrapping.keys"))
            try await MultiStoreFixture.with(configuration: configuration) { fixture in
                let alice = try StoreName("alice")
                try await fixture.node.application().test(.router) { client in
                    let saved = try await client.send(
                        .post,
                        "/v1/stores/alice/samples",
                        token: fixture.alice,
                        json: "[\(Self.sample(1))]"
                    )
                    #expect(saved.status == .created, "\(saved.text)")
                }
                let keyID = try #require(try fixture.node.registry.keyID(of: alice))
                let keyring = try #require(fixture.node.keyring)
                let tombstone = try keyring.shred(alice, by: "test")
                #expect(tombstone.keyID == keyID)
                #expect(try fixture.node.registry.wrappedKeys(keyID).isEmpty)
                await fixture.node.close()
                // The node again: the store opens on the next request.
                let again = try MultiStoreNode(
                    root: fixture.root,
                    configuration: {
                        var restarted = configuration
                        restarted.port = 0
                        return restarted
                    }(),
                    storeConfiguration: .forTests
                )
                try await again.application().test(.router) { client in
                    let feed = try await client.send(
                        .get,
                        "/v1/stores/alice/changes?type=heartRate",
                        token: fixture.alice
                    )
                    #expect(feed.status == .gone && feed.text.contains("keyShredded"), "\(feed.text)")
                    let bob = try await client.send(.get, "/v1/stores/bob/changes?type=heartRate", token: fixture.bob)
                    #expect(bob.status == .ok, "another person's store is untouched: \(bob.text)")
                }
                await again.close()
                var keyless = EventLog.Configuration()
                keyless.sealing = .keyless(keyID)
                let log = try EventLog.open(at: fixture.node.registry.directory(of: alice), configuration: keyless)
                #expect(try log.verify().isIntact)
                #expect(try log.entries(after: nil, limit: 10).entries.allSatisfy { !$0.isOpened })
                await log.close()
            }
        }
    }

    @Test(
        "POST /v1/stores/{store}/shred: the administrator shreds at once; the owner cannot; a node that does not seal says so"
    )
    func shredRoute() async throws {
        try await withTemporaryDirectory { keys in
            var configuration = NodeConfiguration()
            configuration.keyProvider = try KeyFileProvider(url: keys.appending(path: "wrapping.keys"))
            try await MultiStoreFixture.with(configuration: configuration) { fixture in
                let admin = try fixture.node.registry.issueToken(.administrator()).secret
                try await fixture.node.application().test(.router) { client in
                    let saved = try await client.send(
                        .post,
                        "/v1/stores/alice/samples",
                        token: fixture.alice,
                        json: "[\(Self.sample(2))]"
                    )
                    #expect(saved.status == .created, "\(saved.text)")
                    let byOwner = try await client.send(.post, "/v1/stores/alice/shred", token: fixture.alice)
                    #expect(byOwner.status == .forbidden || byOwner.status == .unauthorized, "\(byOwner.text)")
                    let shredded = try await client.send(.post, "/v1/stores/alice/shred", token: admin)
                    #expect(shredded.status == .ok && shredded.text.contains("keyID"), "\(shredded.text)")
                    // The store closed; its next open finds no key.
                    let feed = try await client.send(
                        .get,
                        "/v1/stores/alice/changes?type=heartRate",
                        token: fixture.alice
                    )
                    #expect(feed.status == .gone && feed.text.contains("keyShredded"), "\(feed.text)")
                    let twice = try await client.send(.post, "/v1/stores/alice/shred", token: admin)
                    #expect(twice.status == .gone, "\(twice.text)")
                    let missing = try await client.send(.post, "/v1/stores/carol/shred", token: admin)
                    #expect(missing.status == .notFound, "\(missing.text)")
                }
            }
        }
        try await MultiStoreFixture.with { fixture in
            let admin = try fixture.node.registry.issueToken(.administrator()).secret
            try await fixture.node.application().test(.router) { client in
                let refused = try await client.send(.post, "/v1/stores/alice/shred", token: admin)
                #expect(refused.status == .badRequest && refused.text.contains("does not seal"), "\(refused.text)")
            }
        }
    }

    @Test(
        "a key provider that cannot answer: 503 keyUnavailable with Retry-After, nothing stored; the store opens once it answers"
    )
    func providerUnavailable() async throws {
        try await withTemporaryDirectory { keys in
            let working = try KeyFileProvider(url: keys.appending(path: "wrapping.keys"))
            let flaky = FlakyProvider(wrapping: working)
            var configuration = NodeConfiguration()
            configuration.keyProvider = flaky
            try await MultiStoreFixture.with(configuration: configuration) { fixture in
                try await fixture.node.application().test(.router) { client in
                    let first = try await client.send(
                        .post,
                        "/v1/stores/alice/samples",
                        token: fixture.alice,
                        json: "[\(Self.sample(3))]"
                    )
                    #expect(first.status == .created, "\(first.text)")
                }
                await fixture.node.close()
                flaky.failing.withLock { $0 = true }
                var restarted = configuration
                restarted.port = 0
                let again = try MultiStoreNode(
                    root: fixture.root,
                    configuration: restarted,
                    storeConfiguration: .forTests
                )
                try await again.application().test(.router) { client in
                    let refused = try await client.send(
                        .post,
                        "/v1/stores/alice/samples",
                        token: fixture.alice,
                        json: "[\(Self.sample(4))]"
                    )
                    #expect(
                        refused.status == .serviceUnavailable && refused.text.contains("keyUnavailable"),
                        "\(refused.text)"
                    )
                    #expect(refused.headers[.retryAfter] != nil)
                    flaky.failing.withLock { $0 = false }
                    let feed = try await client.send(
                        .get,
                        "/v1/stores/alice/changes?type=heartRate",
                        token: fixture.alice
                    )
                    #expect(feed.status == .ok, "\(feed.text)")
                    #expect(
                        feed.text.components(separatedBy: "\"uuid\"").count - 1 == 1,
                        "only the first save: \(feed.text)"
                    )
                }
                await again.close()
            }
        }
    }
}

/// A key provider that fails on demand, as an HSM that stops answering.
final class FlakyProvider: KeyProvider {
    let inner: KeyFileProvider
    let failing = Mutex(false)

    init(wrapping inner: KeyFileProvider) { self.inner = inner }

    var name: String { "a flaky provider" }

    private func check() throws(KeyError) {
        if failing.withLock({ $0 }) {
            throw KeyError(.providerUnavailable, "the provider did not answer within 5 s")
        }
    }

    func wrap(_ key: DataKey) async throws(KeyError) -> WrappedKey {
        try check()
        return try await inner.wrap(key)
    }

    func unwrap(_ wrapped: WrappedKey) async throws(KeyError) -> DataKey {
        try check()
        return try await inner.unwrap(wrapped)
    }

    func currentWrappingKeyID() async throws(KeyError) -> String {
        try check()
        return try await inner.currentWrappingKeyID()
    }
}
