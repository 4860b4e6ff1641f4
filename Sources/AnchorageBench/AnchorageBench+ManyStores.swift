import Anchorage
import AnchorageServer
import AnchorageService
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Suite `stores`: many stores in one node (issue 33).
extension AnchorageBench {
    /// Creates `--stores-count` stores in a registry and fills each with a
    /// few samples; then, on fresh `anchorage serve --stores` processes,
    /// the node's memory and descriptors with no store open and with 1,000
    /// open, and the latency of a request to a cold store; then 64 clients
    /// saving, each on its own store, beside the same clients on one store.
    func runManyStoresBenchmarks(work: URL, report: inout Report) async throws {
        let root = work.appendingPathComponent("many-stores")
        defer { try? FileManager.default.removeItem(at: root) }
        let names = try (0..<storesCount).map { try StoreName(String(format: "s%07d", $0)) }
        let opened = min(1_000, storesCount)
        let filling = 3

        progress("stores: creating \(storesCount) stores in the registry, 1,000 to a createStores call")
        let oneByOne = try { () throws in
            let baseline = work.appendingPathComponent("many-stores-one-by-one")
            defer { try? FileManager.default.removeItem(at: baseline) }
            return try Self.manyStoresCreateOneByOne(Array(names.prefix(2_000)), in: try NodeRegistry(root: baseline))
        }()
        let (tokens, created) = try { () throws in
            let registry = try NodeRegistry(root: root)
            let created = try Self.manyStoresCreate(names, in: registry)
            let tokens = try names.prefix(opened).map { name in
                try registry.issueToken(TokenGrant(store: name, owner: true)).secret
            }
            return (tokens, created)
        }()
        progress("stores: \(Report.format(created)) stores/s; filling each with \(filling) step samples")
        let filled = try await Self.manyStoresFill(names, root: root, samples: filling, concurrently: 4)
        report.add(.storesCreate(count: storesCount), anchorage: [created], baseline: [oneByOne])
        report.add(.storesFill(count: storesCount, samples: filling), anchorage: [filled])
        report.add(.storesCreateAndFill(count: storesCount), anchorage: [1 / (1 / created + 1 / filled)])

        let served = try await eachRun(atMost: 3) { run in
            progress("stores run \(run): an anchorage serve --stores process, one GET to each of \(opened) stores")
            return try await Self.manyStoresServe(root: root, stores: Array(zip(names, tokens)))
        }
        report.add(.storesIdleMemory, anchorage: served.map(\.idleResident))
        report.add(.storesIdleDescriptors, anchorage: served.map(\.idleDescriptors))
        report.add(.storesOpenMemory(open: opened), anchorage: served.map(\.openResident))
        report.add(.storesOpenAnonymousMemory(open: opened), anchorage: served.map(\.openAnonymous))
        report.add(.storesOpenDescriptors(open: opened), anchorage: served.map(\.openDescriptors))
        report.add(.storesIdleThreads, anchorage: served.map(\.idleThreads))
        report.add(.storesOpenThreads(open: opened), anchorage: served.map(\.openThreads))
        report.add(.storesColdMedian(count: opened), anchorage: served.map(\.coldMedian))
        report.add(.storesColdTail(count: opened), anchorage: served.map(\.coldTail))

        let overHTTP = 2_000
        let rounds = try await storesOverHTTP(work: work, count: overHTTP, rounds: 2)
        for (index, round) in rounds.enumerated() {
            report.add(.storesHTTPFirstWrite(round: index + 1, count: overHTTP), anchorage: [round.firstWriteMedian])
            report.add(.storesHTTPFirstWriteTail(round: index + 1, count: overHTTP), anchorage: [round.firstWriteTail])
            report.add(.storesHTTPOpenMemory(round: index + 1, count: overHTTP), anchorage: [round.openResident])
            report.add(.storesHTTPOpenAnonymous(round: index + 1, count: overHTTP), anchorage: [round.openAnonymous])
            report.add(.storesHTTPIdleMemory(round: index + 1, count: overHTTP), anchorage: [round.idleResident])
            report.add(.storesHTTPIdleAnonymous(round: index + 1, count: overHTTP), anchorage: [round.idleAnonymous])
            report.add(.storesHTTPColdReads(round: index + 1), anchorage: [round.coldReadTail])
        }

        let clients = 64
        let requestsPerClient = max(1, min(samples, 1_000_000) / clients / 10 / 4)
        let saves = try await eachRun(atMost: 3) { run in
            progress(
                "stores saves run \(run)/\(min(runs, 3)): \(clients) clients × \(requestsPerClient) posts of 10, one store"
            )
            let single = try await Self.singleStoreSaves(
                at: work.appendingPathComponent("stores-single-\(run)"),
                clients: clients,
                requests: requestsPerClient
            )
            progress("stores saves run \(run)/\(min(runs, 3)): the same, each client on its own store")
            let many = try await Self.manyStoreSaves(
                at: work.appendingPathComponent("stores-many-\(run)"),
                clients: clients,
                requests: requestsPerClient
            )
            return (single: single, many: many)
        }
        report.add(
            .storesSaves(clients: clients),
            anchorage: saves.map(\.many.rate),
            baseline: saves.map(\.single.rate)
        )
        report.add(.storesSaveLatency, anchorage: saves.map(\.many.tail), baseline: saves.map(\.single.tail))
    }

