import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

extension AnchorageBench {
    /// The hostile clients' own HTTP client and event loop, apart from the
    /// well-behaved clients' (`HTTPClient.shared`), whose latency is
    /// measured. Its thread runs at the lowest CPU priority: on this one
    /// machine, receiving their large answers must not delay the
    /// well-behaved clients, as it would not if they were elsewhere.
    static let hostileClient: HTTPClient = {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        group.next().execute {
            #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
            #endif
        }
        return HTTPClient(eventLoopGroup: group)
    }()

    /// The well-behaved clients act as the store's owner.
    static let ownerToken = "bench-owner-token-0123456789"
    /// The hostile clients act as an app that may read and share step
    /// counts, as the attacks in issue 17 were tried.
    static let hostileToken = "bench-app-token-0123456789"
    static let tokensFile = """
        {"tokens":[{"token":"\(ownerToken)","owner":true},
        {"token":"\(hostileToken)","principal":{"name":"Hostile","bundleIdentifier":"com.example.hostile"},
        "read":["stepCount"],"share":["stepCount"]}]}
        """

    /// A load test of an `anchorage serve` process on loopback: 150
    /// well-behaved clients (the owner) post 10-sample batches at a steady
    /// 750 posts a second in all, alone and then beside 50 hostile ones (an
    /// app's token: slow bodies, huge declared lengths, 10-year samples as
    /// fast as the node takes them, statistics at the bucket cap). The well-behaved saves' p99 with the
    /// hostile clients against without (goal: at most 2×), and the node's
    /// peak resident memory (goal: under 300 MB).
    func runHostileLoad(work: URL, report: inout Report) async throws {
        let seconds = 10.0
        let measured = try await eachRun(atMost: 5) { run in
            let directory = work.appendingPathComponent("hostile-\(run)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let tokens = directory.appendingPathComponent("tokens.json")
            try Data(Self.tokensFile.utf8).write(to: tokens)
            let node = try Self.startServe(store: directory.appendingPathComponent("store"), tokens: tokens)
            defer {
                node.process.terminate()
                node.process.waitUntilExit()
                try? FileManager.default.removeItem(at: directory)
            }
            progress("hostile run \(run): 150 clients saving alone for \(Int(seconds)) s")
            let alone = try await Self.wellBehaved(port: node.port, clients: 150, seconds: seconds, offset: 0)
            progress("hostile run \(run): the same beside 50 hostile clients")
            let pid = "\(node.process.processIdentifier)"
            let sampler = ProcessMemory.peaks(of: ["RssAnon:", "RssFile:"], process: pid)
            async let hostile = Self.hostileClients(port: node.port, seconds: seconds)
            let beside = try await Self.wellBehaved(port: node.port, clients: 150, seconds: seconds, offset: 1)
            let hostileDone = Double(await hostile)
            sampler.cancel()
            let most = await sampler.value
            return (
                alone: alone,
                beside: beside,
                hostileDone: hostileDone,
                anonymousPeak: Double(most[0]) / 1e6,
                filePeak: Double(most[1]) / 1e6,
                peak: Double(ProcessMemory.statusBytes("VmHWM:", process: pid)) / 1e6
            )
        }
        report.add(.hostileLatency, anchorage: measured.map(\.beside), baseline: measured.map(\.alone))
        report.add(.hostilePeakMemory, anchorage: measured.map(\.peak))
        report.add(.hostileAnonymousMemory, anchorage: measured.map(\.anonymousPeak))
        report.add(.hostileMappedMemory, anchorage: measured.map(\.filePeak))
        report.add(.hostileRequests, anchorage: measured.map(\.hostileDone))
    }

    struct ServeChild {
        let process: Process
        let port: Int
    }

    /// Starts `anchorage serve` (beside this executable) on a free port.
    static func startServe(store: URL, tokens: URL) throws -> ServeChild {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("anchorage")
        process.arguments = ["serve", "--store", store.path, "--port", "0", "--tokens", tokens.path]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = ""
        let handle = stderr.fileHandleForReading
        while true {
            let data = handle.availableData
            if data.isEmpty { throw BenchFailure(message: "anchorage serve did not start: \(seen)") }
            seen += String(decoding: data, as: UTF8.self)
            if let range = seen.range(of: #"on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                let port = Int(seen[range].split(separator: ":").last ?? "")
            {
                handle.readabilityHandler = { _ = $0.availableData }
                return ServeChild(process: process, port: port)
            }
        }
    }

    /// `clients` clients posting 10 step samples every 200 ms (a steady
    /// load, not as fast as they can) for `seconds`; the 99th percentile
    /// latency in ms.
    static func wellBehaved(port: Int, clients: Int, seconds: Double, offset: Int) async throws -> Double {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for client in 0..<clients {
                group.addTask {
                    var latencies: [Double] = []
                    var number = 0
                    // Each client posts every 200 ms (750 posts a second in all), starting spread out.
                    var next = ContinuousClock.now + .milliseconds(client * 200 / clients)
                    while next < deadline {
                        try await Task.sleep(until: next)
                        next += .milliseconds(200)
                        let (seconds, _) = try await timed {
                            try await postSteps(
                                port: port,
                                client: client + offset * clients,
                                request: number,
                                token: ownerToken
                            )
                        }
                        latencies.append(seconds * 1_000)
                        number += 1
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        return percentile(latencies, 0.99)
    }

    /// 50 hostile clients for `seconds`: 15 trickle a body a byte a second,
    /// 10 declare a terabyte body, 15 post 10-year samples, 10 ask for
    /// statistics at the 100,000-bucket cap. Returns the requests they
    /// finished (answered or cut off).
    static func hostileClients(port: Int, seconds: Double) async -> Int {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        let kinds = ProcessInfo.processInfo.environment["HOSTILE"] ?? "thlw"
        return await withTaskGroup(of: Int.self) { group in
            for _ in 0..<15 where kinds.contains("t") { group.addTask { await trickle(port: port, until: deadline) } }
            for _ in 0..<10 where kinds.contains("h") {
                group.addTask { await hugeDeclaredLength(port: port, until: deadline) }
            }
            for client in 0..<15 where kinds.contains("l") {
                group.addTask { await longSamples(port: port, client: client, until: deadline) }
            }
            for client in 0..<10 where kinds.contains("w") {
                group.addTask { await wideStatistics(port: port, client: client, until: deadline) }
            }
            return await group.reduce(0, +)
        }
    }

    static func trickle(port: Int, until deadline: ContinuousClock.Instant) async -> Int {
        var finished = 0
        while ContinuousClock.now < deadline {
            guard let socket = RawSocket(port: port) else { return finished }
            let head =
                "POST /v1/samples HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(hostileToken)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n["
            guard socket.send(head) else { continue }
            while ContinuousClock.now < deadline, socket.send(" ") {
                try? await Task.sleep(for: .seconds(1))
            }
            finished += 1
        }
        return finished
    }

    static func hugeDeclaredLength(port: Int, until deadline: ContinuousClock.Instant) async -> Int {
        var finished = 0
        while ContinuousClock.now < deadline {
            guard let socket = RawSocket(port: port) else { return finished }
            _ = socket.send(
                "POST /v1/samples HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(hostileToken)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n["
            )
            // Wait for the answer (or the close) a few seconds at most.
            for _ in 0..<50 where !socket.hasAnswer() {
                try? await Task.sleep(for: .milliseconds(100))
            }
            finished += 1
        }
        return finished
    }

    static func longSamples(port: Int, client: Int, until deadline: ContinuousClock.Instant) async -> Int {
        var finished = 0
        while ContinuousClock.now < deadline {
            let start = 2000 + (client + finished) % 20
            let body = """
                [{"kind":"quantitySample","uuid":"\(UUID().uuidString)","type":"HKQuantityTypeIdentifierStepCount",\
                "startDate":"\(start)-01-01T00:00:00Z","endDate":"\(start + 10)-01-01T00:00:00Z",\
                "quantity":{"unit":"count","value":3652000}}]
                """
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/samples")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(hostileToken)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
            _ = try? await hostileClient.execute(request, timeout: .seconds(30))
            finished += 1
        }
        return finished
    }

    /// Statistics at the cap, over and over, each read to its end and
    /// dropped. Each client is a thread of its own at the idle scheduling
    /// class with a blocking socket: receiving 8 MB answers is the hostile
    /// client's work, which on this one machine must not take the cores
    /// from the well-behaved clients, as it would not if it ran elsewhere.
    static func wideStatistics(port: Int, client: Int, until deadline: ContinuousClock.Instant) async -> Int {
        // 99,999 one-second buckets over the well-behaved clients' data.
        let from = Date(timeIntervalSince1970: 1_717_200_000 + Double(client) * 86_400 * 365)
        let to = from.addingTimeInterval(99_998)
        let request =
            "GET /v1/statistics?type=stepCount&interval=1s&from=\(from.formatted(.iso8601))"
            + "&to=\(to.formatted(.iso8601)) HTTP/1.1\r\nHost: x\r\n"
            + "Authorization: Bearer \(hostileToken)\r\nConnection: close\r\n\r\n"
        return await withCheckedContinuation { continuation in
            Thread {
                #if os(Linux)
                // SCHED_IDLE (5): sched.h declares it only for _GNU_SOURCE, so Swift does not see it.
                var parameters = sched_param()
                _ = sched_setscheduler(0, 5, &parameters)
                #endif
                var finished = 0
                while ContinuousClock.now < deadline {
                    if let socket = RawSocket(port: port), socket.sendAll(request) { socket.drain() }
                    finished += 1
                }
                continuation.resume(returning: finished)
            }.start()
        }
    }
}

/// A raw TCP connection on loopback, for clients no HTTP library would be.
final class RawSocket {
    private let descriptor: Int32

    init?(port: Int) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
    }

    /// Sends `text` without blocking; `false` once the node has closed.
    func send(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes {
            Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) >= 0
        }
    }

    /// Whether the node has answered or closed the connection.
    func hasAnswer() -> Bool {
        var byte: UInt8 = 0
        let read = recv(descriptor, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
        return read >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// Sends all of `text`, blocking: `false` if the node closed.
    func sendAll(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes {
            Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) == $0.count
        }
    }

    /// Reads and drops everything until the node closes the connection,
    /// or nothing has come for 30 s.
    func drain() {
        var patience = timeval(tv_sec: 30, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if read <= 0 { return }
        }
    }

    deinit { close(descriptor) }
}
