public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A real etcd cluster for tests: `size` members of Debian's `etcd` on free
/// loopback ports, their data under a temporary directory. Every wait is
/// bounded, members are stopped by process id, and ``shutdown()`` (call it
/// in teardown, also when the test fails) kills them all and removes the
/// data.
///
/// ```swift
/// let cluster = try await EtcdTestCluster.start()
/// defer { cluster.shutdown() }
/// let etcd = try EtcdClient(.init(endpoints: cluster.endpoints))
/// cluster.kill(0)                        // kill -9 of a member
/// try await cluster.restart(0)
/// ```
public final class EtcdTestCluster: Sendable {
    /// One member: its name, ports and data directory.
    public struct Member: Sendable {
        public let name: String
        public let clientPort: Int
        public let peerPort: Int
        public let dataDirectory: URL

        public var endpoint: String { "http://127.0.0.1:\(clientPort)" }
    }

    public let members: [Member]
    public let directory: URL
    private let processes: ProcessSlots

    /// The members' client URLs, in member order.
    public var endpoints: [String] { members.map(\.endpoint) }

    private init(members: [Member], directory: URL) {
        self.members = members
        self.directory = directory
        processes = ProcessSlots(count: members.count)
    }

    /// Starts a cluster and waits (up to `timeout` seconds) until every
    /// member answers healthy, then checks that every port answers for
    /// this cluster. Ports are chosen free; if a member loses its port to
    /// another process, the cluster starts again on new ones.
    ///
    /// - Throws: ``EtcdTestClusterError`` when `etcd` is not installed
    ///   (`Scripts/bootstrap` installs Debian's `etcd-server`) or the
    ///   cluster does not come up.
    public static func start(size: Int = 3, timeout: Double = 300) async throws -> EtcdTestCluster {
        guard let binary = executable() else {
            throw EtcdTestClusterError(
                description: "etcd is not on PATH; Scripts/bootstrap installs it (apt-get install etcd-server)"
            )
        }
        var failures: [String] = []
        for _ in 0..<3 {
            let directory = temporaryPath(prefix: "anchorage-etcd")
            let members = try (0..<size).map { index in
                Member(
                    name: "m\(index)",
                    clientPort: try freeLoopbackPort(),
                    peerPort: try freeLoopbackPort(),
                    dataDirectory: directory.appendingPathComponent("m\(index)")
                )
            }
            let cluster = EtcdTestCluster(members: members, directory: directory)
            do {
                for index in members.indices { try cluster.launch(index, binary: binary) }
                try await cluster.waitListening(timeout: timeout)
                try await cluster.waitHealthy(timeout: timeout)
                try await cluster.checkOwnMembers()
                return cluster
            } catch {
                failures.append("\(error)")
                cluster.shutdown()
            }
        }
        throw EtcdTestClusterError(description: "etcd did not start: \(failures.joined(separator: "; "))")
    }

    /// Runs `body` with a new cluster, stopped afterwards whether `body`
    /// returns or throws.
    ///
    /// ```swift
    /// try await EtcdTestCluster.with { cluster in
    ///     let etcd = try EtcdClient(.init(endpoints: cluster.endpoints))
    ///     …
    /// }
    /// ```
    public static func with<R>(size: Int = 3, _ body: (EtcdTestCluster) async throws -> R) async throws -> R {
        let cluster = try await start(size: size)
        defer { cluster.shutdown() }
        return try await body(cluster)
    }

    /// The process id of a running member.
    public func pid(_ index: Int) -> Int32? {
        processes.pid(index)
    }

    /// Kills a member with SIGKILL and waits (up to 10 s) until it is gone.
    public func kill(_ index: Int) {
        processes.kill(index)
    }

    /// Sends `signal` to a member (SIGSTOP to freeze it, SIGCONT to let it go on).
    public func signal(_ index: Int, _ signal: Int32) {
        processes.signal(index, signal)
    }

    /// Starts a killed member again on its ports and data, and waits until
    /// it answers healthy.
    public func restart(_ index: Int, timeout: Double = 300) async throws {
        guard let binary = Self.executable() else { throw EtcdTestClusterError(description: "etcd is not on PATH") }
        try launch(index, binary: binary)
        try await waitListening(members: [index], timeout: timeout)
        try await waitHealthy(members: [index], timeout: timeout)
    }

