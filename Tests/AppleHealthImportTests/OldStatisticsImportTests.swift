import Anchorage
import AnchorageLog
import Foundation
import Testing

@testable import AppleHealthImport

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The iOS 8 exporter's discrete records written as statistics, valueless
/// NikeFuel records, identical workouts and identical correlations
/// (health-export-format.md, "The oldest exports" and "Identical records").
@Suite("iOS 8 records as statistics, and identical top-level elements")
struct OldStatisticsImportTests {
    /// What the file holds, counted with Foundation's XMLParser (not the
    /// importer's reader): top-level records by type with a value or an
    /// average, those with neither, correlations, workouts.
    final class FileCount: NSObject, XMLParserDelegate {
        var records: [String: Int] = [:]
        var valueless: [String: Int] = [:]
        var correlations: [String: Int] = [:]
        var workouts = 0
        var stepSum = 0.0
        private var depth = 0

        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            depth += 1
            // HealthData is depth 1: its children are the top-level elements.
            guard depth == 2 else { return }
            let type = attributes["type"] ?? ""
            switch name {
            case "Record":
                if attributes["value"] != nil || attributes["average"] != nil {
                    records[type, default: 0] += 1
                } else {
                    valueless[type, default: 0] += 1
                }
                if type == HKQuantityTypeIdentifier.stepCount.rawValue { stepSum += Double(attributes["value"]!)! }
            case "Correlation": correlations[type, default: 0] += 1
            case "Workout": workouts += 1
            default: break
            }
        }

        func parser(
            _ parser: XMLParser,
            didEndElement name: String,
            namespaceURI: String?,
            qualifiedName: String?
        ) {
            depth -= 1
        }

