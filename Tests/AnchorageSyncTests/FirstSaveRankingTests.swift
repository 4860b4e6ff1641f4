import AnchorageLog
import AnchorageStoreTesting
import AnchorageSync
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import Anchorage

/// Unlisted sources merge newest first by their first save's origin time
/// (ST-27). A peer's entries can move a source's first save earlier on
/// arrival: where that reorders the sources, every bucket both share is
/// merged again, also those the arriving entries never touched; where the
/// order stays, nothing is.
@Suite("First saves from a peer")
struct FirstSaveRankingTests {
    static let day = Date(timeIntervalSince1970: 1_714_521_600)  // 2024-05-01T00:00:00Z
    static let older = HKSource(name: "Older", bundleIdentifier: "com.example.older")
    static let newer = HKSource(name: "Newer", bundleIdentifier: "com.example.newer")

    /// A wall clock set by hand, in seconds since 1970.
    final class Clock: Sendable {
        let seconds: Mutex<Double>
        init(_ seconds: Double) { self.seconds = Mutex(seconds) }
        func set(_ value: Double) { seconds.withLock { $0 = value } }
        var date: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    }

    /// Steps from `source` over ten minutes from `minute` of `day`.
    static func steps(_ count: Double, from source: HKSource, at minute: Double, day: Date = day) -> HKQuantitySample {
        let start = day.addingTimeInterval(minute * 60)
        return try! HKQuantitySample.stored(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: count),
            start: start,
            end: start.addingTimeInterval(600),
            uuid: UUID(),
            sourceRevision: HKSourceRevision(source: source, version: "1")
        )
    }

    /// The merged sum of `day`'s first hour, and each source's.
    static func firstHour(of store: HKHealthStore) async throws -> (merged: Double, older: Double, newer: Double) {
        let statistics = try await HKStatisticsQueryDescriptor(
            predicate: .quantitySample(
                type: HKQuantityType(.stepCount),
                predicate: HKQuery.predicateForSamples(withStart: day, end: day.addingTimeInterval(3_600))
            ),
            options: [.cumulativeSum, .separateBySource]
        )
        .result(for: store)
        func sum(_ source: HKSource?) -> Double {
            let quantity = source.map { statistics?.sumQuantity(for: $0) } ?? statistics?.sumQuantity()
            return quantity?.doubleValue(for: .count()) ?? 0
        }
        return (sum(nil), sum(older), sum(newer))
    }

    @Test(
        "ST-27: a peer's older first save of a source reorders the merge in buckets its entries never touched; a later one changes nothing; the views equal a replay",
        arguments: [(500.0, true), (1_500.0, false)]
    )
    func peerMovesFirstSave(peerClock: Double, reorders: Bool) async throws {
        try await withTemporaryDirectories(2) { directories in
            let here = Clock(1_000)
            let there = Clock(peerClock)
            let store = SharedUUIDTests.store(directories[0], id: 0x01, date: { here.date })
            let peer = SharedUUIDTests.store(directories[1], id: 0x02, date: { there.date })
            do {
                // Here: Older first saves at 1,000 s, Newer at 2,000 s; they
                // overlap in the day's first hour, where Newer counts.
                try await store.save(Self.steps(100, from: Self.older, at: 0))
                here.set(2_000)
                try await store.save(Self.steps(40, from: Self.newer, at: 0))
                #expect(try await Self.firstHour(of: store) == (40, 100, 40))
                // The peer: Newer saves a week later, its first save there
                // at `peerClock`.
                try await peer.save(
                    Self.steps(7, from: Self.newer, at: 0, day: Self.day.addingTimeInterval(7 * 86_400))
                )
                try await SharedUUIDTests.pull(into: store, from: peer)
                // Before Older's first save: Newer is now the older source
                // and Older counts; after it, the order stands.
                let expected: (Double, Double, Double) = reorders ? (100, 100, 40) : (40, 100, 40)
                #expect(try await Self.firstHour(of: store) == expected)
                #expect(try await store.eventLog().checkProjections() == nil)
                await store.close()
                await peer.close()
            } catch {
                await store.close()
                await peer.close()
                throw error
            }
        }
    }
}
