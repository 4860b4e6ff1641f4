import Anchorage
import AnchorageKeys
import AnchorageLog
import AnchorageService
import Foundation

/// Suite `sealed`: the store's workloads with its entries sealed, each
/// beside the same workload unsealed in the same run, alternating.
extension AnchorageBench {
    func runSealedBenchmarks(work: URL, report: inout Report) async throws {
        let key = DataKey.generate()
        let samples = 100_000
        struct Run {
            var batch: (sealed: Double, plain: Double)
            var single: (sealed: Double, plain: Double)
            var catchUp: (sealed: Double, plain: Double)
            var statistics: (sealed: Double, plain: Double)
            var bytes: (sealed: Double, plain: Double)
            var imported: (sealed: Double, plain: Double)
        }
        let measured = try await eachRun { run -> Run in
            progress("sealed run \(run)/\(runs)")
            var result = Run(
                batch: (0, 0),
                single: (0, 0),
                catchUp: (0, 0),
                statistics: (0, 0),
                bytes: (0, 0),
                imported: (0, 0)
            )
            // Plain first on even runs, sealed first on odd ones.
            for sealed in run % 2 == 0 ? [false, true] : [true, false] {
                let sealing: EventLog.Sealing = sealed ? .sealed([key]) : .off
                let directory = work.appending(path: "sealed-\(run)-\(sealed)")
                var configuration = HKHealthStore.Configuration()
                configuration.log.sealing = sealing
                let store = HKHealthStore(directory: directory, configuration: configuration)
                let batches = stride(from: 0, to: samples, by: 1_000).map {
                    StoreBenchmarks.makeSamples(1_000, first: $0)
                }
                let batchRate = try await rate(samples) {
                    for batch in batches { try await store.save(batch) }
                }
                let catchUpRate = try await rate(samples) {
                    _ = try await StoreBenchmarks.catchUp(store, pageSize: 1_000)
                }
                let queries = 200
                let statisticsRate = try await rate(queries) {
                    for index in 0..<queries {
                        let start = StoreBenchmarks.origin.addingTimeInterval(Double(index % 10) * 3_600)
                        let range = HKQuery.predicateForSamples(
                            withStart: start,
                            end: start.addingTimeInterval(35 * 86_400)
                        )
                        _ = try await HKStatisticsCollectionQueryDescriptor(
                            predicate: .quantitySample(type: StoreBenchmarks.steps, predicate: range),
                            options: .cumulativeSum,
                            anchorDate: StoreBenchmarks.origin,
                            intervalComponents: DateComponents(day: 1)
                        ).result(for: store)
                    }
                }
                // The log's pages (its file also holds zeros the writer keeps ahead).
                let bytes = try store.eventLog().storedBytesByFile().log
                await store.close()
                let singleRate = try await Self.singleSaves(
                    at: work.appending(path: "sealed-single-\(run)-\(sealed)"),
                    sealing: sealing,
                    callers: 64,
                    total: 6_400
                )
                try? FileManager.default.removeItem(at: directory)
                // `anchorage import`'s work, when Scripts/bench gives an export.
                var importRate = 0.0
                if let export {
                    importRate = try await Self.importOnce(
                        URL(fileURLWithPath: export),
                        into: work.appending(path: "sealed-import-\(run)-\(sealed)"),
                        sealing: sealing
                    ).rate
                }
                if sealed { result.imported.sealed = importRate } else { result.imported.plain = importRate }
                if sealed {
                    result.batch.sealed = batchRate
                    result.catchUp.sealed = catchUpRate
                    result.statistics.sealed = statisticsRate
                    result.bytes.sealed = Double(bytes)
                    result.single.sealed = singleRate
                } else {
                    result.batch.plain = batchRate
                    result.catchUp.plain = catchUpRate
                    result.statistics.plain = statisticsRate
                    result.bytes.plain = Double(bytes)
                    result.single.plain = singleRate
                }
            }
            return result
        }
        for (workload, pair) in [
            (Workload.sealedBatchSaves, { (run: Run) in run.batch }),
            (.sealedSingleSaves, { $0.single }),
            (.sealedCatchUp, { $0.catchUp }),
            (.sealedStatistics, { $0.statistics }),
            (.sealedDataFile, { $0.bytes }),
        ] + (export == nil ? [] : [(.sealedImport, { $0.imported })])
            as [(Workload, (Run) -> (sealed: Double, plain: Double))]
        {
            report.add(workload, anchorage: measured.map { pair($0).sealed }, baseline: measured.map { pair($0).plain })
        }
        if let http = try await sealedWrkSaves(work: work) {
            report.add(.sealedWrkSaves, anchorage: http.map(\.sealed), baseline: http.map(\.plain))
        }
        if let opens = try await coldOpensWithPKCS11(work: work) {
            report.add(.sealedColdOpenPKCS11, anchorage: [opens])
        } else {
            progress("sealed: SoftHSM2 is not installed (Scripts/bootstrap); the PKCS#11 row is left out")
        }
    }

