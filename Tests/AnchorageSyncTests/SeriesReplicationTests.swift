import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Routes, heartbeat and quantity series, electrocardiograms, audiograms,
/// states of mind, assessments, vision prescriptions and clinical records
/// saved and deleted on several peers, replicated in random pulls: after the
/// peers converge, every peer holds exactly the objects a model of the
/// history keeps, series with the very points saved, and every peer passes
/// audit.
@Suite("Series and the other new kinds across peers")
struct SeriesReplicationTests {
    @Test(
        "SERIES-1, SERIES-2, SERIES-6, ECG-1, AUD-1, MIND-1, ASSESS-1, VISION-1, CLIN-1: every new kind saved and deleted on three peers converges, points intact, audit passes",
        arguments: testSeeds([5, 41])
    )
    func convergence(seed: UInt64) async throws {
        try await withTemporaryDirectories(3) { directories in
            let cluster = try Cluster(directories: directories, seed: seed)
            do {
                try await Self.run(cluster, seed: seed)
                await cluster.close()
            } catch {
                await cluster.close()
                throw error
            }
        }
    }

    static func run(_ cluster: Cluster, seed: UInt64) async throws {
        var generator = ObjectGenerator(seed: seed)
        var random = SeededGenerator(seed: seed ^ 0x5E41E5)
        // The model: every series saved, by uuid, and those deleted.
        var saved: [UUID: HKSample] = [:]
        var deleted = Set<UUID>()
        for _ in 0..<40 {
            let peer = Int.random(in: 0..<cluster.count, using: &random)
            let store = cluster.owners[peer]
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let sample: HKSample =
                    switch Int.random(in: 0..<9, using: &random) {
                    case 0: generator.route(locations: 1...400)
                    case 1: generator.heartbeatSeries()
                    case 2: generator.electrocardiogram(measurements: 0...3_000)
                    case 3: generator.quantitySeries()
                    case 4: generator.audiogram()
                    case 5: generator.stateOfMind()
                    case 6: generator.assessment()
                    case 7: generator.visionPrescription()
                    default: generator.clinicalRecord()
                    }
                try await store.save(sample)
                saved[sample.uuid] = sample
            case 5..<7:
                // Delete one this peer has seen (saved here or pulled).
                let candidates = saved.keys.filter { !deleted.contains($0) }.sorted { $0.uuidString < $1.uuidString }
                guard let id = candidates.randomElement(using: &random) else { continue }
                if try await store.deleteObjects(withUUIDs: [id]) > 0 { deleted.insert(id) }
            default:
                let other = (peer + Int.random(in: 1..<cluster.count, using: &random)) % cluster.count
                _ = try await cluster.replicator(peer, other).sync(.pull)
            }
        }
        try await cluster.converge()

        let expected = Set(saved.keys).subtracting(deleted)
        #expect(!expected.isEmpty && !deleted.isEmpty, "the history saved and deleted series")
        let digests = try cluster.owners.map { try $0.stateDigest() }
        #expect(Set(digests).count == 1, "every peer shows the same state")
        for (peer, store) in cluster.owners.enumerated() {
            var found = Set<UUID>()
            for type in Set(saved.values.map(\.sampleType)).sorted(by: { $0.identifier < $1.identifier }) {
                let listed = try await HKSampleQueryDescriptor(
                    predicates: [HKSamplePredicate<HKSample>.sample(type: type)],
                    sortDescriptors: []
                ).result(for: store)
                found.formUnion(listed.map(\.uuid))
                for sample in listed {
                    let original = try #require(saved[sample.uuid])
                    #expect(sample.sampleType == original.sampleType && sample.startDate == original.startDate)
                    #expect(sample.endDate == original.endDate && sample.metadata?.count == original.metadata?.count)
                    if let points = original.seriesPoints {
                        #expect(try Self.points(of: sample, in: store) == points)
                    }
                }
            }
            #expect(found == expected, "peer \(peer)")
            #expect(try await store.eventLog().checkProjections() == nil, "peer \(peer): audit")
            #expect(try store.eventLog().verify().problem == nil, "peer \(peer): audit")
        }
    }

    /// The points the store holds for `sample`, read as series queries do.
    static func points(of sample: HKSample, in store: HKHealthStore) throws -> SeriesPoints {
        try store.engine().seriesSample(sample.uuid, type: sample.sampleType, caller: store.caller).points
    }
}
