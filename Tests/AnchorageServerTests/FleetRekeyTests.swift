import AnchorageFleet
import AnchorageKeys
import AnchorageLog
import AnchorageService
import AnchorageTestRun
import AnchorageTesting
import Etcd
import Foundation
import NIOHTTP1
import Testing

/// `POST /v1/stores/{store}/rekey` on a sealed fleet: every copy, on
/// every node, re-sealed under a new version of the store's data key, the
/// old version destroyed in etcd and in every registry once all have.
@Suite("Fleet: re-sealing every copy under a new key version", .serialized, .startsProcesses(weight: 2))
struct FleetRekeyTests {
    @Test(
        "a rekey through one node re-seals all three copies under version 2, destroys version 1 everywhere, and the store goes on taking writes that every copy holds"
    )
    func rekeysEveryCopy() async throws {
        let keyFile = try await Self.wrappingKeyFile("fleet-rekey")
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let fleet = try await FleetTestHarness.start(
            binary: anchorageBinary,
            arguments: ["--seal", "--key-file", keyFile.path]
        )
        defer { fleet.shutdown() }
        let keys = FleetKeys()
        let keyID = try await FleetClient.with(fleet) { client -> KeyID in
            let token = try await client.createStore("sage")
            let etcd = try EtcdClient(.init(endpoints: fleet.etcd.endpoints))
            let outcome = await Result { () async throws -> KeyID in
                let record = try #require(try await PlacementStore(etcd: etcd, keys: keys).placement(of: "sage"))
                let keyID = try #require(record.placement.keyID.flatMap(KeyID.init))
                try await Self.save(0..<20, client: client, token: token)
                try await fleet.explaining { try await client.waitUntilCopiesConverge("sage") }

                // Not a sealed store's, or no such store: refused, nothing asked.
                let missing = await client.send(.POST, "/v1/stores/nobody/rekey", to: 0, token: fleet.secret)
                #expect(missing.status == 404, "\(missing.body)")
                let owner = await client.send(.POST, "/v1/stores/sage/rekey", to: 0, token: token)
                #expect(owner.status == 401 || owner.status == 403, "a store token cannot rekey: \(owner.status)")

                let asked = await client.send(.POST, "/v1/stores/sage/rekey", to: 1, token: fleet.secret)
                #expect(asked.status == 202, "\(asked.status) \(asked.body)")
                #expect(asked.json?["version"] as? Int == 2, "\(asked.body)")
                #expect(asked.json?["stores"] as? [String] == ["sage"], "\(asked.body)")
                // Every node re-seals its copy and reports; the last report
                // leaves version 2 alone in etcd.
                try await fleet.explaining {
                    try await waitUntil("version 1 of the key is destroyed in etcd", timeout: 90) {
                        let stored = try await etcd.range(.key(keys.dataKey(keyID.description))).kvs.first
                        let wrapped = try stored.map {
                            try JSONDecoder().decode([WrappedKey].self, from: Data($0.value))
                        }
                        return wrapped?.map(\.version) == [2]
                    }
                }
                let reports = try await etcd.range(.prefix(keys.rekey(keyID.description) + "/")).kvs
                #expect(reports.count == 3 && reports.allSatisfy { $0.value == Array("2".utf8) })
                // Writes go on, sealed under version 2, and reach every copy.
                try await Self.save(20..<30, client: client, token: token)
                try await fleet.explaining { try await client.waitUntilCopiesConverge("sage") }
                await Self.expectEveryNodeReads(30, client: client, token: token)
                return keyID
            }
            await etcd.shutdown()
            return try outcome.get()
        }
        fleet.killAll()
        // On disk: every copy's entries sealed under version 2 only, intact
        // without the key; every registry keeps version 2 alone.
        var copies = 0
        for node in fleet.nodes {
            let registry = try NodeRegistry(root: node.directory)
            #expect(try registry.wrappedKeys(keyID).map(\.version) == [2], "\(node.id)'s registry")
            let copy = node.directory.appendingPathComponent("sage")
            guard FileManager.default.fileExists(atPath: copy.appendingPathComponent("data.mdb").path) else { continue }
            copies += 1
            #expect(try EventLog.verify(at: copy, sealing: .keyless(keyID)).isIntact, "\(node.id)'s copy")
            let log = try EventLog.openForReading(
                at: copy,
                configuration: { () -> EventLog.Configuration in
                    var configuration = EventLog.Configuration()
                    configuration.sealing = .keyless(keyID)
                    return configuration
                }()
            )
            let page = try log.entries(after: nil, limit: 10_000)
            let versions = Set(page.entries.compactMap { $0.envelope.map { UInt16($0[2]) << 8 | UInt16($0[3]) } })
            #expect(versions == [2], "\(node.id)'s copy holds envelopes of versions \(versions)")
            await log.close()
        }
        #expect(copies == 3)
    }

