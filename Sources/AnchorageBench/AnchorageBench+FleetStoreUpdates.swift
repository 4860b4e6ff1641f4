import AnchorageTesting
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Suite `updates`, the fleet's rows: the same consumer following a
/// fleet's `GET /v1/store-updates` (etcd's history of what each store's
/// primary published) on one node, while the saves go through all three.
extension AnchorageBench {
    /// A fleet on this machine (3 etcd members, 3 nodes, lease 10 s)
    /// holding `stores` stores, each with a copy on every node; the fleet's
    /// consumer long-polls node 1 while 8 clients save `rate` a second for
    /// `seconds` to random stores, each through a random node (forwarded to
    /// the store's primary).
    static func fleetStoreUpdatesFollowing(stores: Int, rate: Int, seconds: Int) async throws -> StoreUpdatesRun {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("anchorage").path
        let fleet = try await FleetTestHarness.start(binary: binary, nodes: 3, leaseTTL: 10)
        defer { fleet.shutdown() }
        let http = FleetBenchClient()
        do {
            let run = try await following(fleet, http: http, stores: stores, rate: rate, seconds: seconds)
            try? await http.client.shutdown()
            return run
        } catch {
            try? await http.client.shutdown()
            throw error
        }
    }

    private static func following(
        _ fleet: FleetTestHarness,
        http: FleetBenchClient,
        stores: Int,
        rate: Int,
        seconds: Int
    ) async throws -> StoreUpdatesRun {
        let names = (0..<stores).map { String(format: "f%05d", $0) }
        // Placed 16 at a time, as an operator's script would.
        var tokens: [String] = []
        for first in stride(from: 0, to: stores, by: 16) {
            tokens += try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for index in first..<min(first + 16, stores) {
                    group.addTask { (index, try await http.createStore(names[index], in: fleet)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.0 < $1.0 }.map(\.1)
            }
        }
        // Every node knows every store before a save goes through it.
        for node in fleet.nodes {
            try await waitUntil("\(node.id) knows the \(stores) stores", timeout: 120) {
                let (status, body) = await http.send(.GET, node.url + "/v1/stores?limit=10000", token: fleet.secret)
                let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
                return status == 200 && (json?["stores"] as? [Any])?.count == stores
            }
        }
        let consumerURL = fleet.nodes[1].url
        let secret = fleet.secret
        let (status, body) = await http.send(.GET, consumerURL + "/v1/store-updates?since=now", token: secret)
        guard status == 200, let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any],
            let first = json["newCursor"] as? String
        else { throw BenchFailure(message: "no fleet store-updates cursor: \(status) \(body)") }
        let urls = fleet.nodes.map(\.url)
        let issued = tokens
        return try await followWhileSaving(
            from: first,
            written: stores,
            rate: rate,
            seconds: seconds,
            poll: { cursor in
                let (status, body) = await http.send(
                    .GET,
                    consumerURL + "/v1/store-updates?since=\(cursor)&wait=2&limit=1000",
                    token: secret
                )
                guard status == 200 else {
                    throw BenchFailure(message: "the fleet's store updates answered \(status): \(body)")
                }
                return (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
            },
            save: { target, sample in
                let node = urls[Int.random(in: 0..<urls.count)]
                let (status, answer) = await http.send(
                    .POST,
                    node + "/v1/stores/\(names[target])/samples",
                    token: issued[target],
                    body: String(decoding: sample, as: UTF8.self)
                )
                guard status == 201 else {
                    throw BenchFailure(message: "a save to \(names[target]) got \(status): \(answer)")
                }
                return names[target]
            },
            cpu: { 0 }
        )
    }
}
