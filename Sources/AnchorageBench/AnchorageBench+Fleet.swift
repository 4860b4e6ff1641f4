import Anchorage
import AnchorageLog
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `--suite fleet`: a fleet on this machine (3 etcd members and
/// `anchorage serve --fleet` processes on loopback, lease 5 s), its primary
/// killed with -9 under 64 writing clients round after round, then a node
/// holding many stores' copies killed for good.
extension AnchorageBench {
    func runFleetBenchmarks(report: inout Report) async throws {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("anchorage").path
        let http = FleetBenchClient()
        do {
            try await killRounds(binary: binary, http: http, report: &report)
            try await reReplication(binary: binary, http: http, report: &report)
        } catch {
            try? await http.client.shutdown()
            throw error
        }
        try? await http.client.shutdown()
    }

    /// Rounds of kill -9 of the primary under 64 writers; every copy checked at the end.
    private func killRounds(binary: String, http: FleetBenchClient, report: inout Report) async throws {
        let fleet = try await FleetTestHarness.start(binary: binary, nodes: 3, leaseTTL: 5)
        defer { fleet.shutdown() }
        let token = try await http.createStore("bench", in: fleet)
        let shared = BenchWriters()
        let writers = Task {
            await withTaskGroup(of: Void.self) { group in
                for writer in 0..<64 {
                    group.addTask {
                        var node = writer % 3
                        while !shared.stop.load(ordering: .relaxed) {
                            let uuid = UUID()
                            let (status, epoch) = await http.save(uuid, token: token, to: fleet.nodes[node].url)
                            if status == 201 {
                                shared.acknowledged.withLock { $0.append((uuid, .now, epoch)) }
                            } else {
                                node = (node + 1) % 3
                                try? await Task.sleep(for: .milliseconds(100))
                            }
                        }
                    }
                }
            }
        }
        // The steady rate and latency first: 10 s with every node up.
        try await waitUntil("writes are acknowledged", timeout: 120) { shared.acknowledged.withLock { $0.count } >= 64 }
        let steadyStart = shared.acknowledged.withLock { $0.count }
        try await Task.sleep(for: .seconds(10))
        let steady = Double(shared.acknowledged.withLock { $0.count } - steadyStart) / 10
        print("fleet: \(steady) writes/s acknowledged, every node up")
        report.add(.fleetSteadyRate, anchorage: [steady])
        var resumed: [Double] = []
        for round in 0..<fleetRounds {
            let count = shared.acknowledged.withLock { $0.count }
            try await waitUntil("writes go on (round \(round))", timeout: 120) {
                shared.acknowledged.withLock { $0.count } >= count + 500
            }
            guard let primary = await http.primary(of: "bench", in: fleet) else {
                throw BenchFailure(message: "no placement for the fleet's store")
            }
            let victim = Int(primary.dropFirst())!
            let epoch = shared.acknowledged.withLock { $0.map(\.2).max() ?? 0 }
            let killed = ContinuousClock.now
            fleet.kill(victim)
            // Accepted again: acknowledged by the next epoch's primary.
            try await waitUntil("writes are accepted again (round \(round))", timeout: 120) {
                shared.acknowledged.withLock { $0.contains { $0.2 > epoch } }
            }
            let first = shared.acknowledged.withLock { $0.first { $0.2 > epoch }!.1 }
            resumed.append(Double((first - killed) / .milliseconds(1)) / 1_000)
            try await fleet.restart(victim)
            print("fleet round \(round + 1): writes again \(resumed.last!) s after the kill")
        }
        shared.stop.store(true, ordering: .relaxed)
        await writers.value
        let uuids = Set(shared.acknowledged.withLock { $0.map(\.0) })
        try await waitUntil("the copies converge", timeout: 120) { await http.converged("bench", in: fleet) }
        fleet.killAll()
        var lost = 0
        var failing = 0
        var digests: Set<String> = []
        for node in fleet.nodes {
            var configuration = HKHealthStore.Configuration()
            configuration.log.durability = .none
            let copy = HKHealthStore(
                directory: node.directory.appendingPathComponent("bench"),
                configuration: configuration
            )
            let intact = try copy.eventLog().verify().isIntact
            let disagreement = try await copy.eventLog().checkProjections()
            if !intact || disagreement != nil { failing += 1 }
            digests.insert(try copy.stateDigest())
            let held = Set(
                try await HKSampleQueryDescriptor(
                    predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                    sortDescriptors: []
                ).result(for: copy).map(\.uuid)
            )
            lost = max(lost, uuids.subtracting(held).count)
            await copy.close()
        }
        if digests.count > 1 { failing += digests.count - 1 }
        report.add(.fleetLost(rounds: fleetRounds), anchorage: [Double(lost)])
        report.add(.fleetAcknowledged, anchorage: [Double(uuids.count)])
        report.add(.fleetResumeMedian, anchorage: [Report.median(resumed) ?? 0])
        report.add(.fleetResumeP99, anchorage: [Self.percentile(resumed, 0.99)])
        report.add(.fleetCopiesFailingAudit, anchorage: [Double(failing)])
    }

    /// A node holding copies of `fleetStores` stores killed for good: the time
    /// until no placement names it.
    private func reReplication(binary: String, http: FleetBenchClient, report: inout Report) async throws {
        let fleet = try await FleetTestHarness.start(
            binary: binary,
            nodes: 4,
            leaseTTL: 5,
            arguments: ["--replace-after", "2", "--max-open-stores", "10000"]
        )
        defer { fleet.shutdown() }
        let ids = (0..<fleetStores).map { "s\($0)" }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for slice in 0..<16 {
                group.addTask {
                    for id in ids.enumerated().filter({ $0.offset % 16 == slice }).map(\.element) {
                        try await http.place(id, in: fleet)
                    }
                }
            }
            try await group.waitForAll()
        }
        let placed = ContinuousClock.now
        let victim = 3
        fleet.kill(victim)
        try await waitUntil("no placement names the killed node", timeout: 1_800) {
            await http.placementsNaming("n\(victim)", in: fleet) == 0
        }
        let seconds = Double((ContinuousClock.now - placed) / .milliseconds(1)) / 1_000
        print("fleet: \(fleetStores) stores re-placed in \(seconds) s")
        report.add(.fleetReplaced(stores: fleetStores), anchorage: [seconds])
    }
}

