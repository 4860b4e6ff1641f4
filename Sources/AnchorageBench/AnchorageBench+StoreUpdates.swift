import Anchorage
import AnchorageService
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// Suite `updates`: one consumer following every store of a node through
/// `GET /v1/store-updates`, as an operator's pipeline would, while clients
/// save to a few of the stores at a steady rate (issue 55): how soon the
/// consumer hears of each save, and what the node's CPU does with many
/// quiet stores beside the busy ones.
extension AnchorageBench {
    struct StoreUpdatesRun {
        /// From a save's answer to the consumer's page naming its store, ms.
        var latencies: [Double]
        /// The node's CPU while saves ran, ms per second.
        var busyCPU: Double
        /// The node's CPU with the consumer waiting and nothing saved, ms per second.
        var quietCPU: Double
    }

    func runStoreUpdatesBenchmarks(work: URL, report: inout Report) async throws {
        let many = 100_000
        let few = 1_000
        let rate = 100
        let seconds = 20
        let fleetStores = 200
        var manyRuns: [StoreUpdatesRun] = []
        var fewRuns: [StoreUpdatesRun] = []
        for run in 1...min(runs, 3) {
            for count in [many, few] {
                progress(
                    "store updates run \(run): \(count) stores, \(rate) saves/s to \(few) of them for \(seconds) s"
                )
                let measured = try await Self.storeUpdatesFollowing(
                    root: work.appendingPathComponent("store-updates-\(count)"),
                    stores: count,
                    written: few,
                    rate: rate,
                    seconds: seconds
                )
                if count == many { manyRuns.append(measured) } else { fewRuns.append(measured) }
            }
        }
        report.add(
            .storeUpdatesTail(stores: many, rate: rate),
            anchorage: manyRuns.map { Self.percentile($0.latencies, 0.99) }
        )
        report.add(
            .storeUpdatesMedian(stores: many, rate: rate),
            anchorage: manyRuns.map { Self.percentile($0.latencies, 0.5) }
        )
        report.add(
            .storeUpdatesBusyCPU(stores: many, rate: rate, baseline: few),
            anchorage: manyRuns.map(\.busyCPU),
            baseline: fewRuns.map(\.busyCPU)
        )
        report.add(
            .storeUpdatesQuietCPU(stores: many, baseline: few),
            anchorage: manyRuns.map(\.quietCPU),
            baseline: fewRuns.map(\.quietCPU)
        )
        // The same consumer of a fleet's feed (through etcd), on one node while the saves go through all three.
        var fleetRuns: [StoreUpdatesRun] = []
        for run in 1...min(runs, 3) {
            progress(
                "store updates run \(run): a fleet of 3 nodes, \(fleetStores) stores, \(rate) saves/s for \(seconds) s"
            )
            fleetRuns.append(
                try await Self.fleetStoreUpdatesFollowing(stores: fleetStores, rate: rate, seconds: seconds)
            )
        }
        report.add(
            .fleetStoreUpdatesTail(stores: fleetStores, rate: rate),
            anchorage: fleetRuns.map { Self.percentile($0.latencies, 0.99) }
        )
        report.add(
            .fleetStoreUpdatesMedian(stores: fleetStores, rate: rate),
            anchorage: fleetRuns.map { Self.percentile($0.latencies, 0.5) }
        )
    }

    /// A node of `stores` stores (created straight in its registry), an
    /// administrator's consumer long-polling `GET /v1/store-updates`, and
    /// 8 clients saving one sample at a time to random stores among the
    /// first `written`, `rate` saves a second for `seconds`; then the
    /// consumer alone for 10 s.
    static func storeUpdatesFollowing(
        root: URL,
        stores: Int,
        written: Int,
        rate: Int,
        seconds: Int
    ) async throws -> StoreUpdatesRun {
        try? FileManager.default.removeItem(at: root)
        defer { try? FileManager.default.removeItem(at: root) }
        let names = try (0..<stores).map { try StoreName(String(format: "u%07d", $0)) }
        let (admin, tokens) = try { () throws in
            var configuration = NodeRegistry.Configuration()
            configuration.synchronous = false  // setting up; the node opens it durable
            let registry = try NodeRegistry(root: root, configuration: configuration)
            for first in stride(from: 0, to: stores, by: 1_000) {
                try registry.createStores(Array(names[first..<min(first + 1_000, stores)]))
            }
            let tokens = try names.prefix(written).map {
                try registry.issueToken(TokenGrant(store: $0, owner: true)).secret
            }
            return (try registry.issueToken(.administrator()).secret, tokens)
        }()
        let node = try ServeProcess.start(["serve", "--stores", root.path, "--port", "0"])
        defer { node.stop() }
        try await httpGet(port: node.port, path: "/healthz")
        let start = try await getJSON(port: node.port, "/v1/store-updates?since=now", token: admin)
        guard let first = start["newCursor"] as? String else { throw BenchFailure(message: "no store-updates cursor") }
        return try await Self.followWhileSaving(
            from: first,
            written: written,
            rate: rate,
            seconds: seconds,
            poll: { cursor in
                try await getJSON(port: node.port, "/v1/store-updates?since=\(cursor)&wait=2&limit=1000", token: admin)
            },
            save: { target, body in
                let store = names[target].rawValue
                try await postSample(port: node.port, store: store, token: tokens[target], body: body)
                return store
            },
            cpu: { node.cpuMilliseconds() }
        )
    }

