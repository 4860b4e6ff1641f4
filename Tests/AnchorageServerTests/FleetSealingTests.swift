import Anchorage
import AnchorageFleet
import AnchorageKeys
import AnchorageLog
import AnchorageService
import AnchorageTestRun
import AnchorageTesting
import Crypto
import Etcd
import Foundation
import NIOHTTP1
import Testing

/// A fleet that seals: three nodes given the same wrapping key; a store's
/// placement names its data key's id, the first copy to open makes the
/// key and publishes it wrapped, and every copy seals under it. Shredding
/// it through one node erases the store on every node.
@Suite("Fleet: sealed copies, one key, shredded everywhere", .serialized, .startsProcesses(weight: 2))
struct FleetSealingTests {
    static func sample(_ index: Int, marker: String, uuid: UUID = UUID()) -> String {
        """
        {"kind":"quantitySample","uuid":"\(uuid.uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
        "startDate":"2024-06-01T08:\(String(format: "%02d", index % 60)):00Z",\
        "endDate":"2024-06-01T08:\(String(format: "%02d", index % 60)):30Z",\
        "quantity":{"unit":"count","value":\(1_000 + index)},"metadata":{"note":{"string":"\(marker)"}},\
        "sourceRevision":{"source":{"name":"\(marker) watch","bundleIdentifier":"org.\(marker).watch"}}}
        """
    }

    @Test(
        "every copy seals under the key its placement names; etcd holds the key wrapped only; no marker in any file of any node; shredded through one node, every node answers 410 and every copy verifies without the key"
    )
    func sealedFleet() async throws {
        let keyFile = temporaryPath(prefix: "fleet-wrapping").appendingPathExtension("keys")
        defer { try? FileManager.default.removeItem(at: keyFile) }
        // One wrapping key for the whole fleet, made before the nodes start.
        let provider = try KeyFileProvider(url: keyFile)
        _ = try await provider.currentWrappingKeyID()
        let fleet = try await FleetTestHarness.start(
            binary: anchorageBinary,
            nodes: 3,
            leaseTTL: 3,
            arguments: ["--seal", "--key-file", keyFile.path]
        )
        defer { fleet.shutdown() }
        let marker = "fleetmark\(UInt32.random(in: 0...UInt32.max))"
        let placed = try await FleetClient.with(fleet) { client -> KeyID in
            let token = try await client.createStore("sage")
            // The placement names a key id; etcd holds the key wrapped.
            let etcd = try EtcdClient(.init(endpoints: fleet.etcd.endpoints))
            let outcome = await Result {
                try await Self.check(client, etcd: etcd, provider: provider, token: token, marker: marker)
            }
            await etcd.shutdown()
            return try outcome.get()
        }
        fleet.killAll()
        // Every file of every node — copies and registries — without the
        // marker; every copy verifies without the key (a keyless audit).
        let copies = try FleetSealingStoreFiles.checkCopies(of: "sage", in: fleet, sealedUnder: placed, marker: marker)
        #expect(copies.count == 3)
        for report in copies { #expect(report.head >= 30) }
    }

    /// Writes through every node, checks the key's id and record in etcd,
    /// then shreds through one node and waits for every node to refuse.
    static func check(
        _ client: FleetClient,
        etcd: EtcdClient,
        provider: KeyFileProvider,
        token: String,
        marker: String
    ) async throws -> KeyID {
        let fleet = client.fleet
        let keys = FleetKeys()
        let record = try #require(try await PlacementStore(etcd: etcd, keys: keys).placement(of: "sage"))
        let keyID = try #require(record.placement.keyID.flatMap(KeyID.init))
        // Step counts, then one sample of every kind, each carrying the
        // marker in its source, device and metadata.
        var bodies = (0..<30).map { "[" + Self.sample($0, marker: marker) + "]" }
        var generator = ObjectGenerator(seed: 54, marker: marker)
        let kinds: [HKSample] = [
            generator.categorySample(), generator.correlation(), generator.workout(),
            generator.route(locations: 1...20),
            generator.heartbeatSeries(beats: 1...20), generator.electrocardiogram(measurements: 1...50),
            generator.audiogram(), generator.stateOfMind(), generator.assessment(), generator.visionPrescription(),
            generator.quantitySeries(), generator.clinicalRecord(), generator.medicationDoseEvent(),
        ]
        let encoder = CanonicalJSON.encoder()
        bodies += try kinds.map { String(decoding: try encoder.encode([HealthObject($0)]), as: UTF8.self) }
        var saved = 0
        for (index, body) in bodies.enumerated() {
            // Through every node; asked again while the primary begins
            // its epoch (503 fleetUnavailable).
            try await fleet.explaining {
                try await waitUntil("object \(index) is saved", timeout: 60) {
                    let answer = await client.send(
                        .POST,
                        "/v1/stores/sage/samples",
                        to: index % 3,
                        token: token,
                        body: body
                    )
                    #expect(answer.status < 300 || answer.status == 503, "\(answer.status) \(answer.body.prefix(300))")
                    if answer.status < 300 { saved += 1 }
                    return answer.status != 503
                }
            }
        }
        #expect(saved == bodies.count, "every kind saved")
        let stored = try #require(try await etcd.range(.key(keys.dataKey(keyID.description))).kvs.first)
        let wrapped = try JSONDecoder().decode([WrappedKey].self, from: Data(stored.value))
        #expect(wrapped.map(\.version) == [1])
        let dataKey = try await provider.unwrap(wrapped[0])
        let material = dataKey.material.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in Array(bytes) }
        #expect(!FleetSealingStoreFiles.contains(stored.value, material), "etcd holds the data key in clear")
        try await fleet.explaining { try await client.waitUntilCopiesConverge("sage") }
        for node in fleet.nodes.indices {
            let status = await client.send(.GET, "/v1/fleet/copies/sage", to: node, token: fleet.secret)
            #expect(status.status == 200, "\(status.body)")
        }

        // Shredded through one node: every node's copy answers 410.
        let shred = await client.send(.POST, "/v1/stores/sage/shred", to: 1, token: fleet.secret)
        #expect(shred.status == 200, "\(shred.status) \(shred.body)")
        try await fleet.explaining {
            for node in fleet.nodes.indices {
                try await waitUntil("node \(node) answers keyShredded", timeout: 60) {
                    let read = await client.send(
                        .GET,
                        "/v1/stores/sage/samples?type=HKQuantityTypeIdentifierStepCount",
                        to: node,
                        token: token,
                        headers: [("X-Anchorage-Read", "replica")]
                    )
                    return read.status == 410 && read.body.contains("keyShredded")
                }
            }
        }
        #expect(try await etcd.range(.key(keys.dataKey(keyID.description))).kvs.isEmpty)
        #expect(try await !etcd.range(.key(keys.shredded(keyID.description))).kvs.isEmpty)
        return keyID
    }
}

