import Anchorage
import AnchorageLog
import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
import Testing

/// HTTP calls to a fleet's nodes, and the checks every fleet test ends with.
struct FleetClient: Sendable {
    let fleet: FleetTestHarness
    let http: HTTPClient

    struct Answer: Sendable {
        var status: Int
        var body: String
        var headers: HTTPHeaders

        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        }
    }

    static func with<R>(_ fleet: FleetTestHarness, _ body: (FleetClient) async throws -> R) async throws -> R {
        var configuration = HTTPClient.Configuration()
        // Guards against a node that hangs, long enough never to decide a test on a slow machine.
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(120))
        configuration.connectionPool = .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 256)
        configuration.connectionPool.retryConnectionEstablishment = false
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let client = FleetClient(fleet: fleet, http: http)
        let result = await Result { try await body(client) }
        try await http.shutdown()
        return try result.get()
    }

    /// Sends a request to node `node`; a connection failure is status 0.
    func send(
        _ method: HTTPMethod,
        _ path: String,
        to node: Int,
        token: String,
        body: String? = nil,
        headers: [(String, String)] = [],
        timeout: Duration = .seconds(120)
    ) async -> Answer {
        var request = HTTPClientRequest(url: fleet.nodes[node].url + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        do {
            let response = try await http.execute(request, timeout: .seconds(Int64(timeout.components.seconds)))
            let bytes = try await response.body.collect(upTo: 64 << 20)
            return Answer(status: Int(response.status.code), body: String(buffer: bytes), headers: response.headers)
        } catch {
            return Answer(status: 0, body: "\(error)", headers: [:])
        }
    }

    /// Creates a store through node `node` (asking again while the fleet
    /// has no controller yet) and returns an owner token for it.
    func createStore(_ id: String, via node: Int = 0) async throws -> String {
        var created: Answer?
        try await waitUntil("store \(id) is created", timeout: 120) {
            let answer = await send(.POST, "/v1/stores", to: node, token: fleet.secret, body: #"{"id":"\#(id)"}"#)
            created = answer
            return answer.status == 201 || answer.status == 200
        }
        _ = created
        // The node that answered may have forwarded the create to the
        // controller: every node's copy of the placements learns of the
        // store from etcd's watch a moment later (a node issues tokens and
        // answers for the store only then), each at its own pace on a
        // loaded machine. Tests read the placement through any node.
        for index in fleet.nodes.indices {
            try await waitUntil("node \(index) sees store \(id)", timeout: 120) {
                await placement(of: id, via: index) != nil
            }
        }
        return try await ownerToken(of: id, via: node)
    }

    /// Issues a new owner token for `store` through node `node`.
    func ownerToken(of store: String, via node: Int = 0) async throws -> String {
        let issued = await send(
            .POST,
            "/v1/stores/\(store)/tokens",
            to: node,
            token: fleet.secret,
            body: #"{"owner":true}"#
        )
        guard issued.status == 201, let secret = issued.json?["secret"] as? String else {
            throw FleetTestHarnessError(description: "cannot issue a token: \(issued.status) \(issued.body)")
        }
        return secret
    }

    /// The store's placement as node `node` sees it.
    func placement(of store: String, via node: Int) async -> (primary: String, replicas: [String], epoch: Int)? {
        let answer = await send(.GET, "/v1/stores", to: node, token: fleet.secret)
        guard let stores = answer.json?["stores"] as? [[String: Any]],
            let entry = stores.first(where: { $0["id"] as? String == store }),
            let primary = entry["primary"] as? String, let replicas = entry["replicas"] as? [String],
            let epoch = entry["epoch"] as? Int
        else { return nil }
        return (primary, replicas, epoch)
    }

    /// Saves one step sample through node `node`; the status.
    func save(
        _ uuid: UUID,
        store: String,
        token: String,
        via node: Int,
        timeout: Duration = .seconds(120)
    ) async
        -> Answer
    {
        await send(
            .POST,
            "/v1/stores/\(store)/samples",
            to: node,
            token: token,
            body: "[" + stepJSON(1, uuid: uuid) + "]",
            timeout: timeout
        )
    }

    /// The uuids of the store's step samples, read from node `node`.
    func stepUUIDs(store: String, token: String, via node: Int) async -> Set<UUID>? {
        let answer = await send(
            .GET,
            "/v1/stores/\(store)/samples?type=HKQuantityTypeIdentifierStepCount&limit=10000",
            to: node,
            token: token
        )
        guard answer.status == 200, let samples = answer.json?["samples"] as? [[String: Any]] else { return nil }
        return Set(samples.compactMap { ($0["uuid"] as? String).flatMap(UUID.init(uuidString:)) })
    }
}

/// Every copy of `store` under the fleet's node directories, once the nodes
/// are stopped: its log verifies, its projections equal a replay, and the
/// digests of all copies are equal. Returns the copies' step uuids.
func expectCopiesAgree(
    _ fleet: FleetTestHarness,
    store: String,
    on indices: [Int]? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [Set<UUID>] {
    var digests: [String] = []
    var contents: [Set<UUID>] = []
    for node in (indices ?? Array(fleet.nodes.indices)).map({ fleet.nodes[$0] }) {
        let directory = node.directory.appendingPathComponent(store)
        guard FileManager.default.fileExists(atPath: directory.path) else { continue }
        var configuration = HKHealthStore.Configuration()
        configuration.log.durability = .none
        let copy = HKHealthStore(directory: directory, configuration: configuration)
        #expect(
            try copy.eventLog().verify().isIntact,
            "audit verify: \(node.id)'s chain",
            sourceLocation: sourceLocation
        )
        #expect(
            try await copy.eventLog().checkProjections() == nil,
            "audit verify: \(node.id)'s projections",
            sourceLocation: sourceLocation
        )
        digests.append(try copy.stateDigest())
        let steps = try await HKSampleQueryDescriptor(
            predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
            sortDescriptors: []
        ).result(for: copy)
        contents.append(Set(steps.map(\.uuid)))
        await copy.close()
    }
    #expect(Set(digests).count == 1, "the copies' digests differ: \(digests)", sourceLocation: sourceLocation)
    return contents
}