    /// A consumer long-polling store updates with `poll` (from `first`),
    /// while 8 clients `save` one sample at a time to random stores among
    /// the first `written`, `rate` saves a second for `seconds`; then the
    /// consumer alone for 10 s. `save` answers the store it saved to.
    static func followWhileSaving(
        from first: String,
        written: Int,
        rate: Int,
        seconds: Int,
        poll: @escaping @Sendable (String) async throws -> [String: Any],
        save: @escaping @Sendable (_ target: Int, _ body: Data) async throws -> String,
        cpu: () -> Double
    ) async throws -> StoreUpdatesRun {
        // The consumer: what it heard of each store, and when.
        let shared = StoreUpdatesShared()
        let consumer = Task {
            var cursor = first
            while !shared.stop.load(ordering: .relaxed) {
                let page = try await poll(cursor)
                let now = ContinuousClock.now
                let updates = page["updates"] as? [[String: Any]] ?? []
                shared.heard.withLock { heard in
                    for update in updates {
                        if let store = update["store"] as? String { heard[store, default: []].append(now) }
                    }
                }
                cursor = page["newCursor"] as? String ?? cursor
            }
        }
        // The writers: each save's store, when it was sent and answered.
        let formatter = ISO8601DateFormatter()
        let total = rate * seconds
        let bodies: [Data] = try (0..<total).map { index in
            let day = Date(timeIntervalSince1970: 1_700_000_000 + Double(index * 60))
            return try JSONSerialization.data(withJSONObject: [
                [
                    "kind": "quantitySample", "uuid": UUID().uuidString, "type": "HKQuantityTypeIdentifierStepCount",
                    "startDate": formatter.string(from: day),
                    "endDate": formatter.string(from: day.addingTimeInterval(60)),
                    "quantity": ["value": 10 + index % 50, "unit": "count"],
                ] as [String: Any]
            ])
        }
        var generator = SystemRandomNumberGenerator()
        let targets = (0..<total).map { _ in Int.random(in: 0..<written, using: &generator) }
        let began = ContinuousClock.now
        let cpuBefore = cpu()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    while true {
                        let index = shared.next.add(1, ordering: .relaxed).oldValue
                        guard index < total else { return }
                        let due = began + .milliseconds(index * 1_000 / rate)
                        try await Task.sleep(until: due, clock: .continuous)
                        let sent = ContinuousClock.now
                        let store = try await save(targets[index], bodies[index])
                        shared.saves.withLock { $0.append((store, sent, ContinuousClock.now)) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let busy = ContinuousClock.now - began
        let cpuBusy = cpu() - cpuBefore
        // Everything heard (the last saves' updates within a few seconds).
        try await Task.sleep(for: .seconds(3))
        let quietStart = ContinuousClock.now
        let cpuQuietBefore = cpu()
        try await Task.sleep(for: .seconds(10))
        let quiet = ContinuousClock.now - quietStart
        let cpuQuiet = cpu() - cpuQuietBefore
        shared.stop.store(true, ordering: .relaxed)
        _ = try? await consumer.value
        let heardOf = shared.heard.withLock { $0 }
        var latencies: [Double] = []
        for save in shared.saves.withLock({ $0 }) {
            // The first time the consumer heard of the store after the save was sent.
            guard let time = heardOf[save.store]?.first(where: { $0 >= save.sent }) else {
                throw BenchFailure(message: "the consumer never heard of a save to \(save.store)")
            }
            latencies.append(max(0, Self.milliseconds(time - save.answered)))
        }
        return StoreUpdatesRun(
            latencies: latencies,
            busyCPU: cpuBusy / Self.seconds(busy),
            quietCPU: cpuQuiet / Self.seconds(quiet)
        )
    }

    /// What the consumer and the writers of one run share.
    final class StoreUpdatesShared: Sendable {
        /// What the consumer heard of each store, and when.
        let heard = Mutex<[String: [ContinuousClock.Instant]]>([:])
        let stop = Atomic(false)
        /// Each save's store, when it was sent and answered.
        let saves = Mutex<[(store: String, sent: ContinuousClock.Instant, answered: ContinuousClock.Instant)]>([])
        let next = Atomic(0)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }

    static func seconds(_ duration: Duration) -> Double { milliseconds(duration) / 1_000 }

    /// A GET that must answer 200, and its JSON object.
    static func getJSON(port: Int, _ path: String, token: String) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let answer = try await response.body.collect(upTo: 16 << 20)
        guard response.status == .ok else {
            throw BenchFailure(message: "GET \(path) got \(response.status): \(String(buffer: answer))")
        }
        let bytes = answer.getBytes(at: answer.readerIndex, length: answer.readableBytes) ?? []
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }

    /// One `POST /v1/stores/{store}/samples` that must be answered 201.
    static func postSample(port: Int, store: String, token: String, body: Data) async throws {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/stores/\(store)/samples")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let answer = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .created else {
            throw BenchFailure(message: "a save to \(store) got \(response.status): \(String(buffer: answer))")
        }
    }
}