    /// 1-sample saves from `callers` tasks, each durable.
    static func singleSaves(
        at directory: URL,
        sealing: EventLog.Sealing,
        callers: Int,
        total: Int
    ) async throws
        -> Double
    {
        var configuration = HKHealthStore.Configuration()
        configuration.log.sealing = sealing
        let store = HKHealthStore(directory: directory, configuration: configuration)
        let perCaller = total / callers
        let saved = try await rate(perCaller * callers) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for caller in 0..<callers {
                    group.addTask {
                        for index in 0..<perCaller {
                            try await store.save(StoreBenchmarks.makeSamples(1, first: caller * perCaller + index))
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        await store.close()
        try? FileManager.default.removeItem(at: directory)
        return saved
    }

    /// The p99, in milliseconds, of opening a cold sealed store of a
    /// registry whose data keys a SoftHSM2 token wraps: the key unwrapped on
    /// the token, the store opened, one read. `nil` without SoftHSM2.
    func coldOpensWithPKCS11(work: URL) async throws -> Double? {
        let module = "/usr/lib/softhsm/libsofthsm2.so"
        guard FileManager.default.fileExists(atPath: module),
            FileManager.default.fileExists(atPath: "/usr/bin/softhsm2-util")
        else { return nil }
        let hsm = work.appending(path: "softhsm")
        try FileManager.default.createDirectory(at: hsm.appending(path: "tokens"), withIntermediateDirectories: true)
        let conf = hsm.appending(path: "softhsm2.conf")
        try "directories.tokendir = \(hsm.path)/tokens\nobjectstore.backend = file\nlog.level = ERROR\n"
            .write(to: conf, atomically: true, encoding: .utf8)
        setenv("SOFTHSM2_CONF", conf.path, 1)
        let initialise = Process()
        initialise.executableURL = URL(filePath: "/usr/bin/softhsm2-util")
        initialise.arguments = ["--init-token", "--free", "--label", "bench", "--pin", "1234", "--so-pin", "5678"]
        initialise.standardOutput = FileHandle.nullDevice
        try initialise.run()
        initialise.waitUntilExit()
        let pin = hsm.appending(path: "pin")
        try "1234\n".write(to: pin, atomically: true, encoding: .utf8)
        var configuration = PKCS11Provider.Configuration(module: module, token: "bench", pinFile: pin)
        configuration.createsKey = true
        let provider = try await PKCS11Provider(configuration: configuration)
        let root = work.appending(path: "sealed-registry")
        let registry = try NodeRegistry(root: root)
        let keyring = StoreKeyring(registry: registry, provider: provider)
        let names = try (0..<200).map { try StoreName("s\($0)") }
        try registry.createStores(names)
        // Each store gets its key and a sample, then closes: cold.
        for name in names {
            var storeConfiguration = HKHealthStore.Configuration()
            storeConfiguration.log.durability = .none
            storeConfiguration.log.sealing = try await keyring.sealing(
                for: name,
                directory: registry.directory(of: name)
            )
            let store = HKHealthStore(directory: registry.directory(of: name), configuration: storeConfiguration)
            try await store.save(StoreBenchmarks.makeSamples(10))
            await store.close()
        }
        var times: [Double] = []
        for name in names {
            let started = ContinuousClock.now
            var storeConfiguration = HKHealthStore.Configuration()
            storeConfiguration.log.sealing = try await keyring.sealing(
                for: name,
                directory: registry.directory(of: name)
            )
            let store = HKHealthStore(directory: registry.directory(of: name), configuration: storeConfiguration)
            _ = try await StoreBenchmarks.catchUp(store, pageSize: 100)
            times.append((ContinuousClock.now - started).seconds * 1_000)
            await store.close()
        }
        times.sort()
        return times[min(times.count - 1, times.count * 99 / 100)]
    }
}