/// The `anchorage` binary beside the tests.
var anchorageBinary: String {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("anchorage").path
}

extension FleetTestHarness {
    /// Runs `body`; when it throws, the error carries the end of every
    /// node's log.
    func explaining<R>(_ body: () async throws -> R) async throws -> R {
        do {
            return try await body()
        } catch {
            let logs = nodes.indices.map { "--- \(nodes[$0].id):\n\(log($0).suffix(3_000))" }.joined(separator: "\n")
            // Whole logs for a person to read: ANCHORAGE_FLEET_LOGS=DIR.
            if let keep = ProcessInfo.processInfo.environment["ANCHORAGE_FLEET_LOGS"] {
                for index in nodes.indices {
                    try? Data(log(index).utf8).write(
                        to: URL(fileURLWithPath: keep).appendingPathComponent("\(nodes[index].id).log")
                    )
                }
            }
            throw FleetTestHarnessError(description: "\(error)\n\(logs)")
        }
    }
}

/// Clients writing to a store through every node, each answer recorded:
/// what the fault tests check their histories against.
final class FleetWriters: Sendable {
    /// One acknowledged write: which copy and epoch answered, when its
    /// request was sent and when the answer came.
    ///
    /// A node decides to acknowledge after the request was sent and before
    /// its answer came, so `sent` and `at` bound that moment whatever the
    /// machine's speed: a write sent after a node's lease deadline and
    /// acknowledged by it is a fault, one merely answered late is not.
    struct Acknowledged: Sendable {
        var uuid: UUID
        var node: String
        var epoch: Int
        var sent: ContinuousClock.Instant
        var at: ContinuousClock.Instant
    }

    struct Ledger: Sendable {
        var acknowledged: [Acknowledged] = []
        /// Answers other than 201, by status (0: no answer).
        var refused: [Int: Int] = [:]
        /// When each request answered other than 201 was sent.
        var refusedSent: [ContinuousClock.Instant] = []
        /// The body of each kind of answer other than 201 and 503, once.
        var surprises: [Int: String] = [:]
    }