    @Test(
        "a store placed before the fleet sealed is sealed on every copy by one request: no marker left in any file, every copy verifies without the key, writes go on"
    )
    func sealsAPlacedStore() async throws {
        let keyFile = try await Self.wrappingKeyFile("fleet-seal")
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let fleet = try await FleetTestHarness.start(binary: anchorageBinary, nodes: 3, leaseTTL: 3)
        defer { fleet.shutdown() }
        let marker = "placedmark\(UInt32.random(in: 0...UInt32.max))"
        let keys = FleetKeys()
        let keyID = try await FleetClient.with(fleet) { client -> KeyID in
            let token = try await client.createStore("sage")
            try await Self.save(0..<15, client: client, token: token, marker: marker)
            try await fleet.explaining { try await client.waitUntilCopiesConverge("sage") }
            // A fleet that does not seal says so.
            let refused = await client.send(.POST, "/v1/stores/sage/seal", to: 0, token: fleet.secret)
            #expect(refused.status == 400, "\(refused.status) \(refused.body)")
            // Every node started again with the fleet's wrapping key, one at a time.
            for node in fleet.nodes.indices {
                _ = await fleet.stop(node)
                try await fleet.restart(node, adding: ["--seal", "--key-file", keyFile.path])
            }
            let etcd = try EtcdClient(.init(endpoints: fleet.etcd.endpoints))
            let outcome = await Result { () async throws -> KeyID in
                let asked = try await Self.administer("/v1/stores/sage/seal", through: 1, client: client)
                #expect(asked.status == 202, "\(asked.status) \(asked.body)")
                let text = try #require(asked.json?["keyID"] as? String)
                let keyID = try #require(KeyID(text))
                try await fleet.explaining {
                    try await waitUntil("every node sealed its copy", timeout: 90) {
                        let reports = try await etcd.range(.prefix(keys.rekey(keyID.description) + "/")).kvs
                        return reports.count == 3 && reports.allSatisfy { $0.value == Array("1".utf8) }
                    }
                }
                let again = await client.send(.POST, "/v1/stores/sage/seal", to: 2, token: fleet.secret)
                #expect(again.status == 409, "sealed twice: \(again.status) \(again.body)")
                try await Self.save(15..<20, client: client, token: token, marker: marker)
                try await fleet.explaining { try await client.waitUntilCopiesConverge("sage") }
                await Self.expectEveryNodeReads(20, client: client, token: token)
                return keyID
            }
            await etcd.shutdown()
            return try outcome.get()
        }
        fleet.killAll()
        let copies = try FleetSealingStoreFiles.checkCopies(of: "sage", in: fleet, sealedUnder: keyID, marker: marker)
        #expect(copies.count == 3)
    }

