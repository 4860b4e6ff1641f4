import Foundation

extension AnchorageBench {
    /// Saves over HTTP from outside the node's process: wrk (Debian's C
    /// load generator) posts 10-sample batches with fresh uuids to an
    /// `anchorage serve` process on an empty, durable store, with 16 and
    /// then 64 connections, each run against a new process and store.
    /// Skipped, saying why, without wrk on PATH or `--wrk-script`.
    func runWrkSaveBenchmarks(work: URL, report: inout Report) async throws {
        guard let wrkScript, let wrk = Self.executable(named: "wrk") else {
            progress("HTTP saves from wrk: skipped (wrk is not on PATH, or no --wrk-script; Scripts/bench gives both)")
            return
        }
        for connections in [16, 64] {
            let measured = try await eachRun { run in
                progress("HTTP saves from wrk run \(run)/\(runs): \(connections) connections, 10 s")
                let directory = work.appendingPathComponent("wrk-\(connections)-\(run)")
                defer { try? FileManager.default.removeItem(at: directory) }
                let node = try ServeProcess.start(["serve", "--store", directory.path, "--port", "0"])
                defer { node.stop() }
                return try Self.wrk(
                    wrk,
                    script: wrkScript,
                    url: "http://127.0.0.1:\(node.port)/v1/samples",
                    connections: connections
                )
            }
            report.add(.wrkSaves(connections: connections), anchorage: measured.map(\.rate))
            report.add(.wrkSaveLatency(connections: connections), anchorage: measured.map(\.tail))
        }
    }

    /// One wrk run of 10 s: samples saved per second and the p99 in ms.
    static func wrk(
        _ executable: String,
        script: String,
        url: String,
        connections: Int,
        token: String? = nil
    ) throws -> (rate: Double, tail: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        if let token {
            var environment = ProcessInfo.processInfo.environment
            environment["ANCHORAGE_WRK_TOKEN"] = token
            process.environment = environment
        }
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
        guard fields.count == 6 else { throw BenchFailure(message: "wrk's summary is not understood: \(line)") }
        let (requests, micros, refused, broken, tail) = (fields[0], fields[1], fields[2], fields[3], fields[5])
        guard refused == 0, broken == 0 else {
            throw BenchFailure(
                message: "wrk: \(Int(refused)) answers were not 2xx and \(Int(broken)) requests failed at the socket"
            )
        }
        return (requests * 10 / (micros / 1_000_000), tail / 1_000)
    }

    /// The path of `name` on PATH, if any.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
