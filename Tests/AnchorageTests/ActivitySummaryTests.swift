import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Synchronization
import Testing

@testable import Anchorage

/// Activity summaries (issue 15): saved through the log, one per day,
/// latest wins; read with HKActivitySummaryQuery and its descriptor.
@Suite("Activity summaries")
struct ActivitySummaryTests {
    let calendar = Calendar(identifier: .gregorian)

    func day(_ number: Int, energy: Double, unit: HKUnit = .kilocalorie()) throws -> HKActivitySummary {
        let summary = try HKActivitySummary(
            dateComponents: DateComponents(calendar: calendar, year: 2026, month: 1, day: number)
        )
        summary.activeEnergyBurned = HKQuantity(unit: unit, doubleValue: energy)
        summary.activeEnergyBurnedGoal = HKQuantity(unit: unit, doubleValue: 600)
        summary.appleExerciseTime = HKQuantity(unit: .minute(), doubleValue: Double(number))
        summary.appleStandHours = HKQuantity(unit: .count(), doubleValue: 10)
        summary.standHoursGoal = HKQuantity(unit: .count(), doubleValue: 12)
        return summary
    }

    func components(_ day: Int, month: Int = 1) -> DateComponents {
        DateComponents(calendar: calendar, year: 2026, month: month, day: day)
    }

    func energies(_ summaries: [HKActivitySummary]) -> [Double] {
        summaries.map { $0.activeEnergyBurned.doubleValue(for: .kilocalorie()) }
    }

    @Test("ACT: saved by day, queried by one day and by a range, in day order; a later save of a day wins")
    func saveAndQuery() async throws {
        try await withTemporaryStore { store, _ in
            #expect(try await store.saveActivitySummaries([try day(9, energy: 702), try day(3, energy: 310)]) == 2)
            #expect(try await store.saveActivitySummaries([try day(9, energy: 702)]) == 0, "unchanged: not saved again")
            #expect(try await store.saveActivitySummaries([try day(20, energy: 95), try day(9, energy: 650)]) == 2)

            let all = try await HKActivitySummaryQueryDescriptor(predicate: nil).result(for: store)
            #expect(all.map { $0.dateComponents(for: calendar).day } == [3, 9, 20])
            #expect(energies(all) == [310, 650, 95], "the later save of the 9th wins")
            let ninth = try await HKActivitySummaryQueryDescriptor(
                predicate: HKQuery.predicateForActivitySummary(with: components(9))
            ).result(for: store)
            #expect(energies(ninth) == [650])
            #expect(ninth.first?.appleExerciseTime.doubleValue(for: .minute()) == 9)
            #expect(ninth.first?.standHoursGoal?.doubleValue(for: .count()) == 12)
            #expect(ninth.first?.exerciseTimeGoal == nil)
            let range = try await HKActivitySummaryQueryDescriptor(
                predicate: HKQuery.predicate(forActivitySummariesBetweenStart: components(4), end: components(20))
            ).result(for: store)
            #expect(energies(range) == [650, 95], "both ends included")
            let empty = try await HKActivitySummaryQueryDescriptor(
                predicate: HKQuery.predicate(
                    forActivitySummariesBetweenStart: components(1, month: 2),
                    end: components(2, month: 2)
                )
            ).result(for: store)
            #expect(empty.isEmpty)

            // A day in another calendar names the same day.
            let buddhist = Calendar(identifier: .buddhist)
            let same = buddhist.dateComponents([.era, .year, .month, .day], from: all[1].noonForTest)
            var withCalendar = same
            withCalendar.calendar = buddhist
            let found = try await HKActivitySummaryQueryDescriptor(
                predicate: HKQuery.predicateForActivitySummary(with: withCalendar)
            ).result(for: store)
            #expect(energies(found) == [650])
            #expect(found.first?.dateComponents(for: buddhist).year == same.year)

            #expect(try await store.eventLog().checkProjections() == nil, "the index equals a replay of the log")
        }
    }

    @Test("ACT: the callback query delivers the results, then updates for changed days in its range")
    func updates() async throws {
        try await withTemporaryStore { store, _ in
            try await store.saveActivitySummaries([try day(9, energy: 100)])
            let results = Collector<[Double]>()
            let updates = Collector<[Double]>()
            let query = HKActivitySummaryQuery(
                predicate: HKQuery.predicate(forActivitySummariesBetweenStart: components(1), end: components(15))
            ) { _, summaries, error in
                #expect(error == nil)
                results.append(summaries.map(energies) ?? [])
            }
            query.updateHandler = { _, summaries, error in
                #expect(error == nil)
                updates.append(summaries.map(energies) ?? [])
            }
            store.execute(query)
            try await waitUntil("results.count == 1") { results.count == 1 }
            #expect(results.all == [[100]])
            try await store.saveActivitySummaries([try day(20, energy: 5)])  // outside the range
            try await store.saveActivitySummaries([try day(9, energy: 120), try day(10, energy: 50)])
            try await waitUntil("updates.count == 1") { updates.count == 1 }
            #expect(updates.all == [[120, 50]], "only the changed days in range")
            store.stop(query)
        }
    }