/// File scans for the sealing tests.
enum FleetSealingStoreFiles {
    /// Expects no file of any node (copies and registries) to hold
    /// `marker`, and every copy of `store` to be sealed under `keyID` and
    /// to verify without it (a keyless audit); returns each copy's report.
    static func checkCopies(
        of store: String,
        in fleet: FleetTestHarness,
        sealedUnder keyID: KeyID,
        marker: String
    ) throws -> [EventLog.VerificationReport] {
        var reports: [EventLog.VerificationReport] = []
        for node in fleet.nodes {
            for file in files(under: node.directory) {
                #expect(
                    !contains(Array(try Data(contentsOf: file)), Array(marker.utf8)),
                    "\(file.path) holds the marker"
                )
            }
            let copy = node.directory.appendingPathComponent(store)
            guard FileManager.default.fileExists(atPath: copy.appendingPathComponent("data.mdb").path) else { continue }
            #expect(try EventLog.sealingKeyID(at: copy) == keyID, "\(node.id)'s copy")
            let report = try EventLog.verify(at: copy, sealing: .keyless(keyID))
            #expect(report.isIntact, "audit verify without the key: \(node.id)")
            reports.append(report)
        }
        return reports
    }

    /// Every regular file under `directory`, recursively.
    static func files(under directory: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            haystack[start] == first && haystack[start..<start + needle.count].elementsEqual(needle)
        }
    }
}
