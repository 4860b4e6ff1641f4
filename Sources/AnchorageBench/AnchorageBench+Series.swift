import Anchorage
import AppleHealthImport
import Foundation

extension AnchorageBench {
    /// Suite series: routes, heartbeats and ECGs — an import of an export
    /// with route and ECG files, reading a route's and an ECG's points,
    /// the size of a feed page among them, and plain saves beside them.
    func runSeriesBenchmarks(work: URL, report: inout Report) async throws {
        if let routesExport {
            try await runRoutesImport(export: URL(fileURLWithPath: routesExport), work: work, report: &report)
        }
        try await runSeriesReads(work: work, report: &report)
        try await runPlainSavesBesideSeries(work: work, report: &report)
    }

    /// Imports the export (folder) with its side files into a new store per run.
    private func runRoutesImport(export: URL, work: URL, report: inout Report) async throws {
        let measured = try await eachRun { run in
            progress("import with routes and ECGs, run \(run)/\(runs)")
            let imported = try await Self.importOnce(export, into: work.appendingPathComponent("series-import-\(run)"))
            guard imported.read["WorkoutRoute"] ?? 0 >= 300, imported.read["Electrocardiogram"] ?? 0 >= 50 else {
                throw BenchFailure(
                    message: "the routes export holds fewer than 300 routes or 50 ECGs: \(imported.read)"
                )
            }
            return (rate: imported.rate, anonymous: imported.anonymous)
        }
        report.add(.seriesImportRate, anchorage: measured.map(\.rate))
        report.add(.seriesImportAnonymousMemory, anchorage: measured.map(\.anonymous))
    }