    @Test(
        "a node down during a rekey keeps the old version alive: destroyed only once it is back and has re-sealed its copy"
    )
    func waitsForANodeThatIsDown() async throws {
        let keyFile = try await Self.wrappingKeyFile("fleet-rekey-down")
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let fleet = try await FleetTestHarness.start(
            binary: anchorageBinary,
            arguments: ["--seal", "--key-file", keyFile.path]
        )
        defer { fleet.shutdown() }
        let keys = FleetKeys()
        try await FleetClient.with(fleet) { client in
            let token = try await client.createStore("sage")
            try await Self.save(0..<10, client: client, token: token)
            try await fleet.explaining { try await client.waitUntilCopiesConverge("sage") }
            let etcd = try EtcdClient(.init(endpoints: fleet.etcd.endpoints))
            let outcome = await Result { () async throws in
                let record = try #require(try await PlacementStore(etcd: etcd, keys: keys).placement(of: "sage"))
                let keyID = try #require(record.placement.keyID.flatMap(KeyID.init))
                let versions = { () async throws -> [UInt16] in
                    let stored = try await etcd.range(.key(keys.dataKey(keyID.description))).kvs.first
                    return try stored.map { try JSONDecoder().decode([WrappedKey].self, from: Data($0.value)) }?
                        .map(\.version) ?? []
                }
                let reports = { () async throws -> [String] in
                    try await etcd.range(.prefix(keys.rekey(keyID.description) + "/")).kvs.compactMap {
                        keys.id(in: $0.keyText, under: keys.rekey(keyID.description) + "/")
                    }.sorted()
                }
                _ = await fleet.stop(2)
                let asked = try await Self.administer("/v1/stores/sage/rekey", through: 0, client: client)
                #expect(asked.status == 202, "\(asked.status) \(asked.body)")
                try await fleet.explaining {
                    try await waitUntil("the two live nodes re-seal their copies", timeout: 90) {
                        try await reports() == ["n0", "n1"]
                    }
                }
                // n2's copy still holds version 1: the version stays, and no
                // other re-sealing begins before this one ends.
                #expect(try await versions() == [1, 2])
                let second = try await Self.administer("/v1/stores/sage/rekey", through: 1, client: client)
                #expect(second.status == 409 && second.body.contains("being re-sealed"), "\(second.body)")
                #expect(try await versions() == [1, 2])
                try await fleet.restart(2)
                try await fleet.explaining {
                    try await waitUntil("n2 re-seals its copy, and version 1 goes", timeout: 90) {
                        try await versions() == [2]
                    }
                }
                #expect(try await reports() == ["n0", "n1", "n2"])
                try await fleet.explaining { try await client.waitUntilCopiesConverge("sage") }
            }
            await etcd.shutdown()
            try outcome.get()
        }
    }

    /// A key file with one wrapping key, made before the nodes start: the
    /// fleet's, given to every node.
    static func wrappingKeyFile(_ prefix: String) async throws -> URL {
        let keyFile = temporaryPath(prefix: prefix).appendingPathExtension("keys")
        _ = try await KeyFileProvider(url: keyFile).currentWrappingKeyID()
        return keyFile
    }

    /// Sends an administrator's `POST path` through node `node`, asking
    /// again while the fleet answers 503 (a controller being chosen, a
    /// primary beginning its epoch); returns the first other answer.
    static func administer(_ path: String, through node: Int, client: FleetClient) async throws -> FleetClient.Answer {
        try await client.fleet.explaining {
            var answer = await client.send(.POST, path, to: node, token: client.fleet.secret)
            try await waitUntil("POST \(path) is taken", timeout: 60) {
                if answer.status == 503 {
                    answer = await client.send(.POST, path, to: node, token: client.fleet.secret)
                }
                return answer.status != 503
            }
            return answer
        }
    }

    /// Expects every node to read `count` step counts of the store from its own copy.
    static func expectEveryNodeReads(_ count: Int, client: FleetClient, token: String) async {
        for node in client.fleet.nodes.indices {
            let read = await client.send(
                .GET,
                "/v1/stores/sage/samples?type=HKQuantityTypeIdentifierStepCount&limit=100",
                to: node,
                token: token,
                headers: [("X-Anchorage-Read", "replica")]
            )
            #expect(read.status == 200, "\(read.body.prefix(300))")
            #expect((read.json?["samples"] as? [Any])?.count == count, "node \(node)")
        }
    }

    /// Saves step counts `indices` through the nodes in turn, asking again
    /// while a copy is closed for its re-sealing or a primary begins its
    /// epoch (503).
    static func save(_ indices: Range<Int>, client: FleetClient, token: String, marker: String = "rekey") async throws {
        for index in indices {
            let body = "[" + FleetSealingTests.sample(index, marker: marker) + "]"
            try await client.fleet.explaining {
                try await waitUntil("sample \(index) is saved", timeout: 60) {
                    let answer = await client.send(
                        .POST,
                        "/v1/stores/sage/samples",
                        to: index % 3,
                        token: token,
                        body: body
                    )
                    #expect([200, 201, 503].contains(answer.status), "\(answer.status) \(answer.body.prefix(300))")
                    return answer.status < 300
                }
            }
        }
    }
}
