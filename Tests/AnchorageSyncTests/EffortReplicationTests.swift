import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Workout effort relations changed concurrently on several peers: after
/// the peers converge, every one shows the relations a model computes from
/// the set of entries (per workout and sample, the latest by origin time
/// then dot), whatever order the entries arrived in.
@Suite("Effort relations across peers")
struct EffortReplicationTests {
    @Test(
        "Concurrent relate and unrelate of effort scores converge to the latest change per pair",
        arguments: testSeeds([7, 31, 83])
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
        var random = SeededGenerator(seed: seed)
        let start = Cluster.day.addingTimeInterval(3_600)
        let end = start.addingTimeInterval(3_600)
        let legs = (0..<2).map { index in
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = index == 0 ? .cycling : .running
            return try! HKWorkoutActivity.validated(
                workoutConfiguration: configuration,
                start: start.addingTimeInterval(Double(index) * 1_800),
                end: start.addingTimeInterval(Double(index + 1) * 1_800)
            )
        }
        let workout = try HKWorkout.validated(
            activityType: .swimBikeRun,
            start: start,
            end: end,
            workoutActivities: legs
        )
        let scores = (0..<4).map { index in
            HKQuantitySample(
                type: HKQuantityType(index % 2 == 0 ? .workoutEffortScore : .estimatedWorkoutEffortScore),
                quantity: HKQuantity(unit: .appleEffortScore(), doubleValue: Double(3 + index)),
                start: start,
                end: end
            )
        }
        try await cluster.owners[0].save(workout)
        try await cluster.owners[0].relateWorkoutEffortSample(scores[0], with: workout, activity: nil)
        try await cluster.owners[0].save(Array(scores[1...]))
        try await cluster.converge()

        var deleted = Set<UUID>()
        for _ in 0..<60 {
            let peer = Int.random(in: 0..<cluster.count, using: &random)
            let store = cluster.owners[peer]
            let score = scores[Int.random(in: 0..<scores.count, using: &random)]
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<40:
                let activity = [nil, legs[0], legs[1]][Int.random(in: 0...2, using: &random)]
                do {
                    try await store.relateWorkoutEffortSample(score, with: workout, activity: activity)
                } catch let error as HKError where deleted.contains(score.uuid) {
                    // A sample deleted here cannot be related again.
                    #expect(error.code == .errorInvalidArgument)
                }
            case 40..<70:
                do {
                    try await store.unrelateWorkoutEffortSample(score, from: workout, activity: nil)
                } catch let error as HKError where deleted.contains(score.uuid) {
                    #expect(error.code == .errorInvalidArgument)
                }
            case 70..<73:
                // Only the last score is ever deleted, so the others keep
                // changing to the end.
                try await store.delete([scores[3]])
                deleted.insert(scores[3].uuid)
            default:
                let other = (peer + Int.random(in: 1..<cluster.count, using: &random)) % cluster.count
                _ = try await cluster.replicator(peer, other).sync(.pull)
            }
        }
        try await cluster.converge()

        // The model: per (workout, sample) the latest effort entry decides
        // (the later origin time; on a tie, the greater dot: origin id's
        // bytes, then counter); a deleted sample has no relation.
        func later(_ a: LogEntry, than b: LogEntry) -> Bool {
            if a.timestamp != b.timestamp { return a.timestamp > b.timestamp }
            let x = withUnsafeBytes(of: a.dot.origin.uuid.uuid) { Array($0) }
            let y = withUnsafeBytes(of: b.dot.origin.uuid.uuid) { Array($0) }
            if x != y { return y.lexicographicallyPrecedes(x) }
            return a.dot.counter > b.dot.counter
        }
        var latest: [UUID: (entry: LogEntry, record: EffortRecord)] = [:]
        for entry in try cluster.entries(0) where entry.kind == StoreKind.effort {
            guard let record = entry.payload?.withUnsafeBytes({ EffortRecord($0) }) else { continue }
            if let current = latest[record.sample], !later(entry, than: current.entry) { continue }
            latest[record.sample] = (entry, record)
        }
        var expected: [UUID: UUID?] = [:]
        for (sample, decision) in latest where decision.record.operation == .relate && !deleted.contains(sample) {
            expected[sample] = decision.record.activity
        }
        #expect(latest.count >= 3, "the history related most samples at least once")
        #expect(!expected.isEmpty, "some samples end related")

        let digests = try cluster.owners.map { try $0.stateDigest() }
        #expect(Set(digests).count == 1, "every peer shows the same state")
        for (peer, store) in cluster.owners.enumerated() {
            for activity in [nil, legs[0], legs[1]] as [HKWorkoutActivity?] {
                let wanted = Set(
                    expected.filter { activity == nil || $0.value == activity?.uuid }.keys
                )
                var found = Set<UUID>()
                for type in [HKQuantityType(.workoutEffortScore), HKQuantityType(.estimatedWorkoutEffortScore)] {
                    let matches = try await HKSampleQueryDescriptor(
                        predicates: [
                            .quantitySample(
                                type: type,
                                predicate: HKQuery.predicateForWorkoutEffortSamplesRelated(
                                    workout: workout,
                                    activity: activity
                                )
                            )
                        ],
                        sortDescriptors: []
                    ).result(for: store)
                    found.formUnion(matches.map(\.uuid))
                }
                #expect(found == wanted, "peer \(peer), activity \(String(describing: activity?.uuid))")
            }
            #expect(try await store.eventLog().checkProjections() == nil, "peer \(peer): audit")
            #expect(try store.eventLog().verify().problem == nil, "peer \(peer): audit")
        }
    }
}
