public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A fleet on one machine for tests and benchmarks: three etcd members and
/// `anchorage serve --fleet` nodes, every process on free loopback ports,
/// each node its own directory, zone and log file; nodes are killed by
/// process id, and ``shutdown()`` stops everything.
///
/// ```swift
/// let fleet = try await FleetTestHarness.start(binary: anchorage, nodes: 3, leaseTTL: 3)
/// defer { fleet.shutdown() }
/// fleet.kill(0)                   // kill -9 of n0
/// try await fleet.restart(0)
/// ```
public final class FleetTestHarness: Sendable {
    /// One node: its id, port and data directory.
    public struct Node: Sendable {
        public let id: String
        public let port: Int
        public let directory: URL
        public var url: String { "http://127.0.0.1:\(port)" }
    }

    public let etcd: EtcdTestCluster
    public let nodes: [Node]
    /// The fleet's secret (`Authorization: Bearer <secret>` administers it).
    public let secret: String
    public let directory: URL
    let binary: String
    let arguments: [String]
    /// Each node's zone.
    let zones: [String]
    private let processes: ProcessSlots

    private init(
        etcd: EtcdTestCluster,
        nodes: [Node],
        directory: URL,
        binary: String,
        arguments: [String],
        zones: [String]
    ) {
        self.zones = zones
        self.etcd = etcd
        self.nodes = nodes
        self.directory = directory
        self.binary = binary
        self.arguments = arguments
        secret = "fleet-secret-" + UUID().uuidString
        processes = ProcessSlots(count: nodes.count)
    }

    /// Starts etcd and `count` nodes (`n0`, `n1`…, in zones `z0`, `z1`…
    /// unless `zones` names them) with lease TTL `leaseTTL`, and waits until
    /// each serves.
    ///
    /// - Parameter arguments: more `anchorage serve` arguments for every
    ///   node (`--replica-wait 2`…).
    public static func start(
        binary: String,
        nodes count: Int = 3,
        leaseTTL: Int = 3,
        arguments: [String] = [],
        zones: [String]? = nil,
        timeout: Double = 300
    ) async throws -> FleetTestHarness {
        let etcd = try await EtcdTestCluster.start()
        let directory = temporaryPath(prefix: "anchorage-fleet")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let nodes = try (0..<count).map { index in
                Node(
                    id: "n\(index)",
                    port: try freeLoopbackPort(),
                    directory: directory.appendingPathComponent("n\(index)")
                )
            }
            let fleet = FleetTestHarness(
                etcd: etcd,
                nodes: nodes,
                directory: directory,
                binary: binary,
                arguments: ["--lease-ttl", String(leaseTTL)] + arguments,
                zones: zones ?? (0..<count).map { "z\($0)" }
            )
            try Data(fleet.secret.utf8).write(to: fleet.secretFile)
            do {
                for index in nodes.indices { try fleet.launch(index) }
                for index in nodes.indices { try await fleet.waitServing(index, timeout: timeout) }
                return fleet
            } catch {
                fleet.shutdown()
                throw error
            }
        } catch {
            etcd.shutdown()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    var secretFile: URL { directory.appendingPathComponent("secret") }

    /// The node's output (both streams, every run).
    public func log(_ index: Int) -> String {
        (try? String(contentsOf: logFile(index), encoding: .utf8)) ?? ""
    }

    /// The process id of a running node.
    public func pid(_ index: Int) -> Int32? {
        processes.pid(index)
    }

    /// Kills a node with SIGKILL and waits (up to 10 s) until it is gone.
    public func kill(_ index: Int) {
        processes.kill(index)
    }

    /// Stops a node with SIGTERM; returns its exit status, or `nil` when it
    /// did not exit within `timeout` seconds (it is then killed).
    @discardableResult
    public func stop(_ index: Int, timeout: Double = 30) async -> Int32? {
        guard let child = processes[index] else { return nil }
        child.signal(SIGTERM)
        let status = await child.exit(within: timeout)
        if status == nil {
            child.signal(SIGKILL)
            _ = await child.exit(within: 10)
        }
        processes.clear(index)
        return status
    }

    /// Kills every node with SIGKILL: no handoff, no last write; what each
    /// copy holds stays as it is, for checking.
    public func killAll() {
        for index in nodes.indices { kill(index) }
    }

    /// Sends `signal` to a node (SIGSTOP freezes it, SIGCONT lets it go on).
    public func signal(_ index: Int, _ signal: Int32) {
        processes.signal(index, signal)
    }

    /// Starts a stopped node again on its port and data, and waits until it
    /// serves; `adding` gives it more `anchorage serve` arguments than it
    /// started with (`--seal …`).
    public func restart(_ index: Int, timeout: Double = 300, adding extra: [String] = []) async throws {
        try launch(index, extra: extra)
        try await waitServing(index, timeout: timeout)
    }

    /// Stops every node and etcd, and removes the data. With
    /// `ANCHORAGE_FLEET_LOGS=DIR` set, the nodes' logs are copied there
    /// first, for a person to read.
    public func shutdown() {
        for index in nodes.indices { kill(index) }
        if let keep = ProcessInfo.processInfo.environment["ANCHORAGE_FLEET_LOGS"] {
            for index in nodes.indices {
                let name = "\(directory.lastPathComponent)-\(nodes[index].id).log"
                try? Data(log(index).utf8).write(to: URL(fileURLWithPath: keep).appendingPathComponent(name))
            }
        }
        etcd.shutdown()
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Processes

    private func logFile(_ index: Int) -> URL {
        directory.appendingPathComponent("n\(index).log")
    }

    private func launch(_ index: Int, extra: [String] = []) throws {
        let node = nodes[index]
        let arguments =
            [
                "serve", "--fleet", "--stores", node.directory.path,
                "--host", "127.0.0.1", "--port", String(node.port),
                "--etcd", etcd.endpoints.joined(separator: ","),
                "--node-id", node.id, "--zone", zones[index],
                "--fleet-secret-file", secretFile.path,
            ] + self.arguments + extra
        try processes.launch(index, binary, arguments, log: logFile(index))
    }

    /// Waits until the node's latest run says it serves, on its output
    /// pipe; `timeout` only guards against a node that hangs.
    private func waitServing(_ index: Int, timeout: Double) async throws {
        guard let output = processes.output(index) else {
            throw FleetTestHarnessError(description: "node \(index) is not running")
        }
        do {
            try await output.wait(for: "node \(index) serving", timeout: timeout) { $0.contains("serving the copies") }
        } catch {
            throw FleetTestHarnessError(description: "node \(index) did not start: \(error)")
        }
    }
}

/// The fleet could not be started.
public struct FleetTestHarnessError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}
