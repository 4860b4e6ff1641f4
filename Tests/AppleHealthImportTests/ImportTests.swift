import Anchorage
import AnchorageLog
import AnchorageStoreTesting
import Foundation
import Testing

@testable import AppleHealthImport

/// The committed fixture: a small export written like the Health app's.
let fixture = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/apple-health/export-small.xml")

/// Two days written by Scripts/generate-health-export --days 2.
let generatedFixture = fixture.deletingLastPathComponent().appendingPathComponent("export-generated.xml")

/// A store in a fresh temporary directory, removed after `body`.
func withImportStore<R>(_ body: (HKHealthStore) async throws -> R) async throws -> R {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-import-\(UUID())")
    // Sealed under the run's test key when the run seals (Scripts/test's second pass).
    var configuration = HKHealthStore.Configuration.forTests
    configuration.timeZone = TimeZone(identifier: "Europe/Paris")!
    let store = HKHealthStore(directory: directory, configuration: configuration)
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
        let result = try await body(store)
        await store.close()
        return result
    } catch {
        await store.close()
        throw error
    }
}

func count(_ store: HKHealthStore, _ type: HKSampleType) async throws -> Int {
    try await HKSampleQueryDescriptor(predicates: [.sample(type: type)], sortDescriptors: []).result(for: store).count
}

@Suite("Apple Health import")
struct ImportTests {
    @Test(
        "The fixture imports records, correlations, a workout and the characteristics; unknown and bad elements are counted"
    )
    func importsFixture() async throws {
        try await withImportStore { store in
            let summary = try await HealthExportImporter(store: store, batchSize: 4).importExport(at: fixture)
            // The repeated step record is a second sample, as in HealthKit; a
            // correlation member the file does not repeat at the top level counts.
            #expect(summary.saved == 18)
            #expect(summary.alreadyPresent == 0)
            #expect(summary.identicalRecords == 1)
            #expect(
                summary.read == ["Record": 13, "Correlation": 2, "Workout": 1, "ActivitySummary": 1],
                "the repeat included"
            )
            #expect(
                summary.unknown == [
                    "Record HKQuantityTypeIdentifierFutureMetric": 1, "Record HKDataTypeSleepDurationGoal": 1,
                ]
            )
            #expect(summary.rejected.values.reduce(0, +) == 2, "\(summary.rejected)")
            #expect(summary.characteristicsImported)

            #expect(try await count(store, HKQuantityType(.stepCount)) == 5)
            #expect(try await count(store, HKQuantityType(.heartRate)) == 2)
            #expect(try await count(store, HKCategoryType(.sleepAnalysis)) == 2)
            #expect(try await count(store, HKQuantityType(.bloodPressureSystolic)) == 1, "members are not doubled")
            #expect(try await count(store, HKQuantityType(.dietaryEnergyConsumed)) == 1)
            #expect(try await count(store, HKQuantityType(.dietaryProtein)) == 1)
            #expect(try await count(store, HKWorkoutType.workoutType()) == 1)

