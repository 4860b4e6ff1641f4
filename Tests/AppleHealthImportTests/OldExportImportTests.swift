import Anchorage
import Foundation
import Testing

@testable import AppleHealthImport

/// The forms real exports take that the newest ones do not: the oldest
/// exports (iOS 8 and 9) and the whole-second dates of watch workouts
/// (health-export-format.md, "The oldest exports" and "Whole seconds
/// against fractions"). Fixtures written from that reference.
@Suite("Old exports and whole-second dates")
struct OldExportImportTests {
    @Test(
        "iOS 8–9: compact dates, source=, recordCount= and HKWasUserEntered= attributes, numeric Me values; nothing lost, and a second import adds nothing"
    )
    func ios8() async throws {
        try await withImportStore { store in
            let file = fixtureFile("export-ios8.xml")
            let summary = try await HealthExportImporter(store: store, batchSize: 3).importExport(at: file)
            #expect(summary.read == ["Record": 8])
            #expect(summary.saved == 8)
            #expect(summary.rejected.isEmpty, "\(summary.rejected)")
            #expect(summary.unknown.isEmpty, "\(summary.unknown)")
            #expect(summary.exportVersion == nil)

            // Me, written as numbers: 2 is male; 0 is "not set".
            #expect(summary.characteristicsImported)
            #expect(try store.biologicalSex().biologicalSex == .male)
            let birth = try store.dateOfBirthComponents()
            #expect(birth.year == 1988 && birth.month == 10 && birth.day == 29)
            #expect(try store.bloodType().bloodType == .notSet)

            // Compact dates keep the instant: 08:43 at -0800 is 16:43 UTC.
            let steps = try await samples(store, HKQuantityType(.stepCount))
                .compactMap { $0 as? HKQuantitySample }
                .sorted { $0.startDate < $1.startDate }
            #expect(steps.count == 2)
            #expect(steps.first?.startDate == Date(timeIntervalSince1970: 1_388_853_780))
            #expect(steps.first?.endDate == Date(timeIntervalSince1970: 1_388_854_380))
            #expect(steps.map { $0.quantity.doubleValue(for: .count()) } == [1_043, 87])
            // `source=` names the source; `recordCount=` is kept as metadata.
            #expect(steps.first?.sourceRevision.source.name == "AppleHealthDevice")
            #expect(steps.first?.sourceRevision.source.bundleIdentifier == "export.applehealthdevice")
            #expect(steps.first?.metadata?[ExportObjects.recordCountKey] as? Int == 191)
            // `HKWasUserEntered="1"` as an attribute is the metadata key.
            let mass = try #require(try await samples(store, HKQuantityType(.bodyMass)).first as? HKQuantitySample)
            #expect(mass.metadata?[HKMetadataKeyWasUserEntered] as? Int == 1)
            #expect(abs(mass.quantity.doubleValue(for: .pound()) - 162.4) < 1e-9)
            // Offsets of another zone, metadata keys with spaces.
            let heart = try #require(try await samples(store, HKQuantityType(.heartRate)).first)
            #expect(heart.startDate == Date(timeIntervalSince1970: 1_426_885_800))
            #expect(heart.metadata?["Withings App Version"] as? String == "2.6.2")
            #expect(try await count(store, HKCategoryType(.sleepAnalysis)) == 1)

            try await expectImportAddsNothing(file, into: store)
            try await expectAuditPasses(store)
        }
    }

    @Test(
        "OBJ-23: a watch workout whose segments end a fraction of a second after it, with an activity a second past it, is kept, clamped and counted; one whose event ends minutes after is refused"
    )
    func wholeSeconds() async throws {
        try await withImportStore { store in
            let file = fixtureFile("export-v14-whole-seconds.xml")
            let summary = try await HealthExportImporter(store: store).importExport(at: file)
            #expect(summary.read == ["Workout": 1])
            #expect(summary.saved == 1)
            // Two segments (0.23 s and 0.36 s over), the activity (1 s over)
            // and the activity's last segment (about 45 s past it).
            #expect(summary.clamped == 4)
            #expect(summary.rejected == ["an event outside its workout (OBJ-23)": 1], "\(summary.rejected)")
            #expect(summary.unknown.isEmpty, "\(summary.unknown)")

            let workout = try #require(
                try await samples(store, HKWorkoutType.workoutType()).first as? HKWorkout
            )
            #expect(workout.workoutActivityType == .running)
            let events = try #require(workout.workoutEvents)
            #expect(events.count == 4)
            #expect(events.allSatisfy { $0.dateInterval.end <= workout.endDate })
            #expect(events.map(\.dateInterval.end).max() == workout.endDate)
            // Unclamped events keep their fractions.
            #expect(abs(events[0].dateInterval.duration - 9.914289363225301 * 60) < 1e-6)
            let activity = try #require(workout.workoutActivities.first)
            #expect(workout.workoutActivities.count == 1)
            #expect(activity.endDate == workout.endDate)
            #expect(activity.workoutEvents.first?.dateInterval.end == activity.endDate)
            #expect(abs((workout.totalDistance?.doubleValue(for: .meterUnit(with: .kilo)) ?? 0) - 5.10412) < 1e-9)

            try await expectImportAddsNothing(file, into: store)
            try await expectAuditPasses(store)
        }
    }
}