    @Test("ACT-1, ACT-2, ACT-3, ACT-4: bad summaries, apps, and predicates of other kinds are refused")
    func rules() async throws {
        try await withTemporaryStore { store, directory in
            await expectCode(.errorInvalidArgument) { try await store.saveActivitySummaries([HKActivitySummary()]) }
            await expectCode(.errorInvalidArgument) {
                try await store.saveActivitySummaries([try day(9, energy: 1, unit: .meter())])
            }
            await expectCode(.errorInvalidArgument) {
                try await store.saveActivitySummaries([try day(9, energy: -1)])
            }
            await expectCode(.errorInvalidArgument) {
                try await store.saveActivitySummaries([try day(9, energy: 1), try day(9, energy: 2)])
            }
            #expect(throws: HKError.self) { try HKActivitySummary(dateComponents: components(30, month: 2)) }
            #expect(try await HKActivitySummaryQueryDescriptor(predicate: nil).result(for: store).isEmpty)
            await expectCode(.errorInvalidArgument) {
                try await HKActivitySummaryQueryDescriptor(
                    predicate: HKQuery.predicateForSamples(withStart: nil, end: nil, options: [])
                ).result(for: store)
            }
            await expectCode(.errorInvalidArgument) {
                try await HKActivitySummaryQueryDescriptor(
                    predicate: HKQuery.predicateForActivitySummary(with: DateComponents(year: 2026))
                ).result(for: store)
            }

            try await store.saveActivitySummaries([try day(9, energy: 700)])
            let app = HKSource(name: "App", bundleIdentifier: "com.example.rings")
            let appStore = HKHealthStore(directory: directory, principal: app, configuration: .forTests)
            let asApp = HKActivitySummaryQueryDescriptor(predicate: nil)
            await expectCode(.errorAuthorizationNotDetermined) { try await asApp.result(for: appStore) }
            await expectCode(.errorAuthorizationDenied) {
                try await appStore.saveActivitySummaries([try day(1, energy: 1)])
            }
            try await appStore.requestAuthorization(toShare: nil, read: [HKObjectType.activitySummaryType()])
            #expect(try await asApp.result(for: appStore).isEmpty, "undecided: nothing, as in HealthKit")
            try await store.setAuthorization(for: app, read: [HKObjectType.activitySummaryType()], granted: true)
            #expect(energies(try await asApp.result(for: appStore)) == [700])
            try await store.setAuthorization(for: app, read: [HKObjectType.activitySummaryType()], granted: false)
            #expect(try await asApp.result(for: appStore).isEmpty, "denied reads look empty (AUTH-4)")
            await appStore.close()
        }
    }
}

extension HKActivitySummary {
    /// Noon of the summary's day, for converting it to other calendars.
    var noonForTest: Date { day!.noon }
}

extension ActivitySummaryTests {
    @Test("ACT: two peers that saved one day each way converge on the later save, whatever the order")
    func convergence() async throws {
        // One wall clock for both peers' entries, a step later at each save:
        // b's save is later than a's, however fast the machine.
        let clock = SteppingWallClock()
        var configuration = HKHealthStore.Configuration.forTests
        configuration.log.clock = .continuous.telling { clock.now() }
        try await withTemporaryStore(configuration: configuration) { a, _ in
            try await withTemporaryStore(configuration: configuration) { b, _ in
                try await a.saveActivitySummaries([try day(9, energy: 100)])
                try await b.saveActivitySummaries([try day(9, energy: 200), try day(10, energy: 50)])
                // Each receives the other's entries verbatim: A gets the later
                // save after its own, B the earlier one after its own.
                let fromA = try a.eventLog().entries(after: nil, limit: 100).entries
                let fromB = try b.eventLog().entries(after: nil, limit: 100).entries
                let before = try a.stateDigest()
                _ = try await a.eventLog().apply(fromB)
                #expect(try a.stateDigest() != before, "the visible summaries are part of the digest")
                _ = try await b.eventLog().apply(fromA)
                let inA = try await HKActivitySummaryQueryDescriptor(predicate: nil).result(for: a)
                let inB = try await HKActivitySummaryQueryDescriptor(predicate: nil).result(for: b)
                #expect(energies(inA) == [200, 50])
                #expect(energies(inB) == [200, 50], "the later save of a day wins whatever the order")
                #expect(try a.stateDigest() == b.stateDigest())
                #expect(try await a.eventLog().checkProjections() == nil)
                #expect(try await b.eventLog().checkProjections() == nil)
            }
        }
    }
}

/// A wall clock for a log's entries (`EventLog.Configuration.now`) that
/// moves a millisecond at each reading: every entry's origin time is later
/// than the one before, however fast the machine, so a test of "the later
/// save wins" needs no sleep to let the real clock tick.
final class SteppingWallClock: Sendable {
    private let readings = Mutex(0)
    private let start: Date

    init(start: Date = Date()) {
        self.start = start
    }

    func now() -> Date {
        let reading = readings.withLock { readings in
            readings += 1
            return readings
        }
        return start.addingTimeInterval(Double(reading) / 1_000)
    }
}
