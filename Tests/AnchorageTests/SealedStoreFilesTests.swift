import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Crypto
import Foundation
import LMDB
import Testing

@testable import Anchorage

/// A sealed store's files, log and projections, hold none of what was
/// saved in it: not the values, not the sources, devices or metadata, not
/// the bundle ids of the apps; while every query answers as an unsealed
/// store's does, and a rebuild gives the projections byte for byte.
@Suite("A sealed store's files: nothing saved in them in clear, the same answers")
struct SealedStoreFilesTests {
    static let key = DataKey.generate()

    static func configuration(sealed: Bool) -> HKHealthStore.Configuration {
        var configuration = statisticsConfiguration()
        configuration.log.sealing = sealed ? .sealed([key]) : .off
        return configuration
    }

    /// One sample of every kind and many quantities, every one from a
    /// source, on a device and with metadata naming `marker`.
    static func objects(marker: String) -> [HKSample] {
        var generator = ObjectGenerator(seed: 52, marker: marker)
        var objects: [HKSample] = []
        for _ in 0..<40 { objects.append(generator.quantitySample()) }
        objects += [
            generator.categorySample(), generator.correlation(), generator.workout(),
            generator.route(locations: 1...20),
            generator.heartbeatSeries(beats: 1...20), generator.electrocardiogram(measurements: 1...50),
            generator.audiogram(), generator.stateOfMind(), generator.assessment(), generator.visionPrescription(),
            generator.quantitySeries(), generator.clinicalRecord(), generator.medicationDoseEvent(),
        ]
        for _ in 0..<20 { objects.append(generator.object()) }
        // A day of step counts whose buckets the views keep.
        let day = iso("2024-05-01T00:00:00Z")
        for index in 0..<48 {
            let start = day.addingTimeInterval(Double(index) * 1_800)
            objects.append(
                HKQuantitySample(
                    type: stepType,
                    quantity: HKQuantity(unit: .count(), doubleValue: 1_234.567_891 + Double(index)),
                    start: start,
                    end: start.addingTimeInterval(600),
                    device: generator.device(),
                    metadata: ["note": "\(marker) steps"]
                )
            )
        }
        return objects
    }

