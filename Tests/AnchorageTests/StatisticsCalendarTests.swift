import AnchorageStoreTesting
import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Buckets on the calendar: anchors, DST, months, time zones (ST-28..35).
@Suite("Statistics buckets")
struct StatisticsCalendarTests {
    let newYork = TimeZone(identifier: "America/New_York")!

    @Test("Days in New York around DST last 23 and 25 hours; a constant-rate writer fills them in proportion (ST-32)")
    func daylightSavingDays() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration(timeZone: newYork)) { store, _ in
            // Ten steps every ten minutes from March 9 to March 12 and November 2 to 5 (UTC).
            var samples: [HKSample] = []
            for (from, to) in [
                ("2024-03-09T00:00:00Z", "2024-03-13T00:00:00Z"), ("2024-11-02T00:00:00Z", "2024-11-06T00:00:00Z"),
            ] {
                var start = iso(from)
                while start < iso(to) {
                    samples.append(steps(10, from: start, to: start.addingTimeInterval(600)))
                    start = start.addingTimeInterval(600)
                }
            }
            try await store.save(samples)
            let midnight = iso("2024-01-01T05:00:00Z")  // midnight in New York
            let collection = try await collectionResult(
                in: store,
                of: stepType,
                options: .cumulativeSum,
                anchor: midnight,
                interval: DateComponents(day: 1)
            )
            let spring = try #require(collection.statistics(for: iso("2024-03-10T12:00:00Z")))
            #expect(spring.startDate == iso("2024-03-10T05:00:00Z"))
            #expect(spring.endDate == iso("2024-03-11T04:00:00Z"))
            #expect(close(spring.count, 23 * 60))
            let fall = try #require(collection.statistics(for: iso("2024-11-03T12:00:00Z")))
            #expect(fall.startDate == iso("2024-11-03T04:00:00Z"))
            #expect(fall.endDate == iso("2024-11-04T05:00:00Z"))
            #expect(close(fall.count, 25 * 60))
        }
    }

    @Test(
        "Hour buckets stay 3,600 s across the fall-back hour; a 02:30 anchor on the spring-forward day moves to 03:30 (ST-33)"
    )
    func daylightSavingHours() throws {
        let hours = try BucketGrid(
            anchor: iso("2024-01-01T05:00:00Z"),
            intervalComponents: DateComponents(hour: 1),
            timeZone: newYork
        )
        let first = hours.index(containing: iso("2024-11-03T05:00:00Z"))  // 01:00 EDT
        #expect(hours.interval(first).duration == 3_600)
        #expect(hours.interval(first + 1).start == iso("2024-11-03T06:00:00Z"))  // 01:00 EST
        #expect(hours.interval(first + 1).duration == 3_600)

        let days = try BucketGrid(
            anchor: iso("2024-03-01T07:30:00Z"),  // 02:30 EST
            intervalComponents: DateComponents(day: 1),
            timeZone: newYork
        )
        let springDay = days.index(containing: iso("2024-03-10T12:00:00Z"))
        #expect(days.start(of: springDay) == iso("2024-03-10T07:30:00Z"))  // 03:30 EDT
        #expect(days.start(of: springDay + 1) == iso("2024-03-11T06:30:00Z"))  // 02:30 EDT
    }

    @Test(
        "Fast bucket starts equal the calendar's for hours, days and weeks in every zone, across DST (ST-30, ST-33)",
        .ownThread
    )
    func fastStartsMatchCalendar() throws {
        let zones = [
            "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kolkata", "Europe/London", "UTC",
        ]
        let anchors = [
            iso("2024-03-01T07:30:00Z"), iso("2024-11-03T05:30:00Z"), iso("2023-10-01T02:00:00Z"),
            Date(timeIntervalSince1970: 1_700_000_123.25),
        ]
        let steps = [
            DateComponents(day: 1), DateComponents(day: 7), DateComponents(hour: 1), DateComponents(minute: 15),
        ]
        for zone in zones {
            for anchor in anchors {
                for step in steps {
                    let grid = try BucketGrid(
                        anchor: anchor,
                        intervalComponents: step,
                        timeZone: TimeZone(identifier: zone)!
                    )
                    for index in stride(from: -800, through: 800, by: 1) {
                        #expect(
                            grid.start(of: index) == grid.calendarStart(of: index),
                            "\(zone) \(anchor) \(step) \(index)"
                        )
                    }
                }
            }
        }
    }

    @Test("Month buckets come from the anchor with a multiplied component, so they do not drift (ST-30, ST-34)")
    func months() throws {
        let grid = try BucketGrid(
            anchor: iso("2024-01-31T00:00:00Z"),
            intervalComponents: DateComponents(month: 1),
            timeZone: utc
        )
        #expect(grid.interval(0) == DateInterval(start: iso("2024-01-31T00:00:00Z"), end: iso("2024-02-29T00:00:00Z")))
        #expect(grid.interval(1) == DateInterval(start: iso("2024-02-29T00:00:00Z"), end: iso("2024-03-31T00:00:00Z")))
        #expect(grid.interval(2) == DateInterval(start: iso("2024-03-31T00:00:00Z"), end: iso("2024-04-30T00:00:00Z")))
        #expect(grid.index(containing: iso("2024-03-30T23:59:59Z")) == 1)
        #expect(grid.index(containing: iso("2023-12-31T00:00:00Z")) == -1, "buckets tile backwards too (ST-28)")
        #expect(grid.index(containing: iso("2124-06-15T00:00:00Z")) == 1_204)
        let quarters = try BucketGrid(
            anchor: iso("2024-01-01T00:00:00Z"),
            intervalComponents: DateComponents(quarter: 1),
            timeZone: utc
        )
        #expect(quarters.interval(1).start == iso("2024-04-01T00:00:00Z"))
        let weeks = try BucketGrid(
            anchor: iso("2024-01-01T03:00:00Z"),
            intervalComponents: DateComponents(weekOfYear: 1),
            timeZone: utc
        )
        #expect(weeks.interval(1).start == iso("2024-01-08T03:00:00Z"))
    }

    @Test("Only the anchor's phase matters (ST-28)")
    func anchorPhase() throws {
        let early = try BucketGrid(
            anchor: iso("2001-03-04T03:34:00Z"),
            intervalComponents: DateComponents(day: 1),
            timeZone: utc
        )
        let late = try BucketGrid(
            anchor: iso("2030-07-08T03:34:00Z"),
            intervalComponents: DateComponents(day: 1),
            timeZone: utc
        )
        let date = iso("2024-05-01T02:00:00Z")
        #expect(early.interval(early.index(containing: date)) == late.interval(late.index(containing: date)))
        #expect(early.interval(early.index(containing: date)).start == iso("2024-04-30T03:34:00Z"))
    }

    @Test("Time zones with half- and three-quarter-hour offsets (ST-31)")
    func oddOffsets() throws {
        for (zone, midnight) in [
            ("Asia/Kolkata", "2024-05-01T18:30:00Z"), ("Pacific/Chatham", "2024-05-01T11:15:00Z"),
            ("Australia/Lord_Howe", "2024-05-01T13:30:00Z"),
        ] {
            var components = DateComponents(day: 1)
            components.timeZone = TimeZone(identifier: zone)!
            // The components' zone wins over the store's.
            let grid = try BucketGrid(anchor: iso(midnight), intervalComponents: components, timeZone: utc)
            let bucket = grid.interval(grid.index(containing: iso("2024-05-10T12:00:00Z")))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: zone)!
            #expect(
                calendar.dateComponents([.hour, .minute], from: bucket.start) == DateComponents(hour: 0, minute: 0)
            )
        }
    }

    @Test("Interval components that are empty, zero, negative or not a length are errors (ST-35)")
    func badComponents() async throws {
        for components in [
            DateComponents(), DateComponents(day: 0), DateComponents(day: -1), DateComponents(hour: 1, minute: -5),
            DateComponents(weekday: 2), DateComponents(nanosecond: 5),
        ] {
            #expect(throws: HKError.self) {
                try BucketGrid(anchor: day, intervalComponents: components, timeZone: utc)
            }
        }
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            await expectCode(.errorInvalidArgument) {
                try await collectionResult(
                    in: store,
                    of: stepType,
                    options: .cumulativeSum,
                    anchor: day,
                    interval: DateComponents(day: 0)
                )
            }
            await expectCode(.errorInvalidArgument) {
                try await HKStatisticsCollectionQueryDescriptor(
                    predicate: .quantitySample(type: stepType),
                    options: .cumulativeSum,
                    anchorDate: day,
                    intervalComponents: DateComponents()
                ).result(for: store)
            }
        }
    }

    @Test(
        "statistics(for:) always answers, empty outside the data (ST-37); sources() is empty without separateBySource (ST-39)"
    )
    func lookups() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { store, _ in
            try await store.save(steps(10, atMinute: 0))
            let collection = try await collectionResult(
                in: store,
                of: stepType,
                options: .cumulativeSum,
                anchor: day,
                interval: DateComponents(day: 1)
            )
            let far = try #require(collection.statistics(for: iso("1990-01-01T12:00:00Z")))
            #expect(far.sumQuantity() == nil)
            #expect(far.startDate == iso("1990-01-01T00:00:00Z"))
            #expect(collection.statistics(for: day)?.count == 10)
            #expect(collection.sources().isEmpty)
        }
    }

    @Test("Seed listing: weekly step counts anchored on Monday 03:00, enumerated over the last three months")
    func weeklyStepCounts() async throws {
        try await withTemporaryStore(configuration: statisticsConfiguration()) { healthStore, _ in
            let calendar = {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = utc
                return calendar
            }()
            let now = iso("2024-06-13T18:00:00Z")  // a Thursday; the listing uses Date()
            // Data: for each day of the last four months, one 20-minute walk at noon of 1,000 + day steps.
            var expected: [Date: Double] = [:]
            var samples: [HKSample] = []
            for dayIndex in 0..<125 {
                let noon = calendar.date(byAdding: .day, value: -dayIndex, to: iso("2024-06-13T12:00:00Z"))!
                let count = Double(1_000 + dayIndex)
                samples.append(steps(count, from: noon, to: noon.addingTimeInterval(20 * 60)))
                // The Monday 03:00 that starts this day's week.
                let weekday = calendar.component(.weekday, from: noon)  // 1 = Sunday
                let monday = calendar.date(byAdding: .day, value: -((weekday + 5) % 7), to: noon)!
                let start = calendar.date(bySettingHour: 3, minute: 0, second: 0, of: monday)!
                expected[start, default: 0] += count
            }
            try await healthStore.save(samples)

            // The listing, as written, with `now` for Date():
            var interval = DateComponents()
            interval.day = 7
            // Set the anchor date to Monday at 3:00 a.m.
            var anchorComponents = calendar.dateComponents([.day, .month, .year, .weekday], from: now)
            let offset = (7 + anchorComponents.weekday! - 2) % 7
            anchorComponents.day! -= offset
            anchorComponents.hour = 3
            let anchorDate = try #require(calendar.date(from: anchorComponents))
            let quantityType = try #require(HKObjectType.quantityType(forIdentifier: .stepCount))
            let query = HKStatisticsCollectionQuery(
                quantityType: quantityType,
                quantitySamplePredicate: nil,
                options: .cumulativeSum,
                anchorDate: anchorDate,
                intervalComponents: interval
            )
            let weeks = Collector<(Date, Double)>()
            let done = Collector<Bool>()
            query.initialResultsHandler = { query, results, error in
                guard let statsCollection = results else {
                    Issue.record(
                        "*** An error occurred while calculating the statistics: \(String(describing: error)) ***"
                    )
                    done.append(false)
                    return
                }
                let endDate = now
                let startDate = calendar.date(byAdding: .month, value: -3, to: endDate)!
                statsCollection.enumerateStatistics(from: startDate, to: endDate) { statistics, stop in
                    if let quantity = statistics.sumQuantity() {
                        let date = statistics.startDate
                        let value = quantity.doubleValue(for: HKUnit.count())
                        weeks.append((date, value))
                    }
                }
                done.append(true)
            }
            healthStore.execute(query)
            try await waitUntil("done.count == 1") { done.count == 1 }

            #expect(done.all == [true])
            let firstWeek = iso("2024-03-11T03:00:00Z")  // the week holding March 13, three months before `now`
            let reported = weeks.all
            #expect(reported.first?.0 == firstWeek)
            #expect(reported.last?.0 == iso("2024-06-10T03:00:00Z"))
            #expect(reported.count == 14)
            for (start, value) in reported {
                #expect(value == expected[start], "week of \(start)")
            }
        }
    }
}
