import Anchorage
import AnchorageLog
import Foundation

/// The store workloads: saves with every index, anchored catch-up decoded
/// into objects, and date-range sample queries.
struct StoreBenchmarks {
    let samples: Int
    let workDirectory: URL

    static let steps = HKQuantityType(.stepCount)
    static let origin = Date(timeIntervalSince1970: 1_770_000_000)

    /// `count` one-minute step samples, consecutive from `first`.
    /// A store in `directory` holding `samples` step samples (one a
    /// minute), saved in batches of 10,000 without fsync: the fixture of
    /// the feed, sync and audit runs.
    static func filledStore(at directory: URL, samples: Int) async throws -> HKHealthStore {
        var configuration = HKHealthStore.Configuration()
        configuration.log.durability = .none
        let store = HKHealthStore(directory: directory, configuration: configuration)
        for first in stride(from: 0, to: samples, by: 10_000) {
            try await store.save(makeSamples(min(10_000, samples - first), first: first))
        }
        return store
    }

    static func makeSamples(_ count: Int, first: Int = 0) -> [HKSample] {
        (first..<first + count).map { index in
            let start = origin.addingTimeInterval(Double(index) * 60)
            return HKQuantitySample(
                type: steps,
                quantity: HKQuantity(unit: .count(), doubleValue: Double(index % 500)),
                start: start,
                end: start.addingTimeInterval(60)
            )
        }
    }

    /// The size of one saved sample's log entry: the 124-byte header and its payload.
    static var entryBytes: Int { 124 + PayloadCodec.encode(makeSamples(1)[0]).count }

    struct SaveAndRead {
        var saveRate: Double
        var rebuildRate: Double
        var catchUpRate: Double
        var queryMilliseconds: Double
        var queryRowsRead: Double
    }

    /// Saves `samples` in batches of `batch` from one caller (durable), then
    /// reads them all with anchored queries from a nil anchor, and times a
    /// date-range query matching 1,000 samples.
    func saveThenRead(run: Int, batch: Int) async throws -> SaveAndRead {
        let directory = workDirectory.appendingPathComponent("store-\(run)")
        let store = HKHealthStore(directory: directory)
        let batches = stride(from: 0, to: samples, by: batch).map {
            Self.makeSamples(min(batch, samples - $0), first: $0)
        }
        let saveRate = try await rate(samples) {
            for batch in batches { try await store.save(batch) }
        }

        var checksum = 0.0
        let (readSeconds, read) = try await timed {
            try await Self.catchUp(store, pageSize: 50_000) { page in
                for sample in page { checksum += sample.quantity.doubleValue(for: .count()) }
            }
        }
        precondition(read == samples && checksum > 0, "read \(read) samples")

        let (rebuildSeconds, rebuilt) = try await timed { try await store.rebuildIndices() }
        precondition(rebuilt == samples, "rebuilt \(rebuilt) entries")

        let middle = Self.origin.addingTimeInterval(Double(samples / 2) * 60)
        let range = HKQuery.predicateForSamples(
            withStart: middle,
            end: middle.addingTimeInterval(1_000 * 60),
            options: .strictStartDate
        )
        var times: [Double] = []
        var rows: [Double] = []
        for _ in 0..<20 {
            let before = store.statistics?.indexRowsRead ?? 0
            let (seconds, found) = try await timed {
                try await HKSampleQueryDescriptor(
                    predicates: [.quantitySample(type: Self.steps, predicate: range)],
                    sortDescriptors: []
                ).result(for: store)
            }
            times.append(seconds * 1_000)
            rows.append(Double((store.statistics?.indexRowsRead ?? 0) - before))
            precondition(found.count == min(1_000, samples / 2), "found \(found.count)")
        }
        await store.close()
        try FileManager.default.removeItem(at: directory)
        return SaveAndRead(
            saveRate: saveRate,
            rebuildRate: Double(samples) / rebuildSeconds,
            catchUpRate: Double(read) / readSeconds,
            queryMilliseconds: times.sorted()[times.count / 2],
            queryRowsRead: rows.sorted()[rows.count / 2]
        )
    }

    /// Reads every step sample of `store` from the beginning with anchored
    /// queries in pages of `pageSize`, as a client catching up does;
    /// `visit` sees each page's samples. Returns how many it read.
    static func catchUp(
        _ store: HKHealthStore,
        pageSize: Int,
        visit: ([HKQuantitySample]) -> Void = { _ in }
    ) async throws -> Int {
        var anchor: HKQueryAnchor?
        var read = 0
        while true {
            let page = try await HKAnchoredObjectQueryDescriptor(
                predicates: [.quantitySample(type: steps)],
                anchor: anchor,
                limit: pageSize
            ).result(for: store)
            visit(page.addedSamples)
            read += page.addedSamples.count
            anchor = page.newAnchor
            if page.addedSamples.count < pageSize { return read }
        }
    }

    /// Saves from `callers` concurrent tasks, each saving batches of `batch`
    /// samples; returns samples per second.
    func concurrentSaves(run: Int, callers: Int, batch: Int, total: Int) async throws -> Double {
        try await concurrentSavesGrouped(run: run, callers: callers, batch: batch, total: total).rate
    }

    /// The same, with how many log entries each durable transaction held on
    /// average.
    func concurrentSavesGrouped(
        run: Int,
        callers: Int,
        batch: Int,
        total: Int
    ) async throws -> (rate: Double, entriesPerCommit: Double) {
        let directory = workDirectory.appendingPathComponent("store-concurrent-\(run)-\(callers)-\(batch)")
        let store = HKHealthStore(directory: directory)
        let perCaller = total / callers
        let work = (0..<callers).map { caller in
            stride(from: 0, to: perCaller, by: batch).map {
                Self.makeSamples(min(batch, perCaller - $0), first: caller * perCaller + $0)
            }
        }
        let saved = try await rate(perCaller * callers) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for batches in work {
                    group.addTask {
                        for batch in batches { try await store.save(batch) }
                    }
                }
                try await group.waitForAll()
            }
        }
        let statistics = try store.eventLog().statistics
        await store.close()
        try FileManager.default.removeItem(at: directory)
        return (saved, Double(statistics.entries) / Double(max(1, statistics.commits)))
    }
}
