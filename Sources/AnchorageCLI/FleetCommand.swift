import Anchorage
import AnchorageClient
import AnchorageFleet
import AnchorageService
import ArgumentParser
import AsyncHTTPClient
import Etcd
import Foundation

/// `anchorage fleet`: a fleet's state, read from etcd and its nodes.
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "A fleet's nodes, stores and epochs (docs/fleet.md).",
        subcommands: [FleetStatusCommand.self]
    )
}

/// `anchorage fleet status --etcd URLS`: the live nodes, the stores each
/// holds, every store's placement and epoch, and — with the fleet's
/// secret — what each node's copies have not had confirmed yet.
struct FleetStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "The live nodes, stores per node, every store's placement and epoch, and lagging copies.",
        discussion: """
            Reads etcd directly, so it works while nodes are down. With --fleet-secret-file it also asks each live
            node about its copies: a primary's entries no replica has confirmed yet, and copies whose log lacks
            their placement's epoch (they are catching up).
            """
    )

    @Option(help: "etcd's client URLs, comma-separated.")
    var etcd: String

    @Option(help: "The fleet's root in etcd.")
    var root = "/anchorage/"

    @Option(help: "A file holding the fleet's secret: also ask each node about its copies.")
    var fleetSecretFile: String?

    @Option(help: "table or json.")
    var format = "table"

    func validate() throws {
        guard ["table", "json"].contains(format) else { throw ValidationError("--format is table or json") }
    }

    struct Report: Encodable {
        struct Node: Encodable {
            var id: String
            var address: String
            var zone: String?
            var draining: Bool
            var primaries: Int
            var replicas: Int
            var joining: Int
        }

        struct Store: Encodable {
            var id: String
            var epoch: Int64
            var primary: String
            var replicas: [String]
            var joining: [String]
            var retiring: [String]
            /// From the primary: entries no replica confirmed yet.
            var unconfirmed: UInt64?
            /// Copies whose log lacks the placement's epoch.
            var behind: [String]
        }

        var controller: String?
        var nodes: [Node]
        var stores: [Store]
        /// Nodes named by placements that are not live.
        var missing: [String]
    }

    func run() async throws {
        let keys = FleetKeys(root: root)
        let client: EtcdClient
        do {
            client = try EtcdClient(.init(endpoints: etcd.split(separator: ",").map(String.init)))
        } catch {
            throw ValidationError("--etcd: \(error)")
        }
        let secret = try fleetSecretFile.map { path in
            do {
                return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw ValidationError("--fleet-secret-file: cannot read \(path)")
            }
        }
        let report: Report
        do {
            report = try await Self.report(client, keys: keys, secret: secret)
            await client.shutdown()
        } catch {
            await client.shutdown()
            throw CommandFailure(description: "cannot read the fleet: \(error)")
        }
        print(report)
    }

    static func report(_ etcd: EtcdClient, keys: FleetKeys, secret: String?) async throws -> Report {
        let nodes = try await NodeMembership.liveNodes(etcd: etcd, keys: keys).sorted { $0.id < $1.id }
        let placements = try await PlacementStore(etcd: etcd, keys: keys).all().records.sorted { $0.store < $1.store }
        let controller = try await ControllerElection(etcd: etcd, keys: keys, nodeID: "").holder()?.nodeID
        var copies: [String: [String: NodeCopy]] = [:]
        if let secret {
            let http = HTTPClient(eventLoopGroupProvider: .singleton)
            for node in nodes { copies[node.id] = await Self.copies(of: node, secret: secret, http: http) }
            try? await http.shutdown()
        }
        let live = Set(nodes.map(\.id))
        return Report(
            controller: controller,
            nodes: nodes.map { node in
                Report.Node(
                    id: node.id,
                    address: node.record.address,
                    zone: node.record.zone,
                    draining: node.record.draining == true,
                    primaries: placements.filter { $0.placement.primary == node.id }.count,
                    replicas: placements.filter { $0.placement.replicas.contains(node.id) }.count,
                    joining: placements.filter { $0.placement.joining.contains(node.id) }.count
                )
            },
            stores: placements.map { record in
                let placement = record.placement
                return Report.Store(
                    id: record.store,
                    epoch: placement.epoch,
                    primary: placement.primary,
                    replicas: placement.replicas,
                    joining: placement.joining,
                    retiring: placement.retiring,
                    unconfirmed: copies[placement.primary]?[record.store]?.unconfirmed,
                    behind: placement.holders.filter { node in
                        guard let copy = copies[node]?[record.store] else { return false }
                        return (copy.heldEpoch ?? 0) < UInt64(max(0, placement.epoch))
                    }
                )
            },
            missing: Array(Set(placements.flatMap(\.placement.holders)).subtracting(live)).sorted()
        )
    }

    struct NodeCopy {
        var store: String
        var heldEpoch: UInt64?
        var unconfirmed: UInt64?
    }

    /// A node's copies from `GET /v1/fleet/status` (through the generated
    /// client); none when it does not answer.
    static func copies(of node: FleetNode, secret: String, http: HTTPClient) async -> [String: NodeCopy] {
        await copies(at: node.record.address, secret: secret, http: http)
    }

    /// The copies the fleet node at `address` reports; none when it does not answer.
    static func copies(at address: String, secret: String, http: HTTPClient) async -> [String: NodeCopy] {
        guard let url = URL(string: address) else { return [:] }
        let client = AnchorageNodeClient(serverURL: url, token: secret, httpClient: http, timeout: .seconds(5))
        guard let status = try? await client.fleetStatus() else { return [:] }
        let copies = status.copies.map { copy in
            NodeCopy(
                store: copy.store,
                heldEpoch: copy.heldEpoch.flatMap(UInt64.init(exactly:)),
                unconfirmed: copy.unconfirmed.flatMap(UInt64.init(exactly:))
            )
        }
        return Dictionary(copies.map { ($0.store, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func print(_ report: Report) {
        let output = CLIOutput.current
        if format == "json" {
            let encoder = CanonicalJSON.encoder()
            output.line(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
            return
        }
        output.line("controller: \(report.controller ?? "none")")
        var nodes = [["node", "zone", "address", "primaries", "replicas", "joining", "state"]]
        for node in report.nodes {
            nodes.append([
                node.id, node.zone ?? "-", node.address, String(node.primaries), String(node.replicas),
                String(node.joining), node.draining ? "draining" : "live",
            ])
        }
        for id in report.missing { nodes.append([id, "-", "-", "-", "-", "-", "gone"]) }
        for line in TextTable.leftAligned(nodes) { output.line(line) }
        var stores = [["store", "epoch", "primary", "replicas", "joining", "unconfirmed", "behind"]]
        for store in report.stores {
            stores.append([
                store.id, String(store.epoch), store.primary, store.replicas.joined(separator: ","),
                store.joining.isEmpty ? "-" : store.joining.joined(separator: ","),
                store.unconfirmed.map(String.init) ?? "-",
                store.behind.isEmpty ? "-" : store.behind.joined(separator: ","),
            ])
        }
        for line in TextTable.leftAligned(stores) { output.line(line) }
    }
}
