import Anchorage
import AppleHealthImport
import Foundation

extension AnchorageBench {
    /// Reads `export` without a store, alternated with raw libxml2 so both
    /// see the same load: elements per second.
    func runReadingBenchmark(export: URL, report: inout Report) async throws {
        let measured = try await eachRun { run in
            progress("XML reading alone, run \(run)/\(runs)")
            let (seconds, counts) = try await timed { try HealthExportFile(at: export).count() }
            return (
                reading: Double(counts.elements) / seconds,
                raw: try rawSax.map { try Self.rawSaxRate(executable: $0, export: export) }
            )
        }
        report.add(.xmlReading, anchorage: measured.map(\.reading), baseline: measured.compactMap(\.raw))
    }

    /// Imports `export` into a new store per run: records per second, and
    /// the process's peak memory.
    func runImportBenchmarks(export: URL, work: URL, report: inout Report) async throws {
        let size = (try FileManager.default.attributesOfItem(atPath: export.path)[.size] as? Int) ?? 0
        let measured = try await eachRun { run in
            progress("import \(export.lastPathComponent) (\(size / 1_000_000) MB), run \(run)/\(runs)")
            let directory = work.appendingPathComponent("import-\(run)")
            let store = HKHealthStore(directory: directory)
            // Anonymous memory (heap, stacks) has no peak field: sample it.
            let sampler = ProcessMemory.peaks(of: ["RssAnon:"])
            let (seconds, summary) = try await timed {
                try await HealthExportImporter(store: store).importExport(at: export)
            }
            sampler.cancel()
            let anonymous = Double(await sampler.value[0]) / 1_000_000
            let elements = summary.read.values.reduce(0, +) + summary.unknown.values.reduce(0, +)
            let peak = Double(ProcessMemory.statusBytes("VmHWM:")) / 1_000_000
            await store.close()
            try? FileManager.default.removeItem(at: directory)
            return (rate: Double(elements) / seconds, peak: peak, anonymous: anonymous)
        }
        report.add(.importRate(megabytes: size / 1_000_000), anchorage: measured.map(\.rate))
        report.add(.importPeakMemory, anchorage: measured.map(\.peak))
        report.add(.importAnonymousMemory, anchorage: measured.map(\.anonymous))
    }

    /// Runs Scripts/bench-xml/raw_sax.c on `export`: elements per second.
    static func rawSaxRate(executable: String, export: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [export.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var fields: [String: Double] = [:]
        for pair in output.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
        }
        guard process.terminationStatus == 0, let seconds = fields["seconds"], let elements = fields["elements"] else {
            throw RawLMDB.Failure(description: "\(executable) failed: \(output)")
        }
        return elements / seconds
    }
}
