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

/// Identical records (health-export-format.md, "Identical records").
@Suite("Identical records")
struct IdenticalRecordTests {
    @Test(
        "three byte-identical records are three samples (numbered by occurrence), whatever the batch size; a correlation's member is still its top-level twin; a second import adds nothing"
    )
    func identicalRecords() async throws {
        var identifiers: [[UUID]] = []
        for batchSize in [1, 2, 1_000] {
            try await withImportStore { store in
                let file = fixtureFile("export-v12-identical-records.xml")
                let summary = try await HealthExportImporter(store: store, batchSize: batchSize).importExport(at: file)
                #expect(summary.read == ["Record": 5, "Correlation": 1])
                #expect(summary.saved == 6, "batch size \(batchSize)")
                #expect(summary.identicalRecords == 2)
                #expect(summary.alreadyPresent == 0)
                #expect(summary.rejected.isEmpty, "\(summary.rejected)")
                let energy = try await samples(store, HKQuantityType(.activeEnergyBurned))
                    .compactMap { $0 as? HKQuantitySample }
                #expect(energy.count == 4)
                let total = energy.map { $0.quantity.doubleValue(for: .kilocalorie()) }.reduce(0, +)
                #expect(abs(total - (3 * 212.5 + 160)) < 1e-9, "the file's sum")
                #expect(try await count(store, HKQuantityType(.dietaryEnergyConsumed)) == 1)
                identifiers.append(energy.map(\.uuid).sorted { $0.uuidString < $1.uuidString })
                let again = try await expectImportAddsNothing(file, into: store)
                #expect(again.alreadyPresent == 6)
                try await expectAuditPasses(store)
            }
        }
        #expect(Set(identifiers).count == 1, "the same identifiers whatever the batch size")
    }

    @Test("the occurrence window counts each content, forgets the oldest past its capacity, and stays bounded")
    func window() {
        var window = OccurrenceWindow(capacity: 3)
        let keys = (0..<5).map { OccurrenceWindow.Key(high: UInt64($0), low: 7) }
        #expect(window.occurrence(of: keys[0]) == 0)
        #expect(window.occurrence(of: keys[0]) == 1)
        #expect(window.occurrence(of: keys[1]) == 0)
        #expect(window.occurrence(of: keys[2]) == 0)
        #expect(window.occurrence(of: keys[0]) == 2)
        // A fourth content pushes out the oldest (keys[0]).
        #expect(window.occurrence(of: keys[3]) == 0)
        #expect(window.occurrence(of: keys[0]) == 0)
        #expect(window.occurrence(of: keys[2]) == 1)
        // Against a reference model over a generated sequence.
        var model: [(OccurrenceWindow.Key, UInt32)] = []
        var generated = OccurrenceWindow(capacity: 16)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let key = OccurrenceWindow.Key(high: UInt64.random(in: 0..<40, using: &random), low: 0)
            let expected: UInt32
            if let index = model.firstIndex(where: { $0.0 == key }) {
                expected = model[index].1
                model[index].1 += 1
            } else {
                expected = 0
                if model.count == 16 { model.removeFirst() }
                model.append((key, 1))
            }
            #expect(generated.occurrence(of: key) == expected)
        }
    }
}

/// Writes an export of `records` (lines of XML) under a Version 12-style
/// prologue to a temporary file, removed after `body`.
func withExport<R>(_ records: [String], _ body: (URL) async throws -> R) async throws -> R {
    let text =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData ANY>\n]>\n"
        + "<HealthData locale=\"en_US\">\n" + records.joined(separator: "\n") + "\n</HealthData>\n"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("anchorage-export-\(UUID()).xml")
    try Data(text.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try await body(file)
}

/// Files that are not well-formed XML (health-export-format.md, "The
/// oldest exports": "Some are not well-formed").
@Suite("Exports that are not well-formed")
struct NotWellFormedExportTests {
    @Test(
        "iOS 9: attribute names with spaces are mended with _ and counted with their line; every record is read; a second import adds nothing"
    )
    func mendedNames() async throws {
        try await withImportStore { store in
            let file = fixtureFile("export-ios9-not-well-formed.xml")
            let summary = try await HealthExportImporter(store: store, batchSize: 2).importExport(at: file)
            #expect(summary.read == ["Record": 6])
            #expect(summary.saved == 6)
            #expect(summary.rejected.isEmpty, "\(summary.rejected)")
            #expect(summary.mendedAttributeNames == 2)
            #expect(summary.firstMendedAttributeNameLine == 5)
            #expect(summary.notWellFormed == 0)
            #expect(try store.biologicalSex().biologicalSex == .female)
            #expect(try await count(store, HKQuantityType(.bodyMass)) == 1)
            #expect(try await count(store, HKQuantityType(.heartRate)) == 1)
            #expect(try await count(store, HKQuantityType(.stepCount)) == 2)
            try await expectImportAddsNothing(file, into: store)
            try await expectAuditPasses(store)
        }
    }