    /// Creates `names` 1,000 to a `createStores` call, as `anchorage stores
    /// create` does with the ids it is given; stores per second.
    static func manyStoresCreate(_ names: [StoreName], in registry: NodeRegistry) throws -> Double {
        let start = ContinuousClock.now
        var index = 0
        while index < names.count {
            let end = min(index + 1_000, names.count)
            try registry.createStores(Array(names[index..<end]))
            index = end
        }
        return Double(names.count) / (ContinuousClock.now - start).seconds
    }

    /// Creates `names` one `createStore` each: a durable commit and a
    /// directory fsync each; stores per second.
    static func manyStoresCreateOneByOne(_ names: [StoreName], in registry: NodeRegistry) throws -> Double {
        let start = ContinuousClock.now
        for name in names { try registry.createStore(name) }
        return Double(names.count) / (ContinuousClock.now - start).seconds
    }

    /// Opens each store's `HKHealthStore` in this process (`concurrently`
    /// at a time), saves `samples` step samples durably and closes it;
    /// stores per second.
    static func manyStoresFill(_ names: [StoreName], root: URL, samples: Int, concurrently: Int) async throws -> Double
    {
        let registry = root.standardizedFileURL
        let (seconds, _) = try await timed {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (position, name) in names.enumerated() {
                    if position >= concurrently { _ = try await group.next() }
                    group.addTask {
                        let store = HKHealthStore(directory: registry.appending(path: name.rawValue))
                        do {
                            try await store.save(StoreBenchmarks.makeSamples(samples, first: position * samples))
                        } catch {
                            await store.close()
                            throw error
                        }
                        await store.close()
                    }
                }
                try await group.waitForAll()
            }
        }
        return Double(names.count) / seconds
    }

    struct ServedStores {
        var idleResident: Double
        var idleDescriptors: Double
        var openResident: Double
        var openAnonymous: Double
        var openDescriptors: Double
        var idleThreads: Double
        var openThreads: Double
        var coldMedian: Double
        var coldTail: Double
    }

    /// Starts `anchorage serve --stores root` (1,000 stores open at most,
    /// none closing while measured), reads its memory and descriptors,
    /// sends one GET to each of `stores` one at a time (each opens its
    /// store), and reads them again.
    static func manyStoresServe(root: URL, stores: [(StoreName, String)]) async throws -> ServedStores {
        let node = try ServeProcess.start(
            ["serve", "--stores", root.path, "--port", "0", "--max-open-stores", "1000", "--store-idle", "3600"]
        )
        defer { node.stop() }
        try await httpGet(port: node.port, path: "/healthz")
        try await Task.sleep(for: .seconds(1))
        let idleResident = Double(ProcessMemory.statusBytes("VmRSS:", process: node.pid)) / 1e6
        let idleDescriptors = Double(node.descriptors())
        let idleThreads = Double(node.threads())
        var latencies: [Double] = []
        for (name, token) in stores {
            let (seconds, _) = try await timed {
                try await httpGet(
                    port: node.port,
                    path: "/v1/stores/\(name)/samples?type=stepCount&limit=10",
                    token: token
                )
            }
            latencies.append(seconds * 1_000)
        }
        let openResident = Double(ProcessMemory.statusBytes("VmRSS:", process: node.pid)) / 1e6
        let openAnonymous = Double(ProcessMemory.statusBytes("RssAnon:", process: node.pid)) / 1e6
        let openDescriptors = Double(node.descriptors())
        // Past the writers' idle time (2 s): an open store nobody writes holds no thread.
        try await Task.sleep(for: .seconds(3))
        return ServedStores(
            idleResident: idleResident,
            idleDescriptors: idleDescriptors,
            openResident: openResident,
            openAnonymous: openAnonymous,
            openDescriptors: openDescriptors,
            idleThreads: idleThreads,
            openThreads: Double(node.threads()),
            coldMedian: percentile(latencies, 0.5),
            coldTail: percentile(latencies, 0.99)
        )
    }

    /// A GET that must answer 200; its body is read to the end.
    static func httpGet(port: Int, path: String, token: String? = nil) async throws {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        guard response.status == .ok else {
            throw BenchFailure(message: "GET \(path) got \(response.status): \(String(buffer: body))")
        }
    }

    struct SaveLoad {
        var rate: Double
        var tail: Double
    }

    /// Suite http's workload: `clients` clients posting 10-sample batches
    /// to one store of an in-process node.
    static func singleStoreSaves(at directory: URL, clients: Int, requests: Int) async throws -> SaveLoad {
        let node = try await BenchNode.start(at: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = node.port
        do {
            let load = try await saveLoad(clients: clients, requests: requests) { client, request in
                try await postSteps(port: port, client: client, request: request)
            }
            try await node.stop()
            return load
        } catch {
            try? await node.stop()
            throw error
        }
    }

    /// The same, each client on its own store of an in-process multi-store
    /// node (owner tokens from its registry).
    static func manyStoreSaves(at root: URL, clients: Int, requests: Int) async throws -> SaveLoad {
        defer { try? FileManager.default.removeItem(at: root) }
        var configuration = NodeConfiguration()
        configuration.port = 0
        let node = try MultiStoreNode(root: root, configuration: configuration)
        let tokens = try (0..<clients).map { client in
            let name = try StoreName("client-\(client)")
            try node.registry.createStore(name)
            return (name, try node.registry.issueToken(TokenGrant(store: name, owner: true)).secret)
        }
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let serving = Task {
            defer { portContinuation.finish() }
            try await node.run { port in portContinuation.yield(port) }
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            throw BenchFailure(message: "the multi-store node did not start")
        }
        do {
            let load = try await saveLoad(clients: clients, requests: requests) { client, request in
                let (name, token) = tokens[client]
                try await postSteps(
                    port: port,
                    client: client,
                    request: request,
                    token: token,
                    path: "/v1/stores/\(name)/samples"
                )
            }
            await node.stop()
            try await serving.value
            return load
        } catch {
            await node.stop()
            _ = try? await serving.value
            throw error
        }
    }

    /// `clients` tasks each calling `post` `requests` times, one after the
    /// other: samples per second (10 a post) and the p99 latency in ms.
    static func saveLoad(
        clients: Int,
        requests: Int,
        post: @escaping @Sendable (_ client: Int, _ request: Int) async throws -> Void
    ) async throws -> SaveLoad {
        let (elapsed, latencies) = try await timed {
            try await withThrowingTaskGroup(of: [Double].self) { group in
                for client in 0..<clients {
                    group.addTask {
                        var latencies: [Double] = []
                        for request in 0..<requests {
                            let (seconds, _) = try await timed { try await post(client, request) }
                            latencies.append(seconds * 1_000)
                        }
                        return latencies
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
        }
        return SaveLoad(rate: Double(latencies.count * 10) / elapsed, tail: percentile(latencies, 0.99))
    }
}