    let ledger = Mutex(Ledger())
    private let stopping = Atomic<Bool>(false)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts `count` clients writing one sample per request.
    init(_ client: FleetClient, store: String, token: String, count: Int, timeout: Duration = .seconds(120)) {
        let running = Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                for writer in 0..<count {
                    group.addTask {
                        var node = writer % client.fleet.nodes.count
                        while !self.stopping.load(ordering: .relaxed) {
                            let uuid = UUID()
                            let sent = ContinuousClock.now
                            let answer = await client.save(
                                uuid,
                                store: store,
                                token: token,
                                via: node,
                                timeout: timeout
                            )
                            let at = ContinuousClock.now
                            if answer.status == 201 {
                                let entry = Acknowledged(
                                    uuid: uuid,
                                    node: answer.headers.first(name: "X-Anchorage-Node") ?? "?",
                                    epoch: answer.headers.first(name: "X-Anchorage-Epoch").flatMap(Int.init) ?? -1,
                                    sent: sent,
                                    at: at
                                )
                                self.ledger.withLock { $0.acknowledged.append(entry) }
                            } else {
                                self.ledger.withLock {
                                    $0.refused[answer.status, default: 0] += 1
                                    $0.refusedSent.append(sent)
                                    if answer.status != 503 && $0.surprises[answer.status] == nil {
                                        $0.surprises[answer.status] = answer.body
                                    }
                                }
                                node = (node + 1) % client.fleet.nodes.count
                                // Paced writer: a pause before asking the next node, so a fleet
                                // without a primary is not flooded; every check reads the ledger,
                                // which records each answer whatever the pace.
                                try? await Task.sleep(for: .milliseconds(50))
                            }
                        }
                    }
                }
            }
        }
        task.withLock { $0 = running }
    }

    var count: Int { ledger.withLock { $0.acknowledged.count } }

    var acknowledged: [Acknowledged] { ledger.withLock { $0.acknowledged } }

    /// How many requests sent after `instant` were answered other than 201.
    func refused(sentAfter instant: ContinuousClock.Instant) -> Int {
        ledger.withLock { $0.refusedSent.count { $0 > instant } }
    }

    /// Stops the clients and waits for their last requests.
    func stop() async {
        stopping.store(true, ordering: .relaxed)
        await task.withLock { $0 }?.value
    }

    /// Waits until `more` writes past the current count are acknowledged.
    func waitForMore(_ more: Int, timeout: Double = 120) async throws {
        let target = count + more
        try await waitUntil("\(more) more writes are acknowledged", timeout: timeout) { self.count >= target }
    }
}

extension FleetClient {
    /// Waits until every node's copy of `store` holds `uuids` (read from
    /// each copy itself).
    func waitUntilEveryCopyHolds(
        _ uuids: Set<UUID>,
        store: String,
        token: String,
        on nodes: [Int]? = nil,
        timeout: Double = 120
    ) async throws {
        try await waitUntil("every copy holds every acknowledged write", timeout: timeout) {
            for node in nodes ?? Array(fleet.nodes.indices) {
                let held = await send(
                    .GET,
                    "/v1/stores/\(store)/samples?type=HKQuantityTypeIdentifierStepCount&limit=10000",
                    to: node,
                    token: token,
                    headers: [("X-Anchorage-Read", "replica")]
                )
                guard held.status == 200 else { return false }
                let found = Set(
                    ((held.json?["samples"] as? [[String: Any]]) ?? []).compactMap {
                        ($0["uuid"] as? String).flatMap(UUID.init(uuidString:))
                    }
                )
                if !uuids.isSubset(of: found) { return false }
            }
            return true
        }
    }
}

extension FleetClient {
    /// Waits until the copies of `store` on `nodes` (all by default) have
    /// equal state digests, as each node reports its own.
    func waitUntilCopiesConverge(_ store: String, on nodes: [Int]? = nil, timeout: Double = 120) async throws {
        try await waitUntil("the copies of \(store) converge", timeout: timeout) {
            var digests: Set<String> = []
            for node in nodes ?? Array(fleet.nodes.indices) {
                let copy = await send(.GET, "/v1/fleet/copies/\(store)", to: node, token: fleet.secret)
                guard copy.status == 200, let digest = copy.json?["digest"] as? String else { return false }
                digests.insert(digest)
            }
            return digests.count == 1
        }
    }
}

/// A change-feed consumer of a fleet's store: pages of `/changes` through
/// any node, resuming from its anchor wherever the store's primary now is.
actor FleetFeedConsumer {
    let client: FleetClient
    let store: String
    let token: String
    var anchor: String?
    var added: [UUID: Int] = [:]
    var deleted: [UUID: Int] = [:]
    var refusals = 0

    init(_ client: FleetClient, store: String, token: String) {
        self.client = client
        self.store = store
        self.token = token
    }

    /// Reads one page through `node`; returns whether it held changes.
    @discardableResult
    func page(via node: Int, limit: Int = 50) async -> Bool {
        let since = anchor.map { "&since=\($0)" } ?? ""
        let answer = await client.send(
            .GET,
            "/v1/stores/\(store)/changes?types=stepCount&limit=\(limit)\(since)",
            to: node,
            token: token
        )
        guard answer.status == 200, let json = answer.json, let next = json["newAnchor"] as? String else {
            if answer.status == 410 { refusals += 1 }
            return false
        }
        let new = ((json["added"] as? [[String: Any]]) ?? []).compactMap {
            ($0["uuid"] as? String).flatMap(UUID.init(uuidString:))
        }
        let gone = ((json["deleted"] as? [[String: Any]]) ?? []).compactMap {
            ($0["uuid"] as? String).flatMap(UUID.init(uuidString:))
        }
        for uuid in new { added[uuid, default: 0] += 1 }
        for uuid in gone { deleted[uuid, default: 0] += 1 }
        anchor = next
        return !new.isEmpty || !gone.isEmpty
    }
}