    @Test("a place libxml2 reads past in recovering mode is counted with its line; the records around it are saved")
    func recovered() async throws {
        let records = (0..<4).map { index in
            let attributes =
                #"type="HKQuantityTypeIdentifierStepCount" sourceName="x" unit="count" "#
                + #"startDate="2024-06-13 0\#(index):00:00 +0200" endDate="2024-06-13 0\#(index):10:00 +0200" "#
                + #"value="\#(index + 1)""#
            // The third repeats an attribute: not well-formed.
            return " <Record " + attributes + (index == 2 ? #" value="9""# : "") + "/>"
        }
        try await withExport(records) { file in
            try await withImportStore { store in
                let summary = try await HealthExportImporter(store: store).importExport(at: file)
                #expect(summary.notWellFormed == 1)
                #expect(summary.firstNotWellFormedLine == 8)
                #expect(summary.saved == 4)
                #expect(try await count(store, HKQuantityType(.stepCount)) == 4)
                try await expectAuditPasses(store)
            }
        }
    }

    @Test("the repair gives the same bytes however the file is cut into chunks, and changes only names with spaces")
    func repairChunks() {
        let body = Array(
            (#"<HealthData><Record type="a b" Health Mate App Version="2.6.2" unit = "kg" x="1"/>"#
                + #"<!-- a comment with <words> --></Record><Me  a  b="1"/></HealthData>"#).utf8
        )
        func repaired(_ cuts: [Int]) -> (bytes: [UInt8], mended: Int) {
            var repair = AttributeNameRepair(line: 1)
            var output: [UInt8] = []
            var dropped = 0
            var start = 0
            for end in cuts + [body.count] where end >= start {
                body[start..<end].withUnsafeBytes { repair.repair($0, into: &output, dropped: &dropped) }
                start = end
            }
            return (output, repair.mended)
        }
        let whole = repaired([])
        let expected =
            #"<HealthData><Record type="a b" Health_Mate_App_Version="2.6.2" unit = "kg" x="1"/>"#
            + #"<!-- a comment with <words> --></Record><Me  a__b="1"/></HealthData>"#
        #expect(String(decoding: whole.bytes, as: UTF8.self) == expected)
        #expect(whole.mended == 2)
        #expect(whole.bytes.count == body.count, "one byte for one: lines and columns stay the file's")
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let cuts = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                Int.random(in: 0...body.count, using: &random)
            }.sorted()
            #expect(repaired(cuts).bytes == whole.bytes)
        }
    }
}

/// VAL-1 in the importer.
@Suite("Values in range, imported")
struct ImportedValueRangeTests {
    @Test("VAL-1: records out of their type's range are counted as rejected and the import goes on")
    func outOfRange() async throws {
        func record(_ type: String, _ unit: String, _ value: String, minute: Int) -> String {
            #" <Record type="HKQuantityTypeIdentifier\#(type)" sourceName="x" unit="\#(unit)" "#
                + #"startDate="2024-06-13 08:\#(minute):00 +0200" endDate="2024-06-13 08:\#(minute):30 +0200" "#
                + #"value="\#(value)"/>"#
        }
        let records = [
            record("StepCount", "count", "-12", minute: 10), record("StepCount", "count", "120", minute: 11),
            record("HeartRate", "count/min", "0", minute: 12), record("HeartRate", "count/min", "61", minute: 13),
            record("BodyMass", "kg", "-3", minute: 14),
        ]
        try await withExport(records) { file in
            try await withImportStore { store in
                let summary = try await HealthExportImporter(store: store).importExport(at: file)
                #expect(summary.rejected == ["a value outside its type's range (VAL-1)": 3], "\(summary.rejected)")
                #expect(summary.saved == 2)
                #expect(try await count(store, HKQuantityType(.stepCount)) == 1)
                #expect(try await count(store, HKQuantityType(.heartRate)) == 1)
                #expect(try await count(store, HKQuantityType(.bodyMass)) == 0)
            }
        }
    }
}