    /// A 1-hour route and a 30 s ECG read through their queries, and a feed
    /// page of 10,000 changes of which one in ten is a route or an ECG.
    private func runSeriesReads(work: URL, report: inout Report) async throws {
        let directory = work.appendingPathComponent("series-reads")
        let store = HKHealthStore(directory: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let run = HKWorkout(activityType: .running, start: start, end: start.addingTimeInterval(3_600))
        try await store.save(run)
        let builder = HKWorkoutRouteBuilder(healthStore: store, device: nil)
        try await builder.insertRouteData(Self.hourOfLocations(from: start))
        let route = try await builder.finishRoute(with: run, metadata: nil)
        let ecg = try Self.recording(at: start)
        try await store.save(ecg)

        let routeTimes = try await eachRun { run in
            progress("route query, run \(run)/\(runs)")
            var times: [Double] = []
            for _ in 0..<50 {
                let (seconds, count) = try await timed { try await Self.readRoute(route, in: store) }
                guard count == 3_600 else { throw BenchFailure(message: "the route query read \(count) locations") }
                times.append(seconds * 1_000)
            }
            return times.sorted()[times.count / 2]
        }
        report.add(.routeQuery, anchorage: routeTimes)
        let ecgTimes = try await eachRun { run in
            progress("ECG query, run \(run)/\(runs)")
            var times: [Double] = []
            for _ in 0..<50 {
                let (seconds, count) = try await timed { try await Self.readVoltages(ecg, in: store) }
                guard count == 15_360 else { throw BenchFailure(message: "the ECG query read \(count) voltages") }
                times.append(seconds * 1_000)
            }
            return times.sorted()[times.count / 2]
        }
        report.add(.electrocardiogramQuery, anchorage: ecgTimes)

        // 10,000 changes: one in ten a route (3,600 locations) or an ECG (15,360 voltages).
        var objects: [HKSample] = []
        var generator = ObjectGeneratorLite(start: start)
        for index in 0..<9_998 {
            objects.append(
                index % 10 == 0
                    ? (index % 20 == 0
                        ? try generator.route() : try Self.recording(at: start.addingTimeInterval(Double(index))))
                    : generator.steps(index)
            )
            if objects.count == 1_000 {
                try await store.save(objects)
                objects = []
            }
        }
        if !objects.isEmpty { try await store.save(objects) }
        let pageBytes = try await eachRun { run in
            progress("feed page with series, run \(run)/\(runs)")
            return Double(try await Self.feedPageBytes(store))
        }
        report.add(.seriesFeedPage, anchorage: pageBytes)
        await store.close()
    }

    /// What is saved, not timed, before each batch of plain step samples.
    private enum BetweenBatches: CaseIterable {
        /// A step sample: the plain saves' own type only.
        case sameType
        /// A small sample of another type (a mindful session).
        case otherType
        /// A 1-hour route (300 of them) or a 30 s ECG (50).
        case series
    }

    /// Plain saves with one more save before each batch, not timed, 350 of
    /// them: the same commits in each variant. Two rows: a series against
    /// a small sample of another type shows what storing series costs the
    /// plain saves; another type against the same type shows what any
    /// second type costs them (its keys sort after the step samples' in
    /// the index, so their rows are no longer appended at the end of the
    /// B-trees: LMDB's `MDB_APPEND` gives way to an ordinary insert).
    private func runPlainSavesBesideSeries(work: URL, report: inout Report) async throws {
        let count = min(samples, 200_000)
        let measured = try await eachRun { run in
            progress("plain saves beside series, run \(run)/\(runs)")
            var rates: [BetweenBatches: Double] = [:]
            for variant in BetweenBatches.allCases {
                let directory = work.appendingPathComponent("series-saves-\(run)-\(variant)")
                let store = HKHealthStore(directory: directory)
                var generator = ObjectGeneratorLite(start: Date(timeIntervalSince1970: 1_700_000_000))
                var extra: [HKSample] = []
                for index in 0..<350 {
                    switch variant {
                    case .sameType: extra.append(generator.steps(index))
                    case .otherType: extra.append(generator.session(index))
                    case .series:
                        extra.append(
                            index < 300
                                ? try generator.route()
                                : try Self.recording(
                                    at: Date(timeIntervalSince1970: 1_690_000_000 + Double(index) * 60)
                                )
                        )
                    }
                }
                let batches = stride(from: 0, to: count, by: 1_000).map {
                    StoreBenchmarks.makeSamples(min(1_000, count - $0), first: $0)
                }
                var seconds = 0.0
                for (index, batch) in batches.enumerated() {
                    if index < extra.count { try await store.save(extra[index]) }
                    seconds += try await timed { try await store.save(batch) }.seconds
                }
                if batches.count < extra.count { try await store.save(Array(extra[batches.count...])) }
                rates[variant] = Double(count) / seconds
                await store.close()
                try? FileManager.default.removeItem(at: directory)
            }
            return rates
        }
        report.add(
            .plainSavesBesideSeries,
            anchorage: measured.map { $0[.series]! },
            baseline: measured.map { $0[.otherType]! }
        )
        report.add(
            .plainSavesBesideOtherType,
            anchorage: measured.map { $0[.otherType]! },
            baseline: measured.map { $0[.sameType]! }
        )
    }

    static func hourOfLocations(from start: Date) -> [CLLocation] {
        (0..<3_600).map { second in
            CLLocation(
                coordinate: CLLocationCoordinate2D(latitude: 47.6 + Double(second) * 2e-5, longitude: -122.3),
                altitude: 40,
                horizontalAccuracy: 4,
                verticalAccuracy: 3,
                course: 10,
                speed: 3,
                timestamp: start.addingTimeInterval(Double(second))
            )
        }
    }

    static func recording(at start: Date) throws -> HKElectrocardiogram {
        try HKElectrocardiogram.stored(
            start: start,
            end: start.addingTimeInterval(30),
            classification: .sinusRhythm,
            symptomsStatus: .none,
            averageHeartRate: HKQuantity(unit: HKUnit(from: "count/min"), doubleValue: 62),
            samplingFrequency: HKQuantity(unit: .hertz(), doubleValue: 512),
            voltages: [.appleWatchSimilarToLeadI: (0..<15_360).map { sin(Double($0) / 40) * 6e-4 }],
            uuid: UUID(),
            sourceRevision: HKSourceRevision(
                source: HKSource(name: "ECG", bundleIdentifier: "com.example.ecg"),
                version: nil
            )
        )
    }

    /// Reads every location of `route` with `HKWorkoutRouteQuery`.
    static func readRoute(_ route: HKWorkoutRoute, in store: HKHealthStore) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let counter = Counter()
            store.execute(
                HKWorkoutRouteQuery(route: route) { _, locations, done, error in
                    if let error { return continuation.resume(throwing: error) }
                    counter.add(locations?.count ?? 0)
                    if done { continuation.resume(returning: counter.value) }
                }
            )
        }
    }

    /// Reads every measurement of `ecg` with `HKElectrocardiogramQuery`.
    static func readVoltages(_ ecg: HKElectrocardiogram, in store: HKHealthStore) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let counter = Counter()
            store.execute(
                HKElectrocardiogramQuery(ecg) { _, result in
                    switch result {
                    case .measurement: counter.add(1)
                    case .done: continuation.resume(returning: counter.value)
                    case .error(let error): continuation.resume(throwing: error)
                    }
                }
            )
        }
    }

    /// The bytes of the change feed's first JSON page of 10,000 changes, as
    /// the node writes it: every object in its JSON form.
    static func feedPageBytes(_ store: HKHealthStore) async throws -> Int {
        let types: [HKSampleType] = [
            HKQuantityType(.stepCount), HKSeriesType.workoutRoute(), HKObjectType.electrocardiogramType(),
        ]
        let page = try await HKAnchoredObjectQueryDescriptor(
            predicates: types.map { HKSamplePredicate<HKSample>.sample(type: $0) },
            anchor: nil,
            limit: 10_000
        ).result(for: store)
        var writer = HealthObjectWriter()
        var bytes: [UInt8] = []
        for sample in page.addedSamples { try writer.append(sample, to: &bytes) }
        guard page.addedSamples.count == 10_000 else {
            throw BenchFailure(message: "the feed page holds \(page.addedSamples.count) changes")
        }
        return bytes.count
    }
}

/// Counts from concurrent callbacks.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ n: Int) { lock.withLock { count += n } }
    var value: Int { lock.withLock { count } }
}

/// Routes and step samples for the series benchmarks.
struct ObjectGeneratorLite {
    var start: Date
    var routes = 0

    mutating func route() throws -> HKWorkoutRoute {
        routes += 1
        let from = start.addingTimeInterval(Double(routes) * 7_200)
        return try HKWorkoutRoute.make(
            points: HKWorkoutRoute.points(AnchorageBench.hourOfLocations(from: from)),
            SampleFields(
                start: from,
                end: from.addingTimeInterval(3_599),
                uuid: UUID(),
                sourceRevision: .local,
                device: nil,
                metadata: .empty
            )
        )
    }

    /// A 10-minute mindful session every two hours: a small sample of
    /// another type than the plain saves'.
    func session(_ index: Int) -> HKCategorySample {
        let at = start.addingTimeInterval(Double(index) * 7_200)
        return HKCategorySample(
            type: HKCategoryType(.mindfulSession),
            value: 0,
            start: at,
            end: at.addingTimeInterval(600)
        )
    }

    func steps(_ index: Int) -> HKQuantitySample {
        let at = start.addingTimeInterval(Double(index) * 60)
        return HKQuantitySample(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: Double(index % 300)),
            start: at,
            end: at.addingTimeInterval(60)
        )
    }
}
