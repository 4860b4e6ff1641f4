import Foundation

extension AnchorageBench {
    /// Saves over HTTP from outside the node's process, in the shapes
    /// clients make them (``WriteShape``), each beside PostgreSQL in the
    /// same run: wrk posts with fresh uuids to an `anchorage serve` process
    /// on an empty, durable store, and pgbench inserts the same rows into a
    /// fresh table of a local PostgreSQL, at 16 and then 64 connections; a
    /// new process and store (a new table) for every run. The row's ratio
    /// is samples/s against rows/s. Skipped, saying why, without wrk on PATH
    /// or `--wrk-script`; the PostgreSQL column is left empty, saying why,
    /// without PostgreSQL.
    func runWrkSaveBenchmarks(work: URL, report: inout Report) async throws {
        guard let wrkScript, let wrk = Self.executable(named: "wrk") else {
            progress("HTTP saves from wrk: skipped (wrk is not on PATH, or no --wrk-script; Scripts/bench gives both)")
            return
        }
        var postgres: PostgresBaseline?
        do {
            postgres = try PostgresBaseline.start()
        } catch {
            progress("HTTP saves from wrk: no PostgreSQL beside them: \(error)")
        }
        defer { postgres?.stop() }
        for shape in WriteShape.all {
            for connections in [16, 64] {
                let measured = try await eachRun { run in
                    progress("HTTP saves from wrk run \(run)/\(runs): \(shape.name), \(connections) connections, 10 s")
                    let directory = work.appendingPathComponent("wrk-\(connections)-\(run)")
                    defer { try? FileManager.default.removeItem(at: directory) }
                    let node = try ServeProcess.start(["serve", "--store", directory.path, "--port", "0"])
                    let ours = Result {
                        try Self.wrk(
                            wrk,
                            script: wrkScript,
                            url: "http://127.0.0.1:\(node.port)/v1/samples",
                            connections: connections,
                            environment: shape.wrkEnvironment
                        )
                    }
                    node.stop()
                    progress("PostgreSQL run \(run)/\(runs): \(shape.name), \(connections) connections, 10 s")
                    let theirs = try postgres?.pgbench(shape, connections: connections, seconds: 10)
                    return (ours: try ours.get(), theirs: theirs)
                }
                report.add(
                    .wrkSaves(shape, connections: connections),
                    anchorage: measured.map(\.ours.rate),
                    baseline: measured.compactMap(\.theirs?.rate)
                )
                report.add(
                    .wrkSaveLatency(shape, connections: connections),
                    anchorage: measured.map(\.ours.tail),
                    baseline: measured.compactMap(\.theirs?.tail)
                )
            }
        }
    }

    /// One wrk run of 10 s: samples saved per second and the p99 in ms;
    /// `environment` chooses the shape (``WriteShape/wrkEnvironment``).
    static func wrk(
        _ executable: String,
        script: String,
        url: String,
        connections: Int,
        token: String? = nil,
        environment shape: [String: String] = [:]
    ) throws -> (rate: Double, tail: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        var environment = ProcessInfo.processInfo.environment.merging(shape) { $1 }
        if let token { environment["ANCHORAGE_WRK_TOKEN"] = token }
        process.environment = environment
        process.arguments = ["-t2", "-c\(connections)", "-d10s", "--timeout", "30s", "-s", script, url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ANCHORAGE_WRK ") }) else {
            throw BenchFailure(message: "wrk printed no summary: \(text.suffix(500))")
        }
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard fields.count == 7 else { throw BenchFailure(message: "wrk's summary is not understood: \(line)") }
        let (requests, micros, refused, broken, tail) = (fields[0], fields[1], fields[2], fields[3], fields[5])
        let perPost = fields[6]
        guard refused == 0, broken == 0 else {
            throw BenchFailure(
                message: "wrk: \(Int(refused)) answers were not 2xx and \(Int(broken)) requests failed at the socket"
            )
        }
        return (requests * perPost / (micros / 1_000_000), tail / 1_000)
    }

    /// The path of `name` on PATH, if any.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