    /// Waits until the given members (all by default) say, on their output
    /// pipes, that they serve client requests: they have joined the
    /// cluster. A member that exits first (its port taken) fails at once;
    /// `timeout` only guards against one that hangs.
    func waitListening(members indices: [Int]? = nil, timeout: Double) async throws {
        for index in indices ?? Array(members.indices) {
            guard let output = processes.output(index) else {
                throw EtcdTestClusterError(description: "member \(index) is not running")
            }
            let port = members[index].clientPort
            do {
                try await output.wait(for: "member \(index) serving clients", timeout: timeout) {
                    $0.contains("serving insecure client requests on 127.0.0.1:\(port)")
                }
            } catch {
                throw EtcdTestClusterError(description: "member \(index) did not start: \(error)")
            }
        }
    }

    /// Kills every member and removes the data.
    public func shutdown() {
        for index in members.indices { kill(index) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Waits until the given members (all by default) answer `/health` with
    /// `true`: the cluster has a leader they agree on. Asked every 50 ms:
    /// the state itself, which a member reaches soon after it serves.
    public func waitHealthy(members indices: [Int]? = nil, timeout: Double = 300) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        for index in indices ?? Array(members.indices) {
            let port = members[index].clientPort
            while !(await runBlocking { Self.healthy(port: port) }) {
                guard processes[index] != nil else {
                    throw EtcdTestClusterError(description: "member \(index) is not running")
                }
                guard ContinuousClock.now < deadline else {
                    let log = (try? String(contentsOf: logFile(index), encoding: .utf8)) ?? ""
                    throw EtcdTestClusterError(
                        description: "member \(index) not healthy after \(timeout) s: \(log.suffix(800))"
                    )
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    // MARK: Processes

    private func logFile(_ index: Int) -> URL {
        directory.appendingPathComponent("m\(index).log")
    }

    private func launch(_ index: Int, binary: String) throws {
        let member = members[index]
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cluster = members.map { "\($0.name)=http://127.0.0.1:\($0.peerPort)" }.joined(separator: ",")
        let arguments = [
            "--name", member.name,
            "--data-dir", member.dataDirectory.path,
            "--listen-client-urls", member.endpoint,
            "--advertise-client-urls", member.endpoint,
            "--listen-peer-urls", "http://127.0.0.1:\(member.peerPort)",
            "--initial-advertise-peer-urls", "http://127.0.0.1:\(member.peerPort)",
            "--initial-cluster", cluster,
            "--initial-cluster-token", directory.lastPathComponent,
            "--initial-cluster-state", "new",
        ]
        try processes.launch(index, binary, arguments, log: logFile(index))
    }

    private static func executable() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"])
            .map { "\($0)/etcd" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether `GET /health` on the port answers `"health":"true"`
    /// within a second.
    static func healthy(port: Int) -> Bool {
        ask(port: port, "GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")?.contains("\"health\":\"true\"") ?? false
    }

    /// The cluster id the member on `port` reports (`/v3/maintenance/status`).
    static func clusterID(port: Int) -> String? {
        let body = "{}"
        let request =
            "POST /v3/maintenance/status HTTP/1.0\r\nHost: 127.0.0.1\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        guard let answer = ask(port: port, request),
            let range = answer.range(of: #""cluster_id":"[0-9]+""#, options: .regularExpression)
        else { return nil }
        return String(answer[range].dropFirst(#""cluster_id":""#.count).dropLast())
    }

    /// Checks that every member is the process this cluster started and
    /// that they form one cluster: a member whose port another process
    /// (another test's etcd) took first exits at once, and that port then
    /// answers for a foreign cluster.
    func checkOwnMembers() async throws {
        var clusters: Set<String> = []
        for index in members.indices {
            guard let child = processes[index], child.poll() == nil else {
                throw EtcdTestClusterError(description: "member \(index) exited (its ports taken by another process?)")
            }
            let port = members[index].clientPort
            guard let id = await runBlocking({ Self.clusterID(port: port) }) else {
                throw EtcdTestClusterError(description: "member \(index) does not report its cluster id")
            }
            clusters.insert(id)
        }
        guard clusters.count == 1 else {
            throw EtcdTestClusterError(description: "the members' ports answer for \(clusters.count) clusters")
        }
    }

    /// Sends `request` to 127.0.0.1:`port` and reads the answer (up to
    /// 16 KiB) until the server closes; nil if it cannot connect. Each
    /// step waits at most a second.
    static func ask(port: Int, _ text: String) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = Array(text.utf8)
        guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while answer.count < 16_384 {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}

/// The test cluster could not be started.
public struct EtcdTestClusterError: Error, CustomStringConvertible {
    public let description: String
}

extension Result where Failure == any Error {
    /// The outcome of an async `body`: its value, or what it threw (so that
    /// async clean-up can run before the error goes on).
    ///
    /// ```swift
    /// let outcome = await Result(catchingAsync: { try await body(client) })
    /// await client.shutdown()
    /// try outcome.get()
    /// ```
    public init(catchingAsync body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
