import Anchorage
import AppleHealthImport
import Foundation

extension AnchorageBench {
    /// Imports `export` into a new store per run: elements per second, and
    /// the process's peak resident memory afterwards.
    /// Reads `export` without a store, alternated with raw libxml2 so both
    /// see the same load: elements per second.
    func runReadingBenchmark(export: URL, report: inout Report) throws {
        var reading: [Double] = []
        var raw: [Double] = []
        for run in 1...runs {
            progress("XML reading alone, run \(run)/\(runs)")
            let start = ContinuousClock.now
            let counts = try HealthExportFile(at: export).count()
            reading.append(Double(counts.elements) / (ContinuousClock.now - start).seconds)
            if let rawSax { raw.append(try Self.rawSaxRate(executable: rawSax, export: export)) }
        }
        report.add(
            name: "import: XML reading alone (element batches, no store) vs libxml2 SAX with empty callbacks (C)",
            unit: "elements/s",
            anchorage: reading,
            baseline: raw,
            goal: .valueAtLeast(1_000_000)
        )
    }

    /// Imports `export` into a new store per run: records per second, and
    /// the process's peak memory.
    func runImportBenchmarks(export: URL, work: URL, report: inout Report) async throws {
        var rates: [Double] = []
        var megabytes: [Double] = []
        var anonymous: [Double] = []
        let size = (try FileManager.default.attributesOfItem(atPath: export.path)[.size] as? Int) ?? 0
        for run in 1...runs {
            progress("import \(export.lastPathComponent) (\(size / 1_000_000) MB), run \(run)/\(runs)")
            let directory = work.appendingPathComponent("import-\(run)")
            let store = HKHealthStore(directory: directory)
            let start = ContinuousClock.now
            // Anonymous memory (heap, stacks) has no peak field: sample it.
            let sampler = Task.detached {
                var peak = 0
                while !Task.isCancelled {
                    peak = max(peak, Self.statusBytes("RssAnon:"))
                    try? await Task.sleep(for: .milliseconds(50))
                }
                return peak
            }
            let summary = try await HealthExportImporter(store: store).importExport(at: export)
            let elapsed = (ContinuousClock.now - start).seconds
            sampler.cancel()
            anonymous.append(Double(await sampler.value) / 1_000_000)
            let elements = summary.read.values.reduce(0, +) + summary.unknown.values.reduce(0, +)
            rates.append(Double(elements) / elapsed)
            megabytes.append(Double(Self.peakResidentBytes()) / 1_000_000)
            await store.close()
            try? FileManager.default.removeItem(at: directory)
        }
        report.add(
            name: "import: \(size / 1_000_000) MB export.xml, records per second, durable, all indices and views",
            unit: "records/s",
            anchorage: rates,
            baseline: [],
            goal: .valueAtLeast(100_000)
        )
        report.add(
            name: "import: peak resident memory, mapped store pages included (1 GB export: goal < 300 MB)",
            unit: "MB",
            anchorage: megabytes,
            baseline: []
        )
        report.add(
            name: "import: peak anonymous memory (heap and stacks; the rest of RSS is the store's mapped file)",
            unit: "MB",
            anchorage: anonymous,
            baseline: [],
            goal: .valueAtMost(100)
        )
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

    /// `VmHWM` of /proc/self/status, in bytes; 0 where there is none.
    static func peakResidentBytes() -> Int {
        statusBytes("VmHWM:")
    }

    /// A field of /proc/`process`/status given in kB, in bytes; 0 where
    /// there is none.
    static func statusBytes(_ field: String, process: String = "self") -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1_024 }
        }
        return 0
    }
}
