import AnchorageLog
import AnchorageStoreTesting
import AnchorageTestRun
import AnchorageTesting
import Foundation
import LMDB
import Testing

@_spi(Benchmarks) @testable import Anchorage

/// What the views store for sparse data and for buckets of one source: a
/// roll-up row only over two fine buckets with data or more, and a source's
/// own rows only where the bucket has several sources (docs/store-format.md,
/// "Sparse roll-ups" and "One source").
@Suite("Statistics views: sparse roll-ups and one-source buckets", .ownThread)
struct StatisticsRowSharingTests {
    /// A Monday (UTC), so that day and week rows start together.
    static let base = iso("2026-03-02T00:00:00Z")

    static func at(_ seconds: Double) -> Date { base.addingTimeInterval(seconds) }

    /// The number of `st.buckets` rows: all sources', and each source's.
    static func bucketRows(_ store: HKHealthStore) throws -> (merged: Int, bySource: Int) {
        let engine = try store.engine()
        return try engine.read { txn in
            var counts = (merged: 0, bySource: 0)
            try txn.withCursor(on: engine.views.buckets) { cursor in
                try cursor.scan { key, _ in
                    if key.uint32(at: 4) == StatisticsViews.merged { counts.merged += 1 } else { counts.bySource += 1 }
                    return true
                }
            }
            return counts
        }
    }

    /// The views' answers equal the reference evaluator's for every bucket
    /// of 15 minutes, hours, 4 hours, days and weeks over the first two
    /// weeks, merged and by source; every bucket is read from the views.
    static func expectAnswersAsReference(_ owner: HKHealthStore, _ step: String) async throws {
        for (minutes, days) in [(15, 0), (60, 0), (240, 0), (0, 1), (0, 7)] {
            var interval = DateComponents()
            if minutes > 0 { interval.minute = minutes } else { interval.day = days }
            let grid = try BucketGrid(anchor: base, intervalComponents: interval, timeZone: utc)
            for options: HKStatisticsOptions in [
                [.cumulativeSum, .separateBySource], [.duration, .mostRecent, .separateBySource], [.cumulativeSum],
            ] {
                try await expectViewsAsReference(owner, stepType, grid: grid, options: options, "\(step) \(interval)")
            }
        }
    }

    /// The rows the views hold are those a rebuild writes.
    static func expectRebuildIdentical(_ owner: HKHealthStore, _ step: String) async throws {
        let dump = try viewDump(owner)
        _ = try await owner.rebuildIndices()
        #expect(try viewDump(owner) == dump, "\(step): a rebuild writes other rows")
    }

    @Test(
        "ST-9, ST-16, ST-24: buckets going from one fine bucket to several and from one source to two and back keep the rows a rebuild writes, and answer as the reference, merged and by source"
    )
    func rowsFollowTheData() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { owner, directory in
            let watch = try await appStore(directory, "com.example.watch")
            let phone = try await appStore(directory, "com.example.phone")
            // One sample: its fine bucket's row, no roll-up, no source row.
            let first = steps(120, from: Self.at(9 * 3_600), to: Self.at(9 * 3_600 + 600))
            try await watch.save([first])
            #expect(try Self.bucketRows(owner) == (1, 0))
            try await Self.expectAnswersAsReference(owner, "one sample")
            // A second fine bucket in the same hour: the hour, 4 hours, day and week get rows.
            let second = steps(80, from: Self.at(9 * 3_600 + 1_200), to: Self.at(9 * 3_600 + 1_500))
            try await watch.save([second])
            #expect(try Self.bucketRows(owner) == (2 + 4, 0))
            try await Self.expectAnswersAsReference(owner, "two fine buckets")
            // Another source in the first fine bucket: both sources get rows
            // there and in every roll-up above it, not in the second one.
            let other = steps(50, from: Self.at(9 * 3_600 + 300), to: Self.at(9 * 3_600 + 480))
            try await phone.save([other])
            #expect(try Self.bucketRows(owner) == (2 + 4, 2 * (1 + 4)))
            try await Self.expectAnswersAsReference(owner, "two sources")
            try await Self.expectRebuildIdentical(owner, "two sources")
            // A ranking changes merged sums only.
            try await owner.setSourcePriority(["com.example.phone", "com.example.watch"], for: stepType)
            try await Self.expectAnswersAsReference(owner, "ranked")
            // Back to one source, then to one fine bucket.
            try await phone.delete([other])
            #expect(try Self.bucketRows(owner) == (2 + 4, 0))
            try await Self.expectRebuildIdentical(owner, "one source again")
            try await watch.delete([second])
            #expect(try Self.bucketRows(owner) == (1, 0))
            try await Self.expectAnswersAsReference(owner, "one sample again")
            try await Self.expectRebuildIdentical(owner, "one sample again")
            // The phone alone in another week: its rows are merged ones.
            try await phone.save([steps(30, from: Self.at(9 * 86_400), to: Self.at(9 * 86_400 + 60))])
            #expect(try Self.bucketRows(owner) == (2, 0))
            try await Self.expectAnswersAsReference(owner, "two weeks, one source each")
            for app in [watch, phone] { await app.close() }
        }
    }

    @Test("ST-16: a reading a day for a year costs a row a reading, and a row a week, whatever the reading's bucket")
    func oneReadingADay() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            var readings: [HKQuantitySample] = []
            var weeks: [Int64: Int] = [:]
            for day in 0..<365 {
                let start = Self.base.addingTimeInterval(Double(day) * 86_400 + Double(day % 24) * 3_600)
                readings.append(steps(Double(3_000 + day), from: start, to: start.addingTimeInterval(600)))
                let week = Int64((start.timeIntervalSinceReferenceDate / 604_800).rounded(.down))
                weeks[week, default: 0] += 1
            }
            try await store.save(readings)
            // Each reading's fine bucket; each week holding two or more.
            #expect(try Self.bucketRows(store) == (365 + weeks.values.filter { $0 > 1 }.count, 0))
            try await Self.expectAnswersAsReference(store, "a year")
            try await Self.expectRebuildIdentical(store, "a year")
        }
    }
}
