import Anchorage
import AnchorageLog
import AnchorageTesting
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

    /// Imports `export` into a new store per run: records per second, the
    /// process's peak memory, and the size of the store's projections
    /// beside its log.
    func runImportBenchmarks(export: URL, work: URL, report: inout Report) async throws {
        let size = (try FileManager.default.attributesOfItem(atPath: export.path)[.size] as? Int) ?? 0
        let measured = try await eachRun { run in
            progress("import \(export.lastPathComponent) (\(size / 1_000_000) MB), run \(run)/\(runs)")
            return try await Self.importOnce(export, into: work.appendingPathComponent("import-\(run)"))
        }
        report.add(.importRate(megabytes: size / 1_000_000), anchorage: measured.map(\.rate))
        report.add(.importPeakMemory, anchorage: measured.map(\.peak))
        report.add(.importAnonymousMemory, anchorage: measured.map(\.anonymous))
        report.add(.importProjections(megabytes: size / 1_000_000), anchorage: measured.map(\.projections))
    }

    /// The same for ten years of day-long records in the iOS 8 form.
    func runOldImportBenchmarks(export: URL, work: URL, report: inout Report) async throws {
        let measured = try await eachRun { run in
            progress("import \(export.lastPathComponent) (ten years, iOS 8 form), run \(run)/\(runs)")
            return try await Self.importOnce(export, into: work.appendingPathComponent("import-old-\(run)"))
        }
        report.add(.oldImportRate, anchorage: measured.map(\.rate))
        report.add(.oldImportPeakMemory, anchorage: measured.map(\.peak))
        report.add(.oldImportProjections, anchorage: measured.map(\.projections))
    }

    struct ImportRun {
        var rate: Double
        var peak: Double
        var anonymous: Double
        /// projections.mdb's size over data.mdb's.
        var projections: Double
        /// The elements read, by name.
        var read: [String: Int]
    }

    /// Imports `export` into a new store at `directory` and compacts it as
    /// `anchorage import` does, then removes it.
    static func importOnce(
        _ export: URL,
        into directory: URL,
        sealing: EventLog.Sealing = .off
    ) async throws -> ImportRun {
        try? FileManager.default.removeItem(at: directory)
        // The peak of this import, not of an earlier one in this process.
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        // Committed as `anchorage import` commits (see ImportCommand).
        var configuration = HKHealthStore.Configuration()
        configuration.log.durability = .noMetaSync
        configuration.log.sealing = sealing
        let store = HKHealthStore(directory: directory, configuration: configuration)
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
        // As `anchorage import` does when it is done; its time counts.
        let (compacting, _) = try await timed { try HealthExportImporter.compactStore(at: directory) }
        // The disk each file takes (its allocated blocks): the projections'
        // file is as long as their map, sparse past what they wrote.
        func bytes(_ name: String) -> Double {
            Double(allocatedBytes(atPath: directory.appendingPathComponent(name).path))
        }
        let projections = bytes("projections.mdb") / max(1, bytes("data.mdb"))
        try? FileManager.default.removeItem(at: directory)
        return ImportRun(
            rate: Double(elements) / (seconds + compacting),
            peak: peak,
            anonymous: anonymous,
            projections: projections,
            read: summary.read
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
}
