import AnchorageTesting
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// PostgreSQL on this machine, the strongest general-purpose alternative for
/// the HTTP suite's writes: Debian's server in a temporary directory on a free
/// loopback port, durable as it ships (`fsync` and `synchronous_commit` on),
/// holding one table of samples with a uuid primary key and a `(type, start)`
/// index, driven by pgbench from another process.
///
/// ```swift
/// let postgres = try PostgresBaseline.start()
/// defer { postgres.stop() }
/// let run = try postgres.pgbench(WriteShape.all[0], connections: 64, seconds: 10)
/// ```
struct PostgresBaseline {
    /// The server's programs (`initdb`, `postgres`).
    let binaries: URL
    let directory: URL
    let port: Int
    /// The postmaster, run directly (not through pg_ctl, whose daemon would
    /// keep the descriptor by which Foundation learns that a child exited).
    let server: Process

    /// The newest installed server's programs, or why there is none.
    static func locate() -> Result<URL, BenchFailure> {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .compactMap(Int.init).sorted()
        guard let version = versions.last else {
            return .failure(
                BenchFailure(message: "PostgreSQL is not installed (Scripts/bootstrap --bench installs it)")
            )
        }
        guard AnchorageBench.executable(named: "pgbench") != nil, AnchorageBench.executable(named: "pg_isready") != nil
        else {
            return .failure(BenchFailure(message: "pgbench or pg_isready is not on PATH"))
        }
        return .success(root.appendingPathComponent("\(version)/bin"))
    }

    /// Creates a cluster in a new temporary directory and starts it on a
    /// free loopback port, as the `postgres` user when this process is root
    /// (PostgreSQL refuses to run as root); waits at most a minute for it.
    static func start() throws -> PostgresBaseline {
        let binaries = try locate().get()
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("anchorage-bench-postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let runAs = getuid() == 0 ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"] : []
        if getuid() == 0 {
            try Self.run(["chown", "postgres", directory.path])
        }
        let data = directory.appendingPathComponent("data").path
        try Self.run(
            runAs + [
                binaries.appendingPathComponent("initdb").path, "-D", data, "-U", "bench", "--auth=trust",
                "-E", "UTF8", "--no-sync",
            ]
        )
        let port = try freeLoopbackPort()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            unblockingSignals + runAs + [
                binaries.appendingPathComponent("postgres").path, "-D", data, "-p", "\(port)", "-k", directory.path,
                "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=on",
                "-c", "synchronous_commit=on", "-c", "full_page_writes=on",
            ]
        let log = directory.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardOutput = logHandle
        process.standardError = logHandle
        try process.run()
        try? logHandle.close()
        let server = PostgresBaseline(binaries: binaries, directory: directory, port: port, server: process)
        let deadline = ContinuousClock.now + .seconds(60)
        while (try? Self.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", "\(port)"])) == nil {
            guard process.isRunning, ContinuousClock.now < deadline else {
                let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                server.stop()
                throw BenchFailure(message: "PostgreSQL did not start: \(said.suffix(800))")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return server
    }

    /// Stops the server (SIGINT: a fast shutdown; SIGKILL after 30 s),
    /// waits for it and removes its directory.
    func stop() {
        if server.isRunning {
            kill(server.processIdentifier, SIGINT)
            let deadline = ContinuousClock.now + .seconds(30)
            while server.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if server.isRunning { kill(server.processIdentifier, SIGKILL) }
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Drops and creates the samples table: a fresh, empty table for each
    /// run, as each Anchorage run writes to a new store.
    func resetTable() throws {
        try psql(
            """
            DROP TABLE IF EXISTS samples;
            CREATE TABLE samples (
                uuid uuid PRIMARY KEY,
                type text NOT NULL,
                start_date timestamptz NOT NULL,
                end_date timestamptz NOT NULL,
                value double precision NOT NULL,
                unit text NOT NULL,
                metadata jsonb
            );
            CREATE INDEX samples_type_start ON samples (type, start_date);
            CHECKPOINT;
            """
        )
    }

    func psql(_ sql: String) throws {
        try Self.run(
            [
                "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", "\(port)", "-U", "bench", "-d",
                "postgres", "-c", sql,
            ]
        )
    }

    /// One pgbench run of `seconds` on a fresh table: rows inserted a second
    /// (transactions a second × the shape's rows a transaction) and the 99th
    /// percentile of a transaction's latency in ms.
    func pgbench(_ shape: WriteShape, connections: Int, seconds: Int) throws -> (rate: Double, tail: Double) {
        try resetTable()
        let script = directory.appendingPathComponent("shape.sql")
        try Data(shape.pgbenchScript.utf8).write(to: script)
        let logs = directory.appendingPathComponent("logs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: logs) }
        let output = try Self.run(
            [
                "pgbench", "-n", "-h", "127.0.0.1", "-p", "\(port)", "-U", "bench", "-c", "\(connections)", "-j", "2",
                "-T", "\(seconds)", "-f", script.path, "--log", "--log-prefix", logs.appendingPathComponent("tx").path,
                "postgres",
            ]
        )
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") }),
            let tps = Double(line.dropFirst(6).prefix { !$0.isWhitespace })
        else { throw BenchFailure(message: "pgbench printed no rate: \(output.suffix(500))") }
        guard !output.contains("failed: ") || output.contains("number of failed transactions: 0") else {
            throw BenchFailure(message: "pgbench: transactions failed: \(output.suffix(500))")
        }
        // Each log line: client, transaction, latency (µs), script, epoch, µs.
        var latencies: [Double] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: logs.path) {
            let text = try String(contentsOf: logs.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count > 2, let micros = Double(fields[2]) { latencies.append(micros) }
            }
        }
        latencies.sort()
        let tail = latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, latencies.count * 99 / 100)] / 1_000
        return (tps * Double(shape.samplesPerPost), tail)
    }

    /// The words that run a program with no signal blocked: a child of this
    /// process inherits the signals its threads block, and pgbench ends a
    /// timed run on SIGALRM (it would never end), the server a fast shutdown
    /// on SIGINT.
    static let unblockingSignals = [
        "perl", "-e", "use POSIX; sigprocmask(SIG_SETMASK, POSIX::SigSet->new) or die; exec @ARGV or die",
    ]

    /// Runs `arguments` (the first on PATH or a path), with no signal
    /// blocked, and returns its standard output; throws with its output
    /// unless it exits 0.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = unblockingSignals + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchFailure(message: "\(arguments.prefix(3).joined(separator: " ")) failed: \(text.suffix(800))")
        }
        return text
    }
}
