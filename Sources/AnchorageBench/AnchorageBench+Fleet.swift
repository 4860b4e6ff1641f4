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
/// `anchorage serve --fleet` processes on loopback, lease 10 s), its primary
/// killed with -9, then frozen with SIGSTOP, then etcd's leader killed, then
/// etcd's majority lost, under 64 writing clients round after round; then a
/// node holding many stores' copies killed for good.
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

    /// Rounds of kill -9, then of SIGSTOP, of the primary under 64 writers;
    /// every copy checked at the end.
    private func killRounds(binary: String, http: FleetBenchClient, report: inout Report) async throws {
        let fleet = try await FleetTestHarness.start(binary: binary, nodes: 3, leaseTTL: 10)
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
                            let sent = ContinuousClock.now
                            let struck = shared.struck.load(ordering: .relaxed)
                            let (status, epoch) = await http.save(uuid, token: token, to: fleet.nodes[node].url)
                            let answered = ContinuousClock.now
                            // A request sent to the node struck waits for it (or the client's timeout); one
                            // sent to another node is answered or forwarded: the fleet's to bound.
                            if node != struck, shared.struck.load(ordering: .relaxed) == struck {
                                shared.longest.withLock { $0 = max($0, answered - sent) }
                            }
                            if status == 201 {
                                shared.acknowledged.withLock { $0.append((uuid, answered, epoch)) }
                            } else if status == 0 {
                                // No answer (refused, or timed out): another node.
                                node = (node + 1) % 3
                            } else {
                                // 503 with Retry-After: the node answers; ask it again shortly, as clients do.
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
        var resumed: [FleetFault: [Double]] = [:]
        for fault in FleetFault.allCases {
            for round in 0..<fleetRounds {
                let count = shared.acknowledged.withLock { $0.count }
                try await waitUntil("writes go on (\(fault.rawValue), round \(round))", timeout: 120) {
                    shared.acknowledged.withLock { $0.count } >= count + 500
                }
                guard let primary = await http.primary(of: "bench", in: fleet) else {
                    throw BenchFailure(message: "no placement for the fleet's store")
                }
                let victim = Int(primary.dropFirst())!
                let epoch = shared.acknowledged.withLock { $0.map(\.2).max() ?? 0 }
                let struck = ContinuousClock.now
                shared.struck.store(victim, ordering: .relaxed)
                switch fault {
                case .kill: fleet.kill(victim)
                case .pause: fleet.signal(victim, SIGSTOP)
                }
                // Accepted again: acknowledged by the next epoch's primary.
                try await waitUntil("writes are accepted again (\(fault.rawValue), round \(round))", timeout: 120) {
                    shared.acknowledged.withLock { $0.contains { $0.2 > epoch } }
                }
                let first = shared.acknowledged.withLock { $0.filter { $0.2 > epoch }.map(\.1).min()! }
                resumed[fault, default: []].append(Double((first - struck) / .milliseconds(1)) / 1_000)
                switch fault {
                case .kill: try await fleet.restart(victim)
                case .pause: fleet.signal(victim, SIGCONT)
                }
                shared.struck.store(-1, ordering: .relaxed)
                print(
                    "fleet \(fault.rawValue) round \(round + 1): writes again \(resumed[fault]!.last!) s after the fault"
                )
            }
        }
        let etcd = try await etcdRounds(fleet, http: http, shared: shared)
        shared.stop.store(true, ordering: .relaxed)
        await writers.value
        let uuids = Set(shared.acknowledged.withLock { $0.map(\.0) })
        do {
            try await waitUntil("the copies converge", timeout: 120) { await http.converged("bench", in: fleet) }
        } catch {
            // What each node says of its copy, for a person to read.
            for node in fleet.nodes {
                for path in ["/v1/fleet/copies/bench", "/v1/fleet/status"] {
                    let (status, body) = await http.send(.GET, node.url + path, token: fleet.secret)
                    print("\(node.id) \(path): \(status) \(body.prefix(2_000))")
                }
            }
            throw error
        }
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
        for fault in FleetFault.allCases {
            report.add(.fleetResumeMedian(fault), anchorage: [Report.median(resumed[fault] ?? []) ?? 0])
            report.add(.fleetResumeP99(fault), anchorage: [Self.percentile(resumed[fault] ?? [], 0.99)])
        }
        report.add(.fleetEtcdPrimaryChanges(rounds: fleetRounds), anchorage: [Double(etcd.primaryChanges)])
        report.add(.fleetEtcdLeaderStall, anchorage: [Self.percentile(etcd.leaderStalls, 0.99)])
        report.add(.fleetMajorityResume, anchorage: [etcd.majorityResumes.max() ?? 0])
        report.add(.fleetLongestAnswer, anchorage: [Double(shared.longest.withLock { $0 } / .milliseconds(1)) / 1_000])
        report.add(.fleetCopiesFailingAudit, anchorage: [Double(failing)])
    }

    /// What the etcd rounds measured.
    struct EtcdRounds {
        var primaryChanges = 0
        /// Per leader kill: from the kill to the first write acknowledged after it.
        var leaderStalls: [Double] = []
        /// Per majority loss: from etcd's recovery (a majority serving again)
        /// to the first write acknowledged after it.
        var majorityResumes: [Double] = []
    }

    /// Rounds of etcd's leader killed, then of etcd without a majority (2 of
    /// 3 members killed for 5, 10, 20 and 60 s in turn), under the writers:
    /// no store may change primary, and writes resume once etcd does.
    private func etcdRounds(
        _ fleet: FleetTestHarness,
        http: FleetBenchClient,
        shared: BenchWriters
    ) async throws -> EtcdRounds {
        var rounds = EtcdRounds()
        let before = await http.placement(of: "bench", in: fleet)
        for round in 0..<fleetRounds {
            var leader: Int?
            try await waitUntil("etcd has a leader (round \(round))", timeout: 120) {
                leader = await http.etcdLeader(fleet)
                return leader != nil
            }
            let killed = ContinuousClock.now
            fleet.etcd.kill(leader!)
            try await waitUntil("a write after etcd's leader was killed (round \(round))", timeout: 120) {
                shared.acknowledged.withLock { $0.last.map { $0.1 > killed } ?? false }
            }
            let first = shared.acknowledged.withLock { $0.filter { $0.1 > killed }.map(\.1).min()! }
            rounds.leaderStalls.append(Double((first - killed) / .milliseconds(1)) / 1_000)
            try await fleet.etcd.restart(leader!)
            print(
                "fleet etcd leader kill round \(round + 1): a write acknowledged \(rounds.leaderStalls.last!) s after"
            )
        }
        let outages = [5, 10, 20, 60]
        for round in 0..<fleetRounds {
            let outage = outages[round % outages.count]
            fleet.etcd.kill(1)
            fleet.etcd.kill(2)
            try await Task.sleep(for: .seconds(outage))
            try await fleet.etcd.restart(1)
            let recovered = ContinuousClock.now
            try await waitUntil("writes after etcd's majority is back (round \(round))", timeout: 120) {
                shared.acknowledged.withLock { $0.last.map { $0.1 > recovered } ?? false }
            }
            let first = shared.acknowledged.withLock { $0.filter { $0.1 > recovered }.map(\.1).min()! }
            rounds.majorityResumes.append(Double((first - recovered) / .milliseconds(1)) / 1_000)
            try await fleet.etcd.restart(2)
            print(
                "fleet etcd majority lost \(outage) s, round \(round + 1): writes \(rounds.majorityResumes.last!) s after it came back"
            )
        }
        let after = await http.placement(of: "bench", in: fleet)
        if let before, let after { rounds.primaryChanges = Int(after.epoch - before.epoch) }
        return rounds
    }

    /// A node holding copies of `fleetStores` stores killed for good: the time
    /// until no placement names it.
    private func reReplication(binary: String, http: FleetBenchClient, report: inout Report) async throws {
        let fleet = try await FleetTestHarness.start(
            binary: binary,
            nodes: 4,
            leaseTTL: 5,
            arguments: ["--replace-after", "2", "--max-open-stores", "10000"],
            zones: ["a", "a", "b", "c"]
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
        // Placed 16 at a time, the controller's counts lag; its handoffs even the primaries out meanwhile.
        var spread = (spread: Int.max, led: [String: Int]())
        try? await waitUntil("the primaries are spread", timeout: 60) {
            spread = await http.primarySpread(in: fleet, among: (0..<4).map { "n\($0)" })
            return spread.spread <= 2
        }
        print("fleet: primaries a node leads, \(fleetStores) stores on 4 nodes: \(spread)")
        report.add(.fleetPrimarySpread(stores: fleetStores, nodes: 4), anchorage: [Double(spread.spread)])
        let placed = ContinuousClock.now
        let victim = 3
        fleet.kill(victim)
        // From the first copy re-placed (the node's lease ended, then --replace-after) to the last.
        // Re-placing may begin once the node counts as lost: its lease ended (its key left etcd), then
        // --replace-after (2 s).
        var lost: ContinuousClock.Instant?
        try await waitUntil("no placement names the killed node", timeout: 1_800) {
            if lost == nil, await http.isGone("n\(victim)", in: fleet) { lost = .now + .seconds(2) }
            return await http.placementsNaming("n\(victim)", in: fleet) == 0
        }
        let done = ContinuousClock.now
        let seconds = Double((done - placed) / .milliseconds(1)) / 1_000
        let replacing = Double((done - (lost ?? placed)) / .milliseconds(1)) / 1_000
        print("fleet: \(fleetStores) stores re-placed in \(seconds) s, \(replacing) s once the node counted as lost")
        report.add(.fleetReplaced(stores: fleetStores), anchorage: [seconds])
        report.add(.fleetReplacing(stores: fleetStores), anchorage: [replacing])
        // Balanced again among the three left (the controller hands stores over as it goes).
        var after = (spread: Int.max, led: [String: Int]())
        try await waitUntil("the primaries are spread again", timeout: 120) {
            after = await http.primarySpread(in: fleet, among: (0..<3).map { "n\($0)" })
            return after.spread <= 2
        }
        print("fleet: primaries a node leads once re-placed: \(after)")
        report.add(.fleetPrimarySpreadAfterLoss(stores: fleetStores), anchorage: [Double(after.spread)])
    }
}

/// What the fleet suite's writers share.
final class BenchWriters: Sendable {
    /// Each acknowledged write: its id, when its answer came, its epoch.
    let acknowledged = Mutex<[(UUID, ContinuousClock.Instant, Int)]>([])
    /// The longest a request sent to a node not struck waited for its answer.
    let longest = Mutex<Duration>(.zero)
    /// The node struck by the round's fault (-1: none).
    let struck = Atomic<Int>(-1)
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

    func placement(of store: String, in fleet: FleetTestHarness) async -> (primary: String, epoch: Int)? {
        guard let entry = await placements(in: fleet)?.first(where: { $0["id"] as? String == store }),
            let primary = entry["primary"] as? String, let epoch = entry["epoch"] as? Int
        else { return nil }
        return (primary, epoch)
    }

    /// The index of etcd's leader, from the members' own status.
    func etcdLeader(_ fleet: FleetTestHarness) async -> Int? {
        for (index, endpoint) in fleet.etcd.endpoints.enumerated() {
            var request = HTTPClientRequest(url: endpoint + "/v3/maintenance/status")
            request.method = .POST
            request.body = .bytes(ByteBuffer(string: "{}"))
            guard let response = try? await client.execute(request, timeout: .seconds(5)),
                response.status == .ok,
                let body = try? await response.body.collect(upTo: 1 << 20),
                let status = (try? JSONSerialization.jsonObject(with: Data(String(buffer: body).utf8)))
                    as? [String: Any],
                let member = (status["header"] as? [String: Any])?["member_id"] as? String,
                member == status["leader"] as? String
            else { continue }
            return index
        }
        return nil
    }

    func primary(of store: String, in fleet: FleetTestHarness) async -> String? {
        await placements(in: fleet)?.first { $0["id"] as? String == store }?["primary"] as? String
    }

    /// How many stores each of `nodes` leads, and the most minus the fewest.
    func primarySpread(in fleet: FleetTestHarness, among nodes: [String]) async -> (spread: Int, led: [String: Int]) {
        guard let stores = await placements(in: fleet) else { return (Int.max, [:]) }
        var led = Dictionary(uniqueKeysWithValues: nodes.map { ($0, 0) })
        for entry in stores {
            if let primary = entry["primary"] as? String, led[primary] != nil { led[primary]! += 1 }
        }
        return ((led.values.max() ?? 0) - (led.values.min() ?? 0), led)
    }

    /// Whether `node` is no longer live (its key left etcd), as another node's status says.
    func isGone(_ node: String, in fleet: FleetTestHarness) async -> Bool {
        for other in fleet.nodes where other.id != node {
            let (status, body) = await send(.GET, other.url + "/v1/fleet/status", token: fleet.secret)
            guard status == 200, let json = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                let nodes = json["nodes"] as? [[String: Any]]
            else { continue }
            return !nodes.contains { $0["id"] as? String == node }
        }
        return false
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