    /// The byte patterns a file holding `objects` in clear would contain:
    /// each quantity's value in its canonical unit, both byte orders.
    static func valuePatterns(_ objects: [HKSample]) -> [[UInt8]] {
        var patterns: Set<[UInt8]> = []
        for case let sample as HKQuantitySample in objects {
            let value = sample.quantity.doubleValue(for: sample.quantityType.canonicalUnit)
            guard abs(value) > 1 else { continue }
            patterns.insert(withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) })
            patterns.insert(withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) })
        }
        return patterns.sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func files(in directory: URL) throws -> [(String, [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { name in
            (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }

    /// Whether `haystack` holds `needle`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { needle in
                (0...(hay.count - needle.count)).contains { start in
                    hay[start] == first && memcmp(hay.baseAddress! + start, needle.baseAddress!, needle.count) == 0
                }
            }
        }
    }

    /// Whether `haystack` holds any of the 8-byte `patterns`.
    static func containsAny(_ haystack: [UInt8], _ patterns: [[UInt8]]) -> Bool {
        guard haystack.count >= 8 else { return false }
        let wanted = Set(patterns.map { $0.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } })
        return haystack.withUnsafeBytes { hay in
            (0...(hay.count - 8)).contains { wanted.contains(hay.loadUnaligned(fromByteOffset: $0, as: UInt64.self)) }
        }
    }

    /// Every database of the projections' file, as stored (no key used):
    /// a SHA-256 of its keys and values in order.
    static func storedProjections(in directory: URL) throws -> [String: [UInt8]] {
        var options = Environment.Configuration()
        options.maxDatabases = 64
        options.options = [.noSubdirectory]
        let environment = try Environment(path: directory.path + "/projections.mdb", configuration: options)
        let databases = try environment.write { txn in
            try txn.databaseNames().map { ($0, try txn.opener.database(named: $0)!) }
        }
        return try environment.read { txn in
            var digests: [String: [UInt8]] = [:]
            for (name, database) in databases {
                var hasher = SHA256()
                try txn.withCursor(on: database) { cursor in
                    try cursor.scan { key, value in
                        hasher.update(data: [UInt8(truncatingIfNeeded: key.count)] + Array(key))
                        hasher.update(data: UInt32(value.count).bigEndianBytes + Array(value))
                        return true
                    }
                }
                digests[name] = Array(hasher.finalize())
            }
            return digests
        }
    }

    /// What a person asks of the store: every type's samples, sources and
    /// statistics, as comparable text.
    static func answers(of store: HKHealthStore, objects: [HKSample]) async throws -> [String] {
        var answers: [String] = []
        for type in Set(objects.map(\.sampleType)).sorted(by: { $0.identifier < $1.identifier }) {
            let samples = try await HKSampleQueryDescriptor(predicates: [.sample(type: type)], sortDescriptors: [])
                .result(for: store)
            answers.append("\(type.identifier): \(samples.map(\.uuid.uuidString).sorted())")
            let sources = try await HKSourceQueryDescriptor(predicate: .sample(type: type)).result(for: store)
            answers.append("\(type.identifier) sources: \(sources.map(\.bundleIdentifier).sorted())")
        }
        let collection = try await collectionResult(
            in: store,
            of: stepType,
            options: [.cumulativeSum, .separateBySource],
            anchor: iso("2024-05-01T00:00:00Z"),
            interval: DateComponents(hour: 1)
        )
        collection.enumerateStatistics(from: iso("2024-05-01T00:00:00Z"), to: iso("2024-05-02T00:00:00Z")) {
            statistics,
            _ in
            answers.append("\(statistics.startDate): \(statistics.count ?? -1)")
        }
        for type in [heartRateType, HKQuantityType(.bodyMass)] {
            do {
                let statistics = try await statisticsResult(
                    in: store,
                    of: type,
                    options: [.discreteAverage, .discreteMin, .discreteMax]
                )
                answers.append(
                    "\(type.identifier): \(String(describing: statistics.averageQuantity())) "
                        + "\(String(describing: statistics.minimumQuantity()))"
                )
            } catch {
                answers.append("\(type.identifier): \(error)")
            }
        }
        return answers
    }

    @Test(
        "a marker in every kind of sample, its sources, devices, metadata and apps' bundle ids: in no file of the sealed store, in the unsealed one's; the same answers; audit and a rebuild agree byte for byte"
    )
    func nothingInClear() async throws {
        let marker = "sealmark\(UInt32.random(in: 0...UInt32.max))"
        let objects = Self.objects(marker: marker)
        let patterns = Self.valuePatterns(objects)
        #expect(patterns.count > 100)
        var answers: [[String]] = []
        for sealed in [false, true] {
            try await withTemporaryDirectory { directory in
                let store = HKHealthStore(directory: directory, configuration: Self.configuration(sealed: sealed))
                // An app named by the marker asks to read and share steps.
                let app = try await appStore(
                    directory,
                    "org.\(marker).reader",
                    types: [stepType],
                    configuration: Self.configuration(sealed: sealed)
                )
                // One at a time: the generator makes some a store refuses
                // (VAL-1), refused alike sealed or not.
                var refused: [String] = []
                for object in objects {
                    do { try await store.save(object) } catch { refused.append("\(object.uuid): \(error)") }
                }
                #expect(refused.count < objects.count / 4)
                let saved = objects.filter { object in !refused.contains { $0.hasPrefix(object.uuid.uuidString) } }
                try await store.delete(Array(saved.prefix(3)))
                answers.append(refused + (try await Self.answers(of: store, objects: objects)))
                #expect(
                    try await store.eventLog().checkProjections() == nil,
                    "the projections equal a replay of the log"
                )
                await app.close()
                await store.close()
                let files = try Self.files(in: directory)
                let withMarker = files.filter { Self.contains($0.1, Array(marker.utf8)) }.map(\.0)
                let withValues = files.filter { Self.containsAny($0.1, patterns) }.map(\.0)
                if sealed {
                    #expect(withMarker.isEmpty, "the sealed store's \(withMarker) hold the marker")
                    #expect(withValues.isEmpty, "the sealed store's \(withValues) hold saved values")
                    // Rebuilt from the log, the projections are the same bytes.
                    let before = try Self.storedProjections(in: directory)
                    try FileManager.default.removeItem(at: directory.appendingPathComponent("projections.mdb"))
                    let reopened = HKHealthStore(directory: directory, configuration: Self.configuration(sealed: true))
                    answers.append(refused + (try await Self.answers(of: reopened, objects: objects)))
                    await reopened.close()
                    #expect(try Self.storedProjections(in: directory) == before, "a rebuild gave other bytes")
                } else {
                    // What the test looks for is there when nothing is sealed.
                    #expect(withMarker.contains("projections.mdb") && withMarker.contains("data.mdb"))
                    #expect(withValues.contains("projections.mdb"))
                }
            }
        }
        #expect(answers.count == 3)
        #expect(answers[1] == answers[0], "the sealed store answers otherwise")
        #expect(answers[2] == answers[0], "the rebuilt sealed store answers otherwise")
    }
}
