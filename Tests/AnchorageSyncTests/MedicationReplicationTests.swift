import AnchorageLog
import AnchorageSync
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// A person's medications saved on several peers: after the peers converge
/// every one shows the same medications, one per concept, the latest save
/// of each concept winning, and every log audits.
@Suite("Medications across peers")
struct MedicationReplicationTests {
    @Test(
        "MED-2: medications and dose events saved on three peers converge, the latest save of a concept wins, audit passes"
    )
    func convergence() async throws {
        try await withTemporaryDirectories(3) { directories in
            let cluster = try Cluster(directories: directories, seed: 36)
            do {
                try await Self.run(cluster)
                await cluster.close()
            } catch {
                await cluster.close()
                throw error
            }
        }
    }

    static func run(_ cluster: Cluster) async throws {
        var generator = ObjectGenerator(seed: 36)
        var saved: [HKUserAnnotatedMedication] = []
        for peer in 0..<cluster.count {
            let own = (0..<5).map { _ in generator.userAnnotatedMedication() }
            let distinct = Dictionary(own.map { ($0.medication.identifier, $0) }, uniquingKeysWith: { a, _ in a })
            try await cluster.owners[peer].saveUserAnnotatedMedications(Array(distinct.values))
            saved += distinct.values
            try await cluster.owners[peer].save((0..<10).map { _ in generator.medicationDoseEvent() })
        }
        // One concept changed on peer 0, then later on peer 2: peer 2's wins everywhere.
        let first = try HKUserAnnotatedMedication.stored(
            conceptCode: "shared",
            displayText: "Metformin",
            generalForm: .tablet,
            hasSchedule: true
        )
        try await cluster.owners[0].saveUserAnnotatedMedications([first])
        // The later save wins by its origin time: wait until the wall clock
        // has passed the first one's, so peer 2's is later whatever the pace.
        let firstTime = try #require(try cluster.entries(0).last).timestamp
        try await waitUntil("the wall clock is past the first save's time") {
            (Date().timeIntervalSince1970 * 1_000_000_000).rounded() > Double(firstTime)
        }
        let later = try HKUserAnnotatedMedication.stored(
            conceptCode: "shared",
            displayText: "Metformin",
            generalForm: .tablet,
            isArchived: true,
            hasSchedule: true
        )
        try await cluster.owners[2].saveUserAnnotatedMedications([later])
        #expect(try #require(try cluster.entries(2).last).timestamp > firstTime, "the later save is later")
        try await cluster.converge()

        var views: [Set<HKUserAnnotatedMedication>] = []
        for (peer, store) in cluster.owners.enumerated() {
            let medications = try await HKUserAnnotatedMedicationQueryDescriptor().result(for: store)
            #expect(Set(medications.map(\.medication.identifier)).count == medications.count, "one per concept")
            #expect(medications.contains(later) && !medications.contains(first), "peer \(peer)")
            views.append(Set(medications))
            let doses = try await HKSampleQueryDescriptor(
                predicates: [.sample(type: HKObjectType.medicationDoseEventType())],
                sortDescriptors: []
            ).result(for: store)
            #expect(!doses.isEmpty && doses.allSatisfy { $0 is HKMedicationDoseEvent })
            #expect(try await store.eventLog().checkProjections() == nil, "peer \(peer): audit")
            #expect(try store.eventLog().verify().problem == nil, "peer \(peer): audit")
        }
        #expect(views.allSatisfy { $0 == views[0] })
        let concepts = Set(saved.map(\.medication.identifier)).union([first.medication.identifier])
        #expect(Set(views[0].map(\.medication.identifier)) == concepts)
    }
}
