import Anchorage
import AnchorageTesting
import Foundation
import Testing

@testable import AppleHealthImport

/// Fixtures written from ../shared/reference/health-export-format.md: a
/// full prologue with an `<!ATTLIST>` for every element, the iOS 16
/// malformed DTD, and an export without `ExportDate` or `Me`.
@Suite("Real-looking Health exports")
struct FixtureImportTests {
    @Test("Export Version 14 with its full DTD: every record type, correlations once, workouts with statistics")
    func version14() async throws {
        try await withImportStore { store in
            let summary = try await HealthExportImporter(store: store, batchSize: 7)
                .importExport(at: fixtureFile("export-v14.xml"))
            #expect(summary.exportVersion == 14)
            #expect(
                summary.read == [
                    "Record": 25, "Correlation": 2, "Workout": 3, "ActivitySummary": 3,
                    "HeartRateVariabilityMetadataList": 1, "Audiogram": 1, "VisionPrescription": 1,
                ]
            )
            #expect(
                summary.saved == 36,
                "the correlations' records are their top-level twins; a heartbeat series, an audiogram, a prescription"
            )
            #expect(
                summary.missingFiles == 2,
                "the route file and the clinical record's file are not beside this XML file"
            )
            let glasses = try #require(
                try await samples(store, HKObjectType.visionPrescriptionType()).first as? HKGlassesPrescription
            )
            #expect(glasses.rightEye?.sphere.doubleValue(for: .diopter()) == -1.25)
            #expect(glasses.leftEye?.sphere.doubleValue(for: .diopter()) == -1)
            #expect(glasses.expirationDate != nil && glasses.dateIssued < glasses.expirationDate!)
            let audiogram = try #require(
                try await samples(store, HKObjectType.audiogramSampleType()).first as? HKAudiogramSample
            )
            #expect(audiogram.sensitivityPoints.map { $0.frequency.doubleValue(for: .hertz()) } == [1_000])
            #expect(
                audiogram.sensitivityPoints.first?.tests.map { $0.sensitivity.doubleValue(for: .decibelHearingLevel()) }
                    == [15, 20]
            )
            #expect(summary.firstMissingFile == "/workout-routes/route_2026-01-09_6.47pm.gpx")
            #expect(summary.alreadyPresent == 0)
            #expect(summary.rejected.isEmpty, "\(summary.rejected)")
            #expect(summary.characteristicsImported)
            #expect(
                summary.unknown == [
                    "Record HKDataTypeSleepDurationGoal": 1, "Record HKQuantityTypeIdentifierTimeInDaylightZone": 1,
                    "WorkoutStatistics HKQuantityTypeIdentifierWorkoutEffortScoreEstimate": 1,
                ]
            )
            #expect(try await count(store, HKQuantityType(.stepCount)) == 3)
            #expect(try await count(store, HKQuantityType(.heartRate)) == 2)
            let variability = try #require(try await samples(store, HKQuantityType(.heartRateVariabilitySDNN)).first)
            #expect(
                variability.metadata?[ExportObjects.beatsKey] as? String
                    == "62 7:20:30.12 AM\n64 7:20:31.05 AM\n61 7:20:32.03 AM\n59 7:20:33.04 AM",
                "the per-beat list, as the export wrote it"
            )
            #expect(try await count(store, HKCategoryType(.sleepAnalysis)) == 4)
            #expect(try await count(store, HKCategoryType(.lowHeartRateEvent)) == 1, "a record without a value")
            #expect(try await count(store, HKCategoryType(.mindfulSession)) == 1)
            #expect(try await count(store, HKQuantityType(.bloodPressureSystolic)) == 1)
            #expect(try await count(store, HKQuantityType(.dietaryEnergyConsumed)) == 1)
            #expect(try await count(store, HKWorkoutType.workoutType()) == 3)

            let glucose = try #require(
                try await samples(store, HKQuantityType(.bloodGlucose)).first as? HKQuantitySample
            )
            let millimolar = try HKUnit.parse("mmol<180.1558800000541>/L")
            #expect(abs(glucose.quantity.doubleValue(for: millimolar) - 5.6) < 1e-9)
            let vo2 = try #require(try await samples(store, HKQuantityType(.vo2Max)).first as? HKQuantitySample)
            #expect(abs(vo2.quantity.doubleValue(for: try HKUnit.parse("mL/min·kg")) - 44.12) < 1e-9)

            let food = try #require(
                try await HKSampleQueryDescriptor(
                    predicates: [.correlation(type: HKCorrelationType(.food))],
                    sortDescriptors: []
                ).result(for: store).first
            )
            #expect(food.objects.count == 3)
            #expect(food.metadata?[HKMetadataKeyFoodType] as? String == "Fish & chips, 14\" basket")
            let energy = try #require(try await samples(store, HKQuantityType(.dietaryEnergyConsumed)).first)
            #expect(food.objects.contains(energy), "the member is the top-level record, saved once")

            let workouts = try await HKSampleQueryDescriptor(
                predicates: [.workout()],
                sortDescriptors: [SortDescriptor(\.startDate)]
            ).result(for: store)
            let running = try #require(workouts.first { $0.workoutActivityType == .running })
            // Since iOS 16 the totals live in WorkoutStatistics children only.
            #expect(abs((running.totalEnergyBurned?.doubleValue(for: .kilocalorie()) ?? 0) - 402.118) < 1e-9)
            #expect(abs((running.totalDistance?.doubleValue(for: .mile()) ?? 0) - 4.81902) < 1e-9)
            #expect(running.workoutEvents?.map(\.type) == [.segment, .pause, .resume])
            // Every WorkoutStatistics child answers statistics(for:) (OBJ-21).
            let perMinute = HKUnit.count().unitDivided(by: .minute())
            #expect(running.allStatistics.count == 6)
            let heart = try #require(running.statistics(for: HKQuantityType(.heartRate)))
            #expect(abs((heart.averageQuantity()?.doubleValue(for: perMinute) ?? 0) - 152.4) < 1e-9)
            #expect(heart.minimumQuantity()?.doubleValue(for: perMinute) == 96)
            #expect(heart.maximumQuantity()?.doubleValue(for: perMinute) == 171)
            #expect(
                running.statistics(for: HKQuantityType(.stepCount))?.sumQuantity()?.doubleValue(for: .count()) == 6_711
            )
            let speed = try #require(running.statistics(for: HKQuantityType(.runningSpeed)))
            let milesPerHour = HKUnit.mile().unitDivided(by: .hour())
            #expect(abs((speed.maximumQuantity()?.doubleValue(for: milesPerHour) ?? 0) - 9.4) < 1e-9)
            #expect(
                abs(
                    (running.statistics(for: HKQuantityType(.basalEnergyBurned))?.sumQuantity()?
                        .doubleValue(for: .kilocalorie()) ?? 0) - 71.004
                ) < 1e-9
            )
            #expect(running.sourceRevision.source.name == "Jonathan’s Apple Watch")
            let strength = try #require(workouts.first { $0.workoutActivityType == .traditionalStrengthTraining })
            #expect(strength.totalEnergyBurned == nil && strength.totalDistance == nil, "a workout with neither")
            let cycling = try #require(workouts.first { $0.workoutActivityType == .cycling })
            #expect(cycling.totalDistance?.doubleValue(for: .meterUnit(with: .kilo)) == 21.4)
            // Activity summaries, queryable by day (HKActivitySummaryQuery).
            let calendar = Calendar(identifier: .gregorian)
            let days = try await HKActivitySummaryQueryDescriptor(
                predicate: HKQuery.predicate(
                    forActivitySummariesBetweenStart: DateComponents(calendar: calendar, year: 2026, month: 1, day: 9),
                    end: DateComponents(calendar: calendar, year: 2026, month: 1, day: 31)
                )
            ).result(for: store)
            #expect(days.map { $0.dateComponents(for: calendar).day } == [9, 10])
            let ninth = try #require(days.first)
            #expect(abs(ninth.activeEnergyBurned.doubleValue(for: .kilocalorie()) - 702.2) < 1e-9)
            #expect(ninth.activeEnergyBurnedGoal.doubleValue(for: .kilocalorie()) == 600)
            #expect(ninth.appleExerciseTime.doubleValue(for: .minute()) == 52)
            #expect(ninth.appleExerciseTimeGoal.doubleValue(for: .minute()) == 30)
            #expect(ninth.appleStandHours.doubleValue(for: .count()) == 11)
            #expect(ninth.appleStandHoursGoal.doubleValue(for: .count()) == 12)
            #expect(try store.biologicalSex().biologicalSex == .male)
            #expect(try store.bloodType().bloodType == .oNegative)
            try await expectAuditPasses(store)

            // SERIES-2: the per-beat list as a heartbeat series from the record's start (07:20:29 -0500).
            let series = try #require(
                try await samples(store, HKSeriesType.heartbeat()).first as? HKHeartbeatSeriesSample
            )
            #expect(series.startDate == variability.startDate)
            #expect(series.count == 4)
            let beats = try await HKHeartbeatSeriesQueryDescriptor(series).results(for: store)
                .reduce(into: [Double]()) { $0.append($1.timeIntervalSinceStart) }
            #expect(beats == [1.12, 2.05, 3.03, 4.04])

            let again = try await expectImportAddsNothing(fixtureFile("export-v14.xml"), into: store)
            #expect(again.alreadyPresent == 36)
            try await expectAuditPasses(store)
        }
    }

    @Test("Export Version 12's malformed DTD (iOS 16) is skipped as a block; energy in kJ keeps its unit")
    func malformedVersion12() async throws {
        try await withImportStore { store in
            let summary = try await HealthExportImporter(store: store)
                .importExport(at: fixtureFile("export-v12-malformed-dtd.xml"))
            #expect(summary.exportVersion == 12)
            #expect(
                summary.read == [
                    "Record": 9, "Workout": 1, "ActivitySummary": 2, "HeartRateVariabilityMetadataList": 1,
                ]
            )
            #expect(summary.saved == 13, "the repeated step record is a second sample, as in HealthKit")
            #expect(summary.alreadyPresent == 0)
            #expect(summary.identicalRecords == 1)
            #expect(summary.rejected.isEmpty, "\(summary.rejected)")
            let workout = try #require(
                try await HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: []).result(for: store)
                    .first
            )
            #expect(abs((workout.totalEnergyBurned?.doubleValue(for: .jouleUnit(with: .kilo)) ?? 0) - 498.2) < 1e-9)
            #expect(workout.duration == 31.25 * 60)
            let energy = try #require(
                try await samples(store, HKQuantityType(.activeEnergyBurned)).first as? HKQuantitySample
            )
            #expect(abs(energy.quantity.doubleValue(for: .jouleUnit(with: .kilo)) - 172.5) < 1e-9)
            #expect(energy.sourceRevision.source.name == "Jürgens Apple Watch")
            let variability = try #require(try await samples(store, HKQuantityType(.heartRateVariabilitySDNN)).first)
            #expect(
                variability.metadata?[ExportObjects.beatsKey] as? String
                    == "62 01:20:37,80\n52 01:20:38,94\n55 01:20:40,04"
            )
            #expect(variability.metadataValues.count == 2, "the list beside the record's own metadata entry")
            // A German phone's 24-hour times with decimal commas, from 01:20:29 +0200.
            let series = try #require(
                try await samples(store, HKSeriesType.heartbeat()).first as? HKHeartbeatSeriesSample
            )
            let beats = try await HKHeartbeatSeriesQueryDescriptor(series).results(for: store)
                .reduce(into: [Double]()) { $0.append($1.timeIntervalSinceStart) }
            #expect(beats == [8.8, 9.94, 11.04])
            #expect(try store.dateOfBirthComponents().year == nil, "an empty date of birth")
            let summaries = try await HKActivitySummaryQueryDescriptor(predicate: nil).result(for: store)
            #expect(summaries.count == 2)
            let kilojoules = HKUnit.jouleUnit(with: .kilo)
            #expect(summaries.first?.activeEnergyBurned.unit == kilojoules, "the unit it came in")
            #expect(abs((summaries.first?.activeEnergyBurned.doubleValue(for: kilojoules) ?? 0) - 1_944.6) < 1e-9)
            #expect(abs((summaries.last?.activeEnergyBurnedGoal.doubleValue(for: kilojoules) ?? 0) - 1_700) < 1e-9)
            try await expectAuditPasses(store)
        }
    }

    @Test("No ExportDate and no Me; vertical tabs in values are dropped; a Korean name with a no-break space")
    func noExportDateOrMe() async throws {
        try await withImportStore { store in
            let summary = try await HealthExportImporter(store: store)
                .importExport(at: fixtureFile("export-v11-no-me.xml"))
            #expect(summary.exportVersion == 11)
            #expect(!summary.characteristicsImported)
            #expect(summary.droppedControlCharacters == 2)
            #expect(summary.saved == 4)
            #expect(summary.unknown == ["Record HKQuantityTypeIdentifierAppleSleepingBreathingDisturbancesIndex": 1])
            let heart = try await samples(store, HKQuantityType(.heartRate))
            #expect(heart.count == 2)
            #expect(heart.first?.sourceRevision.source.name == "Taehee의 Apple\u{00A0}Watch")
            let water = try #require(try await samples(store, HKQuantityType(.dietaryWater)).first)
            #expect(water.sourceRevision.source.name == "WaterMinder")
            let mass = try #require(try await samples(store, HKQuantityType(.bodyMass)).first)
            #expect(mass.metadata?["Note"] as? String == "after run")
            try await expectAuditPasses(store)
        }
    }

    @Test("A folder, an export.zip with a translated file name, Mac resource forks and export_cda.xml beside it")
    func zipAndFolder() async throws {
        try await withTemporaryDirectory(prefix: "anchorage-import-files") { folder in
            let data = Array(try Data(contentsOf: fixtureFile("export-v14.xml")))
            let clinical = Array(
                #"<?xml version="1.0" encoding="UTF-8"?><ClinicalDocument xmlns="urn:hl7-org:v3"></ClinicalDocument>"#
                    .utf8
            )
            let zip = folder.appendingPathComponent("export.zip")
            try writeZip(
                [
                    ("apple_health_export/", []),
                    ("apple_health_export/export_cda.xml", clinical),
                    ("__MACOSX/apple_health_export/._导出.xml", [0, 5, 22, 7, 0, 2]),
                    ("apple_health_export/导出.xml", data),
                    ("apple_health_export/workout-routes/route_2026-01-09_6.47pm.gpx", Array("<gpx/>".utf8)),
                    ("apple_health_export/electrocardiograms/ecg_2025-01-01.csv", Array("Name,x\n".utf8)),
                ].filter { !$0.0.hasSuffix("/") },
                to: zip
            )
            try await withImportStore { store in
                let seen = Collector()
                let summary = try await HealthExportImporter(store: store).importExport(at: zip) { progress in
                    seen.add(progress.bytesRead, of: progress.totalBytes)
                }
                #expect(summary.saved == 36)
                #expect(summary.exportVersion == 14)
                #expect(seen.finalFraction == 1, "progress counts the inflated bytes against the entry's size")
                try await expectAuditPasses(store)
            }
            // The same export unpacked: the folder, or its apple_health_export folder.
            let unpacked = folder.appendingPathComponent("unpacked/apple_health_export")
            try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
            try Data(clinical).write(to: unpacked.appendingPathComponent("export_cda.xml"))
            try Data(data).write(to: unpacked.appendingPathComponent("Export.xml"))
            for place in [unpacked, unpacked.deletingLastPathComponent()] {
                try await withImportStore { store in
                    let summary = try await HealthExportImporter(store: store).importExport(at: place)
                    #expect(summary.saved == 36, "\(place.path)")
                }
            }
            // export_cda.xml alone says what to give instead.
            try await withImportStore { store in
                let error = try await importError(unpacked.appendingPathComponent("export_cda.xml"), into: store)
                #expect(error?.code == .notAnExport)
                #expect(error?.message.contains("export.xml") == true, "\(String(describing: error))")
            }
        }
    }
}

extension FixtureImportTests {
    @Test("Batches in flight: every batch size gives the same counts and the same store, correlations joined")
    func batchSizes() async throws {
        for name in ["export-v14.xml", "export-generated.xml", "export-small.xml", "export-v17-multisport.xml"] {
            let file = fixtureFile(name)
            let (reference, digest) = try await withImportStore { store in
                let summary = try await HealthExportImporter(store: store).importExport(at: file)
                return (summary, try store.stateDigest())
            }
            // Small batches put a correlation in the batch of its records,
            // or just after one still in flight.
            for size in [1, 2, 3, 5, 8, 13, 64] {
                try await withImportStore { store in
                    let summary = try await HealthExportImporter(store: store, batchSize: size).importExport(at: file)
                    #expect(summary == reference, "\(name), batches of \(size)")
                    #expect(try store.stateDigest() == digest, "\(name), batches of \(size)")
                    try await expectImportAddsNothing(file, into: store, batchSize: size)
                    try await expectAuditPasses(store)
                }
            }
        }
    }
}