        static func of(_ file: URL) throws -> FileCount {
            let count = FileCount()
            let parser = try #require(XMLParser(contentsOf: file))
            parser.delegate = count
            #expect(parser.parse(), "the fixture is well-formed")
            return count
        }
    }

    static let file = fixtureFile("export-ios8-statistics.xml")

    @Test(
        "iOS 8: every record with a value or an average is a sample, every correlation and workout an object, identical ones included; counts equal an independent count of the file; a second import adds nothing"
    )
    func countsMatchTheFile() async throws {
        let file = try FileCount.of(Self.file)
        #expect(file.workouts == 3 && file.valueless == [HKQuantityTypeIdentifier.nikeFuel.rawValue: 2])
        for batchSize in [1, 1_000] {
            try await withImportStore { store in
                let summary = try await HealthExportImporter(store: store, batchSize: batchSize)
                    .importExport(at: Self.file)
                #expect(summary.rejected == [ExportObjects.valuelessQuantity: 2], "\(summary.rejected)")
                #expect(summary.unknown.isEmpty, "\(summary.unknown)")
                // Two identical heart-rate records, two of each blood-pressure
                // record, two correlations, two workouts.
                #expect(summary.identicalRecords == 5)
                for (identifier, expected) in file.records {
                    let type: HKSampleType =
                        HKObjectType.quantityType(forIdentifier: HKQuantityTypeIdentifier(rawValue: identifier))
                        ?? HKObjectType.categoryType(forIdentifier: HKCategoryTypeIdentifier(rawValue: identifier))!
                    #expect(try await count(store, type) == expected, "\(identifier)")
                }
                for (identifier, expected) in file.correlations {
                    let type = HKObjectType.correlationType(
                        forIdentifier: HKCorrelationTypeIdentifier(rawValue: identifier)
                    )!
                    #expect(try await count(store, type) == expected, "\(identifier)")
                }
                #expect(try await count(store, HKWorkoutType.workoutType()) == file.workouts)
                let steps = try await samples(store, HKQuantityType(.stepCount)).compactMap { $0 as? HKQuantitySample }
                #expect(abs(steps.map { $0.quantity.doubleValue(for: .count()) }.reduce(0, +) - file.stepSum) < 1e-9)
                try await expectImportAddsNothing(Self.file, into: store, batchSize: batchSize)
                try await expectAuditPasses(store)
            }
        }
    }

    @Test(
        "iOS 8: a discrete record of min, max, average and recordCount is one sample with the average as its value, the rest kept as metadata"
    )
    func statisticsRecord() async throws {
        try await withImportStore { store in
            _ = try await HealthExportImporter(store: store).importExport(at: Self.file)
            let heart = try await samples(store, HKQuantityType(.heartRate))
                .compactMap { $0 as? HKDiscreteQuantitySample }
                .sorted { ($0.startDate, $0.uuid.uuidString) < ($1.startDate, $1.uuid.uuidString) }
            #expect(heart.count == 5)
            let first = try #require(heart.first)
            let perSecond = HKUnit.count().unitDivided(by: .second())
            let beatsPerMinute = HKUnit.count().unitDivided(by: .minute())
            #expect(abs(first.averageQuantity.doubleValue(for: perSecond) - 1.32) < 1e-12)
            #expect(abs(first.quantity.doubleValue(for: beatsPerMinute) - 79.2) < 1e-9)
            let minimum = try #require(first.metadata?[ExportObjects.minimumKey] as? HKQuantity)
            let maximum = try #require(first.metadata?[ExportObjects.maximumKey] as? HKQuantity)
            #expect(abs(minimum.doubleValue(for: beatsPerMinute) - 57) < 1e-9)
            #expect(abs(maximum.doubleValue(for: beatsPerMinute) - 126) < 1e-9)
            #expect(first.metadata?[ExportObjects.recordCountKey] as? Int == 48)
            // A record in the usual form keeps its value and gets no statistics.
            let withings = try #require(heart.last)
            #expect(withings.quantity.doubleValue(for: beatsPerMinute) == 64)
            #expect(withings.metadata?[ExportObjects.minimumKey] == nil)
        }
    }

    @Test(
        "identical workouts are two workouts, identical correlations two correlations each holding its own twins of the top-level records"
    )
    func identicalWorkoutsAndCorrelations() async throws {
        try await withImportStore { store in
            _ = try await HealthExportImporter(store: store).importExport(at: Self.file)
            let runs = try await samples(store, HKWorkoutType.workoutType())
                .compactMap { $0 as? HKWorkout }
                .filter { $0.workoutActivityType == .running }
            #expect(runs.count == 2 && Set(runs.map(\.uuid)).count == 2)
            #expect(Set(runs.map { $0.totalDistance?.doubleValue(for: .meterUnit(with: .kilo)) }) == [5.2])
            let pressures = try await samples(store, HKCorrelationType(.bloodPressure)).compactMap {
                $0 as? HKCorrelation
            }
            #expect(pressures.count == 2)
            let systolic = Set(try await samples(store, HKQuantityType(.bloodPressureSystolic)).map(\.uuid))
            let diastolic = Set(try await samples(store, HKQuantityType(.bloodPressureDiastolic)).map(\.uuid))
            #expect(systolic.count == 2 && diastolic.count == 2)
            var members: [Set<UUID>] = []
            for pressure in pressures {
                let own = Set(pressure.objects.map(\.uuid))
                #expect(own.count == 2)
                #expect(own.isSubset(of: systolic.union(diastolic)), "members are top-level twins")
                members.append(own)
            }
            #expect(members[0].isDisjoint(with: members[1]), "each correlation holds its own twins")
        }
    }
}

/// What an import costs on disk beside its log (issue 51's goal).
@Suite("Import footprint")
struct ImportFootprintTests {
    @Test(
        "every export in Fixtures: the store's projections (indices and statistics views) take at most three times its log's file"
    )
    func projectionsBesideTheLog() async throws {
        let folder = fixtureFile("export-v14.xml").deletingLastPathComponent()
        let exports = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".xml") || $0 == "export-v14-routes" }
        #expect(exports.count >= 12)
        for name in exports {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "anchorage-footprint-\(UUID())"
            )
            defer { try? FileManager.default.removeItem(at: directory) }
            let store = HKHealthStore(directory: directory)
            _ = try await HealthExportImporter(store: store).importExport(at: folder.appendingPathComponent(name))
            // Each file's pages: the log's file also holds zeros written ahead.
            let (log, projections) = try store.eventLog().storedBytesByFile()
            await store.close()
            #expect(projections <= 3 * log, "\(name): projections.mdb \(projections) B, data.mdb \(log) B")
        }
    }
}