/// What the fleet suite's writers share.
final class BenchWriters: Sendable {
    let acknowledged = Mutex<[(UUID, ContinuousClock.Instant, Int)]>([])
    let stop = Atomic<Bool>(false)
}

/// The HTTP calls the fleet suite makes.
final class FleetBenchClient: Sendable {
    let client: HTTPClient

    init() {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(2), read: .seconds(20))
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 128)
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func send(_ method: HTTPMethod, _ url: String, token: String, body: String? = nil) async -> (Int, String) {
        let (status, text, _) = await exchange(method, url, token: token, body: body)
        return (status, text)
    }

    func exchange(
        _ method: HTTPMethod,
        _ url: String,
        token: String,
        body: String? = nil
    ) async -> (Int, String, HTTPHeaders) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        do {
            let response = try await client.execute(request, timeout: .seconds(20))
            let bytes = try await response.body.collect(upTo: 16 << 20)
            return (Int(response.status.code), String(buffer: bytes), response.headers)
        } catch {
            return (0, "\(error)", [:])
        }
    }

    func place(_ id: String, in fleet: FleetTestHarness) async throws {
        try await waitUntil("store \(id) placed", timeout: 120) {
            let (status, _) = await self.send(
                .POST,
                fleet.nodes[0].url + "/v1/stores",
                token: fleet.secret,
                body: #"{"id":"\#(id)"}"#
            )
            return status == 201 || status == 200
        }
    }

    func createStore(_ id: String, in fleet: FleetTestHarness) async throws -> String {
        try await place(id, in: fleet)
        let (status, body) = await send(
            .POST,
            fleet.nodes[0].url + "/v1/stores/\(id)/tokens",
            token: fleet.secret,
            body: #"{"owner":true}"#
        )
        guard status == 201,
            let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            let secret = json["secret"] as? String
        else { throw BenchFailure(message: "cannot issue a token: \(status) \(body)") }
        return secret
    }

    /// The answer's status, and the epoch of the copy that acknowledged it.
    func save(_ uuid: UUID, token: String, to node: String) async -> (status: Int, epoch: Int) {
        let sample = """
            [{"kind":"quantitySample","uuid":"\(uuid.uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
            "startDate":"2024-06-01T08:00:00Z","endDate":"2024-06-01T08:10:00Z","quantity":{"unit":"count","value":1}}]
            """
        let (status, _, headers) = await exchange(.POST, node + "/v1/stores/bench/samples", token: token, body: sample)
        return (status, headers.first(name: "X-Anchorage-Epoch").flatMap(Int.init) ?? 0)
    }

    private func placements(in fleet: FleetTestHarness) async -> [[String: Any]]? {
        for node in fleet.nodes {
            let (status, body) = await send(.GET, node.url + "/v1/stores", token: fleet.secret)
            if status == 200, let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] {
                return json["stores"] as? [[String: Any]]
            }
        }
        return nil
    }

    func primary(of store: String, in fleet: FleetTestHarness) async -> String? {
        await placements(in: fleet)?.first { $0["id"] as? String == store }?["primary"] as? String
    }

    func placementsNaming(_ node: String, in fleet: FleetTestHarness) async -> Int {
        guard let stores = await placements(in: fleet) else { return Int.max }
        return stores.filter { entry in
            let names =
                [entry["primary"] as? String] + ((entry["replicas"] as? [String]) ?? []).map(Optional.some)
                + ((entry["joining"] as? [String]) ?? []).map(Optional.some)
            return names.contains(node)
        }.count
    }

    func converged(_ store: String, in fleet: FleetTestHarness) async -> Bool {
        var digests: Set<String> = []
        for node in fleet.nodes {
            let (status, body) = await send(.GET, node.url + "/v1/fleet/copies/\(store)", token: fleet.secret)
            guard status == 200, let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                let digest = json["digest"] as? String
            else { return false }
            digests.insert(digest)
        }
        return digests.count == 1
    }
}