            let pressure = try await HKSampleQueryDescriptor(
                predicates: [.correlation(type: HKCorrelationType(.bloodPressure))],
                sortDescriptors: []
            ).result(for: store)
            #expect(pressure.first?.objects.count == 2)
            let mass = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.bodyMass))],
                sortDescriptors: []
            ).result(for: store)
            let pounds = try #require(mass.first?.quantity.doubleValue(for: .pound()))
            #expect(abs(pounds - 140.5) < 1e-9)
            #expect(try store.biologicalSex().biologicalSex == .female)
            #expect(try store.bloodType().bloodType == .aPositive)
            #expect(try store.dateOfBirthComponents().year == 1988)
        }
    }

    @Test("Sources, devices, dates and metadata come through as the export wrote them")
    func fields() async throws {
        try await withImportStore { store in
            _ = try await HealthExportImporter(store: store).importExport(at: fixture)
            let steps = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                sortDescriptors: [SortDescriptor(\.startDate)]
            ).result(for: store)
            let first = try #require(steps.first)
            #expect(first.sourceRevision.source.name == "Marie’s iPhone")
            #expect(first.sourceRevision.source.bundleIdentifier == "export.marie-s-iphone")
            #expect(first.sourceRevision.version == "17.5")
            #expect(first.device?.hardwareVersion == "iPhone14,2")
            #expect(first.device?.softwareVersion == "17.5")
            #expect(first.startDate == ExportDate.parse("2024-06-13 08:21:39 +0200"))
            #expect(first.startDate == Date(timeIntervalSince1970: 1_718_259_699))
            let entered = try #require(steps.last)
            #expect(entered.metadataValues[HKMetadataKeyWasUserEntered] == .integer(1))
            let foods = try await HKSampleQueryDescriptor(
                predicates: [.correlation(type: HKCorrelationType(.food))],
                sortDescriptors: []
            ).result(for: store)
            #expect(foods.first?.metadata?[HKMetadataKeyFoodType] as? String == "Lasagna")
            let workout = try #require(
                try await HKSampleQueryDescriptor(predicates: [.workout()], sortDescriptors: []).result(for: store)
                    .first
            )
            #expect(workout.workoutActivityType == .running)
            #expect(workout.duration == 1_800)
            #expect(workout.totalDistance?.doubleValue(for: .meter()) == 5_200)
            #expect(workout.workoutEvents?.map(\.type) == [.pause, .resume])
        }
    }

    @Test("Importing again adds nothing, and what was deleted since stays deleted")
    func reimport() async throws {
        try await withImportStore { store in
            let first = try await HealthExportImporter(store: store).importExport(at: fixture)
            let steps = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                sortDescriptors: []
            ).result(for: store)
            try await store.delete(steps[0])
            let second = try await expectImportAddsNothing(fixture, into: store)
            // Every top-level element again (nested members are not read twice).
            #expect(second.alreadyPresent == first.read.values.reduce(0, +))
            #expect(try await count(store, HKQuantityType(.stepCount)) == 4)
        }
    }

    @Test("A generated export imports in many small batches, and again adds nothing")
    func generated() async throws {
        try await withImportStore { store in
            let seen = Collector()
            let importer = HealthExportImporter(store: store, batchSize: 50)
            let summary = try await importer.importExport(at: generatedFixture) { progress in
                seen.add(progress.bytesRead, of: progress.totalBytes)
            }
            #expect(summary.saved == 1_154 + 8 + 1 + 2, "records, correlations, workout, activity summaries")
            #expect(summary.alreadyPresent == 0)
            #expect(summary.unknown.isEmpty, "\(summary.unknown)")
            #expect(summary.rejected.isEmpty, "\(summary.rejected)")
            #expect(try await count(store, HKQuantityType(.heartRate)) == 576)
            #expect(try await count(store, HKQuantityType(.dietaryEnergyConsumed)) == 6)
            #expect(seen.finalFraction == 1, "progress reaches the end of the file")
            let again = try await expectImportAddsNothing(generatedFixture, into: store, batchSize: 50)
            #expect(again.alreadyPresent == summary.saved)
        }
    }

    @Test("A file that is not XML, or not there, is a typed error")
    func badFiles() async throws {
        try await withImportStore { store in
            let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID()).xml")
            defer { try? FileManager.default.removeItem(at: broken) }
            let cases: [(String, ImportError.Code)] = [
                ("<HealthData><Record type=\"x\"", .malformed), ("<HealthData><Record></HealthData>", .malformed),
                ("not xml", .notAnExport),
            ]
            for (text, code) in cases {
                try Data(text.utf8).write(to: broken)
                do {
                    _ = try await HealthExportImporter(store: store).importExport(at: broken)
                    Issue.record("a broken file imported: \(text)")
                } catch let error as ImportError {
                    #expect(error.code == code, "\(text): \(error)")
                }
            }
            do {
                _ = try await HealthExportImporter(store: store).importExport(
                    at: URL(fileURLWithPath: "/nonexistent/export.xml")
                )
                Issue.record("a missing file imported")
            } catch let error as ImportError {
                #expect(error.code == .unreadable)
            }
        }
    }

    @Test("Export dates and device descriptions parse, and nonsense does not")
    func parsers() {
        #expect(ExportDate.parse("2017-05-24 13:56:15 +0200") == Date(timeIntervalSince1970: 1_495_626_975))
        #expect(ExportDate.parse("1969-12-31 19:00:00 -0500") == Date(timeIntervalSince1970: 0))
        #expect(ExportDate.parse("2024-02-29 00:00:00 +0000") == Date(timeIntervalSince1970: 1_709_164_800))
        for bad in [
            "", "2017-05-24", "2017-13-24 13:56:15 +0200", "2017-05-24T13:56:15+0200", "2017-05-24 13:56:15 +02:0",
        ] {
            #expect(ExportDate.parse(bad) == nil, "\(bad)")
        }
        let device = ExportDevice.parse(
            "<<HKDevice: 0x2835c5e00>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch3,4, software:5.2.1>"
        )
        #expect(device?.name == "Apple Watch")
        #expect(device?.hardwareVersion == "Watch3,4")
        #expect(device?.softwareVersion == "5.2.1")
        #expect(ExportDevice.parse("garbage") == nil)
        #expect(ExportObjects.bundleIdentifier(forSourceName: "Marie’s iPhone") == "export.marie-s-iphone")
    }

    @Test(
        "Metadata keys the export writes raw, or that Anchorage does not know, are kept under names it accepts (OBJ-6)"
    )
    func metadataKeys() throws {
        let metadata = ExportObjects.metadata([
            ("HKWasUserEntered", "1"), ("HKWeatherTemperature", "21.5 degC"), ("HKAverageMETs", "7.2"), ("note", "x"),
        ])
        #expect(metadata[HKMetadataKeyWasUserEntered] == .integer(1))
        #expect(metadata["export.HKWeatherTemperature"] == .string("21.5 degC"))
        #expect(metadata["export.HKAverageMETs"] == .double(7.2))
        #expect(metadata["note"] == .string("x"))
        // Every key it produces is accepted by the model.
        _ = try HKQuantitySample.stored(
            type: HKQuantityType(.stepCount),
            quantity: HKQuantity(unit: .count(), doubleValue: 1),
            start: Date(timeIntervalSince1970: 0),
            end: Date(timeIntervalSince1970: 60),
            uuid: UUID(),
            sourceRevision: HKSourceRevision(source: HKSource(name: "a", bundleIdentifier: "a"), version: nil),
            metadata: metadata
        )
        #expect(
            ExportObjects.reason(HKError.init(.errorInvalidArgument, rule: "OBJ-10", "x"))
                == "a unit the type does not accept (OBJ-10)"
        )
    }
}

/// Progress reports seen by an import.
final class Collector: @unchecked Sendable {
    // @unchecked: guarded by `lock`.
    private let lock = NSLock()
    private var last: (Int, Int?) = (0, nil)

    func add(_ bytes: Int, of total: Int?) {
        lock.lock()
        last = (bytes, total)
        lock.unlock()
    }

    var finalFraction: Double {
        lock.lock()
        defer { lock.unlock() }
        return Double(last.0) / Double(last.1 ?? 1)
    }
}
