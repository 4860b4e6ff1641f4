import AnchorageLog
import AnchorageStoreTesting
import AnchorageTestRun
import AnchorageTesting
import Foundation
import LMDB
import Testing

@_spi(Benchmarks) @testable import Anchorage

/// What a long sample costs the statistics views (one row, whatever its
/// span) and how the views answer the buckets it reaches.
@Suite("Statistics views: long samples", .ownThread)
struct StatisticsLongSampleTests {
    static let base = iso("2026-03-01T00:00:00Z")

    /// The number of rows of each views database, by name.
    static func rowCounts(_ store: HKHealthStore) throws -> [String: Int] {
        let engine = try store.engine()
        return try engine.read { txn in
            let views = engine.views
            var counts: [String: Int] = [:]
            for (name, database) in [("samples", views.samples), ("long", views.long), ("buckets", views.buckets)] {
                counts[name] = try txn.statistics(of: database).entries
            }
            return counts
        }
    }

    @Test(
        "ST-12, ST-16: a sample over an hour long costs one row, whether it lasts two hours or ten years, and no bucket row"
    )
    func longSamplesCostOneRow() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            let spans: [Double] = [3_601, 7_200, 86_340, 30 * 86_400, 3_650 * 86_400]
            try await store.save(
                spans.enumerated().map { position, span in
                    let start = Self.base.addingTimeInterval(Double(position) * 977)
                    return steps(1_000, from: start, to: start.addingTimeInterval(span))
                }
            )
            #expect(try Self.rowCounts(store) == ["samples": 0, "long": 5, "buckets": 0])
            // An hour-long sample is a short one: 4 fine rows, then roll-ups, merged only (one source).
            try await store.save(steps(10, from: Self.base, to: Self.base.addingTimeInterval(3_600)))
            let counts = try Self.rowCounts(store)
            #expect(counts["samples"] == 1 && counts["long"] == 5)
            #expect(counts["buckets"] == 4 + 1 + 1 + 1 + 1)
        }
    }

    @Test("ST-16, ST-24: day-long records from one app beside the phone's minutes, summed by day, merged and by source")
    func dayLongBesideMinutes() async throws {
        try await withTemporaryStore(
            configuration: statisticsConfiguration(timeZone: TimeZone(identifier: "America/Los_Angeles")!)
        ) {
            owner,
            directory in
            let pedometer = try await appStore(directory, "com.example.pedometer")
            let phone = try await appStore(directory, "com.example.phone")
            let zone = TimeZone(identifier: "America/Los_Angeles")!
            var days: [HKQuantitySample] = []
            var minutes: [HKQuantitySample] = []
            for day in 0..<30 {
                // 00:00 to 23:59 local, as imported histories of the iOS 8 era hold them.
                let midnight = Self.base.addingTimeInterval(
                    Double(day) * 86_400 - Double(zone.secondsFromGMT(for: Self.base))
                )
                days.append(steps(Double(5_000 + day * 37), from: midnight, to: midnight.addingTimeInterval(86_340)))
                if day % 3 == 0 {
                    for minute in stride(from: 420, to: 480, by: 7) {
                        let start = midnight.addingTimeInterval(Double(minute * 60))
                        minutes.append(steps(Double(60 + minute % 11), from: start, to: start.addingTimeInterval(240)))
                    }
                }
            }
            try await pedometer.save(days)
            try await phone.save(minutes)
            try await owner.setSourcePriority(["com.example.phone", "com.example.pedometer"], for: stepType)
            var interval = DateComponents(day: 1)
            interval.timeZone = zone
            let anchor = Self.base.addingTimeInterval(-Double(zone.secondsFromGMT(for: Self.base)))
            for options: HKStatisticsOptions in [
                [.cumulativeSum], [.cumulativeSum, .separateBySource], [.duration, .mostRecent],
                [.mostRecent, .separateBySource],
            ] {
                let grid = try BucketGrid(anchor: anchor, intervalComponents: interval, timeZone: zone)
                let reference = try await expectViewsAsReference(owner, stepType, grid: grid, options: options, "days")
                // 31 days: after March 8 the records' fixed -08:00 midnight is 01:00 in Los Angeles.
                #expect(reference.count == 31)
            }
            for app in [pedometer, phone] { await app.close() }
        }
    }

    @Test("The views of version 5 (day-long samples in the rows, long ones without a tier) are rebuilt on open")
    func versionFiveRebuilt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-long-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = HKHealthStore(directory: directory, configuration: statisticsConfiguration())
        try await first.save([
            steps(8_000, from: Self.base, to: Self.base.addingTimeInterval(86_340)),
            steps(30, from: Self.base.addingTimeInterval(600), to: Self.base.addingTimeInterval(660)),
            steps(900_000, from: Self.base, to: Self.base.addingTimeInterval(90 * 86_400)),
        ])
        let current = try viewDump(first)
        await first.close()
        // What version 5 wrote: a day-long sample's rows, a long sample keyed kind ‖ start ‖ seq.
        do {
            let kind = EntryKind(rawValue: stepType.kindCode)
            try writeProjectionsFile(in: directory) { txn in
                let meta = try #require(try txn.openDatabase(named: "meta"))
                let stored = try txn.value(forKey: Array("projection/statistics-views".utf8), in: meta)
                #expect(stored == UInt32(7).bigEndianBytes)
                try txn.put(UInt32(5).bigEndianBytes, forKey: Array("projection/statistics-views".utf8), in: meta)
                let buckets = try #require(try txn.openDatabase(named: "st.buckets"))
                let record = try #require(
                    ViewRecord(
                        [StatisticsSample(start: 0, end: 86_340, value: 8_000, seq: 1, source: 1, rank: 0)],
                        in: ViewLevel.window(level: 0, bucket: 5)
                    )
                )
                try record.withBytes(merged: false, style: nil) { value in
                    try txn.put(
                        Array(value),
                        forKey: ViewLevel.key(kind: kind, source: 1, level: 0, bucket: 5),
                        in: buckets
                    )
                }
                let long = try #require(try txn.openDatabase(named: "st.long"))
                try txn.put([UInt8](repeating: 0, count: 21), forKey: IndexKey.kindKey(kind, 7, 3), in: long)
            }
        }
        let again = HKHealthStore(directory: directory, configuration: statisticsConfiguration())
        #expect(try viewDump(again) == current, "rebuilt as version 7 writes them")
        await again.close()
    }
}
