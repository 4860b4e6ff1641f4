import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Foundation
import Testing

/// Replication between sealed stores: the identity exchange names each
/// store's key id, and only stores sealed under the same key replicate.
@Suite("Replication of sealed stores")
struct SealedReplicationTests {
    static func configuration(_ sealing: EventLog.Sealing) -> EventLog.Configuration {
        var configuration = EventLog.Configuration()
        configuration.durability = .none
        configuration.sealing = sealing
        return configuration
    }

    static func events(_ count: Int) -> [LogEvent] {
        (0..<count).map { _ in .save(id: UUID(), kind: 1, payload: Array("sealed-\(UUID())".utf8)) }
    }

    @Test("two stores of one person's key converge both ways, through a keyless relay too")
    func sameKey() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectories(3) { directories in
            let a = try EventLog.open(at: directories[0], configuration: Self.configuration(.sealed([key])))
            let relay = try EventLog.open(at: directories[1], configuration: Self.configuration(.keyless(key.id)))
            let b = try EventLog.open(at: directories[2], configuration: Self.configuration(.sealed([key])))
            try await a.append(Self.events(5))
            try await b.append(Self.events(3))
            _ = try await PeerReplicator(log: relay, peer: InMemoryTransport(serving: a)).sync(.both)
            _ = try await PeerReplicator(log: b, peer: InMemoryTransport(serving: relay)).sync(.both)
            _ = try await PeerReplicator(log: relay, peer: InMemoryTransport(serving: a)).sync(.both)
            #expect(try a.versionVector() == b.versionVector())
            #expect(try a.versionVector() == relay.versionVector())
            let payloads = { (log: EventLog) in
                Set(try log.entries(after: nil, limit: 100).entries.compactMap(\.payload))
            }
            #expect(try payloads(a) == payloads(b) && (try payloads(a)).count == 8)
            #expect(try relay.entries(after: nil, limit: 100).entries.allSatisfy { !$0.isOpened })
            for log in [a, relay, b] {
                #expect(try log.verify().isIntact)
                await log.close()
            }
        }
    }

    @Test(
        "a peer sealed under another key, or not sealed, is refused at the identity exchange, both ways; nothing moves"
    )
    func otherKeys() async throws {
        try await withTemporaryDirectories(3) { directories in
            let a = try EventLog.open(
                at: directories[0],
                configuration: Self.configuration(.sealed([DataKey.generate()]))
            )
            let b = try EventLog.open(
                at: directories[1],
                configuration: Self.configuration(.sealed([DataKey.generate()]))
            )
            let plain = try EventLog.open(at: directories[2], configuration: Self.configuration(.off))
            try await a.append(Self.events(2))
            try await b.append(Self.events(2))
            try await plain.append(Self.events(2))
            for (local, remote) in [(a, b), (b, a), (a, plain), (plain, a)] {
                do {
                    _ = try await PeerReplicator(log: local, peer: InMemoryTransport(serving: remote)).sync(.both)
                    Issue.record("stores of different keys replicated")
                } catch let error as SyncError {
                    #expect(error.code == .wrongPeer && error.message.contains("data key"), "\(error)")
                }
            }
            for log in [a, b, plain] {
                #expect(log.head.seq == 2)
                await log.close()
            }
        }
    }

    @Test(
        "the store asked refuses an identity naming another key id, or none, itself: an older or hostile asker gets nothing"
    )
    func endpointRefuses() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectories(1) { directories in
            let log = try EventLog.open(at: directories[0], configuration: Self.configuration(.sealed([key])))
            try await log.append(Self.events(2))
            let endpoint = SyncEndpoint(log: log)
            var asker = PeerIdentity(storeID: StoreID(), incarnation: 1, head: 0, versionVector: [:])
            for keyID in [nil, KeyID()] as [KeyID?] {
                asker.keyID = keyID
                do {
                    _ = try endpoint.identity(answering: asker)
                    Issue.record("an identity of key \(String(describing: keyID)) was answered")
                } catch let error as SyncError {
                    #expect(error.code == .wrongPeer && error.message.contains("data key"), "\(error)")
                }
            }
            asker.keyID = key.id
            #expect(try endpoint.identity(answering: asker).keyID == key.id)
            await log.close()
        }
    }
}
