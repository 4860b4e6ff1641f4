import ArgumentParser
import Foundation

/// Measures the event log against raw LMDB on the same machine, in the same
/// run. Driven by `Scripts/bench`, which builds it in release mode and
/// compiles the raw-LMDB baseline.
@main
struct AnchorageBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "AnchorageBench",
        abstract: "Benchmarks the Anchorage event log beside raw LMDB.",
        discussion: "Prints medians of several runs and the ratio Anchorage / raw LMDB, and writes them as JSON."
    )

    @Option(help: "Entries appended and read back per run.")
    var entries = 1_000_000

    @Option(help: "Entries per append batch (and per raw LMDB transaction).")
    var batch = 1_000

    @Option(help: "Payload bytes per entry.")
    var payload = 100

    @Option(help: "Runs per workload; the median is reported.")
    var runs = 5

    @Option(help: "The raw LMDB baseline executable (Scripts/bench compiles it).")
    var rawLMDB: String?

    @Option(help: "The raw libxml2 SAX baseline executable (Scripts/bench compiles it).")
    var rawSax: String?

    @Option(
        help: "The wrk script that posts fresh samples (suite http; Scripts/bench gives it, and wrk must be on PATH)."
    )
    var wrkScript: String?

    @Option(help: "Where to write the results as JSON.")
    var json: String?

    @Option(help: "Directory for the stores (default: a temporary directory under .build/bench).")
    var workDirectory: String = ".build/bench/work"

    @Option(help: "An export.xml to import (Scripts/bench writes one with Scripts/generate-health-export).")
    var export: String?

    @Option(help: "An export folder with route and ECG files to import (suite series; Scripts/bench writes one).")
    var routesExport: String?

    @Option(
        help:
            "An export.xml in the iOS 8 form with ten years of day-long records (suite import; Scripts/bench writes one with Scripts/generate-old-health-export)."
    )
    var oldExport: String?

    @Option(
        help:
            "Which benchmarks to run: all, log, model, store, small (1-sample saves beside 1-entry appends, 64 callers), statistics, import, reading (the import's XML reading alone), series (routes, heartbeats, ECGs), feed, http (saves over HTTP), hostile (saves beside hostile clients), sync, audit or stores (many stores in one node)."
    )
    var suite: Suite = .all

    @Option(help: "Samples saved and read back per store run.")
    var samples = 1_000_000

    @Option(help: "Minutes of step data per source in the statistics runs (a year: 525600).")
    var statisticsMinutes = 525_600

    @Option(
        help:
            "Stores the stores suite creates and fills (issue 33's goals are for 100,000: about 9 GB, 6 minutes on an idle disk, much longer on a shared one)."
    )
    var storesCount = 10_000

    @Option(help: "Primaries the fleet suite kills with -9, one round each.")
    var fleetRounds = 20

    @Option(help: "Stores the fleet suite places before killing a node, to time their re-replication.")
    var fleetStores = 1_000

    @Flag(help: "Exit with status 1 when a row is below its goal (for local use; CI does not run the bench).")
    var check = false

    /// Set for the process that runs one suite of `--suite all`: it writes
    /// its rows as JSON and prints no table.
    @Flag(help: .hidden)
    var suiteChild = false

    @Option(help: .hidden)
    var syncChildStore: String?

    @Option(help: .hidden)
    var syncChildPeer: String?

    enum Suite: String, ExpressibleByArgument {
        case all, log, model, store, small, statistics, `import`, reading, feed, http, hostile, sync, audit, stores,
            fleet, series, sealed, updates
        /// The HTTP suite's write shapes beside PostgreSQL alone (`http` runs them too).
        case writes

        /// The suites `all` runs, each in a process of its own (`import`
        /// includes the reading row).
        static let eachAlone: [Suite] = [
            .log, .model, .store, .small, .statistics, .import, .series, .feed, .http, .hostile, .sync, .audit, .stores,
            .fleet, .sealed, .updates,
        ]
    }

    func validate() throws {
        guard entries >= 1, batch >= 1, payload >= 0, runs >= 1, storesCount >= 1, fleetRounds >= 1, fleetStores >= 1
        else {
            throw ValidationError("entries, batch, runs and stores-count must be at least 1; payload at least 0")
        }
    }

    func run() async throws {
        if let syncChildStore, let syncChildPeer {
            try await Self.runSyncChild(store: syncChildStore, peer: syncChildPeer)
            return
        }
        let work = URL(fileURLWithPath: workDirectory).appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }

        let parameters = LogBenchmarks.Parameters(entries: entries, batch: batch, payload: payload)
        var report = Report(parameters: parameters, runs: runs)
        if suite == .all {
            // Each suite in a fresh process: a row measures its own workload,
            // not the memory and files earlier suites left behind.
            for name in Suite.eachAlone where name != .import || export != nil {
                report.append(try runAlone(name, work: work))
            }
            try finish(report)
            return
        }
        let suites: [(Suite, (inout Report) async throws -> Void)] = [
            (.log, { try await runLogBenchmarks(parameters: parameters, work: work, report: &$0) }),
            (.model, { try await runModelBenchmarks(report: &$0) }),
            (.store, { try await runStoreBenchmarks(work: work, report: &$0) }),
            (.small, { try await runSmallWriteBenchmarks(parameters: parameters, work: work, report: &$0) }),
            (.statistics, { try await runStatisticsBenchmarks(work: work, report: &$0) }),
            (.feed, { try await runFeedBenchmarks(work: work, report: &$0) }),
            (.http, { try await runHTTPSaveBenchmarks(work: work, report: &$0) }),
            (.writes, { try await runWrkSaveBenchmarks(work: work, report: &$0) }),
            (.hostile, { try await runHostileLoad(work: work, report: &$0) }),
            (.audit, { try await runAuditBenchmarks(work: work, report: &$0) }),
            (.sync, { try await runSyncBenchmarks(work: work, report: &$0) }),
            (.stores, { try await runManyStoresBenchmarks(work: work, report: &$0) }),
            (.fleet, { try await runFleetBenchmarks(report: &$0) }),
            (.series, { try await runSeriesBenchmarks(work: work, report: &$0) }),
            (.sealed, { try await runSealedBenchmarks(work: work, report: &$0) }),
            (.updates, { try await runStoreUpdatesBenchmarks(work: work, report: &$0) }),
        ]
        for (name, runSuite) in suites where suite == name {
            try await runSuite(&report)
        }
        if suite == .import || suite == .reading, let export {
            try await runReadingBenchmark(export: URL(fileURLWithPath: export), report: &report)
            if suite != .reading {
                try await runImportBenchmarks(export: URL(fileURLWithPath: export), work: work, report: &report)
                if let oldExport {
                    try await runOldImportBenchmarks(
                        export: URL(fileURLWithPath: oldExport),
                        work: work,
                        report: &report
                    )
                }
            }
        }
        try finish(report)
    }

    /// Prints the table (not in a suite's own process), writes the JSON,
    /// and with `--check` fails when a row missed its goal.
    private func finish(_ report: Report) throws {
        if !suiteChild { print(report.table()) }
        if let json {
            try report.json().write(to: URL(fileURLWithPath: json))
            if !suiteChild { print("results written to \(json)") }
        }
        let missed = report.rows.filter { $0.goalMet == false }
        if check && !suiteChild && !missed.isEmpty {
            print("--check: \(missed.count) rows below their goals")
            throw ExitCode(1)
        }
    }

    private func runModelBenchmarks(report: inout Report) async throws {
        let model = ModelBenchmarks(count: 1_000_000)
        let payloads = model.payloads()
        let measured = try await eachRun { run in
            progress("model run \(run)/\(runs)")
            return (
                creation: ModelBenchmarks.create(count: 1_000_000),
                uuid: ModelBenchmarks.foundationUUIDs(count: 1_000_000),
                encode: model.encode(),
                decode: try model.decode(payloads),
                conversion: model.convert(count: 10_000_000),
                evaluation: try model.evaluate()
            )
        }
        report.add(.createSamples, anchorage: measured.map(\.creation), baseline: measured.map(\.uuid))
        report.add(.encodePayloads, anchorage: measured.map(\.encode))
        report.add(.decodePayloads, anchorage: measured.map(\.decode))
        report.add(.unitConversion, anchorage: measured.map(\.conversion))
        report.add(.predicateEvaluation, anchorage: measured.map(\.evaluation))
    }

    private func runLogBenchmarks(parameters: LogBenchmarks.Parameters, work: URL, report: inout Report) async throws {
        let benchmarks = LogBenchmarks(parameters: parameters, workDirectory: work)

        var baseline: [RawLMDB.Run] = []
        if let rawLMDB {
            let raw = RawLMDB(executable: rawLMDB, workDirectory: work)
            baseline = try await eachRun { run in
                progress("raw LMDB run \(run)/\(runs)")
                return try raw.run(entries: entries, batch: batch, valueBytes: payload)
            }
            progress("raw LMDB, one entry per transaction")
            let single = try raw.run(entries: min(entries, 20_000), batch: 1, valueBytes: payload)
            report.add(.rawSingleEntryTransactions, anchorage: [], baseline: [single.appendRate])
        }

        let measured = try await eachRun { run in
            progress("append + catch-up run \(run)/\(runs), with and without zeros ahead")
            return (
                with: try await benchmarks.appendThenCatchUp(run: run),
                without: try await benchmarks.appendThenCatchUp(run: run, zerosAhead: false)
            )
        }
        let appended = measured.map(\.with)
        report.add(.append(batch: batch), anchorage: appended.map(\.appendRate), baseline: baseline.map(\.appendRate))
        report.add(
            .appendZerosAhead(batch: batch),
            anchorage: appended.map(\.appendRate),
            baseline: measured.map(\.without.appendRate)
        )
        report.add(.catchUp, anchorage: appended.map(\.catchUpRate), baseline: baseline.map(\.scanRate))
        report.add(
            .dataFileSize,
            anchorage: appended.map { Double($0.fileBytes) },
            baseline: baseline.map { Double($0.fileBytes) }
        )

        let concurrent = try await eachRun { run in
            progress("concurrent appends run \(run)/\(runs)")
            return (
                batches: try await benchmarks.concurrentAppends(run: run, callers: 8, batch: batch),
                singles: try await benchmarks.concurrentAppends(run: run, callers: 64, batch: 1)
            )
        }
        report.add(
            .concurrentAppends(batch: batch),
            anchorage: concurrent.map(\.batches),
            baseline: baseline.map(\.appendRate)
        )
        report.add(.groupCommit, anchorage: concurrent.map(\.singles))
    }

    /// Suite small: 1-sample saves from 64 callers beside the log's 1-entry
    /// appends from 64 callers, and how many entries each durable
    /// transaction groups in both.
    private func runSmallWriteBenchmarks(
        parameters: LogBenchmarks.Parameters,
        work: URL,
        report: inout Report
    ) async throws {
        let store = StoreBenchmarks(samples: samples, workDirectory: work)
        let log = LogBenchmarks(parameters: parameters, workDirectory: work)
        let measured = try await eachRun { run in
            progress("small writes run \(run)/\(runs): 64 callers saving 1 sample each, then the log alone")
            return (
                singles: try await store.concurrentSavesGrouped(run: run, callers: 64, batch: 1, total: 20_000),
                logSingles: try await log.concurrentAppendsGrouped(run: run, callers: 64, batch: 1)
            )
        }
        report.add(
            .storeSingleSaves,
            anchorage: measured.map(\.singles.rate),
            baseline: measured.map(\.logSingles.rate)
        )
        report.add(
            .storeSingleSavesGrouping,
            anchorage: measured.map(\.singles.entriesPerCommit),
            baseline: measured.map(\.logSingles.entriesPerCommit)
        )
    }

    private func runStoreBenchmarks(work: URL, report: inout Report) async throws {
        let store = StoreBenchmarks(samples: samples, workDirectory: work)
        let measured = try await eachRun { run in
            // Raw LMDB doing the same four puts per sample: the floor under the store.
            let floor = try rawLMDB.map { executable in
                progress("raw LMDB with the index's rows run \(run)/\(runs)")
                let raw = RawLMDB(executable: executable, workDirectory: work)
                return try raw.run(
                    entries: samples,
                    batch: 1_000,
                    valueBytes: StoreBenchmarks.entryBytes,
                    indexed: true
                )
                .appendRate
            }
            progress("store save + catch-up + query run \(run)/\(runs)")
            let result = try await store.saveThenRead(run: run, batch: 1_000)
            progress("store concurrent saves run \(run)/\(runs)")
            return (
                floor: floor,
                result: result,
                concurrent: try await store.concurrentSaves(
                    run: run,
                    callers: 8,
                    batch: 1_000,
                    total: min(samples, 800_000)
                )
            )
        }
        let floor = measured.compactMap(\.floor)
        let results = measured.map(\.result)
        report.add(.storeSave, anchorage: results.map(\.saveRate), baseline: floor)
        report.add(.storeConcurrentSaves, anchorage: measured.map(\.concurrent), baseline: floor)
        report.add(.storeRebuild, anchorage: results.map(\.rebuildRate))
        report.add(.storeCatchUp(samples: samples), anchorage: results.map(\.catchUpRate))
        report.add(.storeQuery(samples: samples), anchorage: results.map(\.queryMilliseconds))
        report.add(.storeQueryRows, anchorage: results.map(\.queryRowsRead))
    }

    /// What `body` measures in each run, from 1 to `runs` (at most
    /// `limit`), in order.
    func eachRun<Measured>(
        atMost limit: Int = .max,
        _ body: (_ run: Int) async throws -> Measured
    ) async rethrows -> [Measured] {
        var measured: [Measured] = []
        for run in 1...min(runs, limit) {
            measured.append(try await body(run))
        }
        return measured
    }

    func progress(_ message: String) {
        FileHandle.standardError.write(Data("· \(message)\n".utf8))
    }
}
