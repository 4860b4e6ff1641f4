import AnchorageLog
import AnchorageStoreTesting
import AnchorageSync
import Foundation
import Testing

@testable import Anchorage

/// Purging deleted samples' data: gone from the data file, the chain still
/// verifies, and a peer that still holds the data never brings it back.
@Suite("Purge")
struct PurgeTests {
    @Test("Purged data leaves the file, verify still passes, and syncing with a peer that has it brings nothing back")
    func purgeThenSync() async throws {
        try await withTemporaryDirectories(2) { directories in
            var configuration = HKHealthStore.Configuration()
            configuration.log.sealing = HKHealthStore.Configuration.testSealing
            configuration.log.durability = .none
            var a = HKHealthStore(directory: directories[0], configuration: configuration)
            let b = HKHealthStore(directory: directories[1], configuration: configuration)
            let markers = (0..<3).map { "purge-marker-\($0)-\(UUID().uuidString)" }
            let samples = markers.enumerated().map { index, marker in
                HKQuantitySample(
                    type: HKQuantityType(.stepCount),
                    quantity: HKQuantity(unit: .count(), doubleValue: Double(100 + index)),
                    start: Date(timeIntervalSince1970: 1_717_200_000 + Double(index) * 600),
                    end: Date(timeIntervalSince1970: 1_717_200_300 + Double(index) * 600),
                    metadata: ["com.example.marker": marker]
                )
            }
            try await a.save(samples)
            let pull = { (into: HKHealthStore, from: HKHealthStore) in
                try await PeerReplicator(
                    log: try into.eventLog(),
                    peer: InMemoryTransport(serving: try from.eventLog())
                )
                .sync(.both)
            }
            _ = try await pull(b, a)
            // What the data file holds of each sample: its marker, or in a
            // sealed store its save's envelope (the marker is in none).
            let stored = try a.eventLog().entries(after: nil, limit: 100).entries
            let forms: [[UInt8]] = zip(samples, markers).map { sample, marker in
                guard let envelope = stored.first(where: { $0.id == sample.uuid })?.envelope else {
                    return Array(marker.utf8)
                }
                return Array(envelope)
            }
            _ = try await a.deleteObjects(withUUIDs: [samples[0].uuid, samples[1].uuid])
            _ = try await pull(b, a)

            #expect(try await a.purgeDeletedSamples(before: Date().addingTimeInterval(60)) == 2)
            #expect(try await a.purgeDeletedSamples(before: Date().addingTimeInterval(60)) == 0, "purged twice")
            #expect(try a.eventLog().verify().isIntact)
            #expect(try await a.eventLog().checkProjections() == nil)
            #expect(try a.stateDigest() == b.stateDigest(), "purging changed the visible state")
            await a.close()
            try EventLog.compact(at: directories[0])
            try Self.expectMarkers(in: directories[0], absent: forms[0..<2], present: forms[2], markers: markers)

            // Sync both ways with b, which still holds the payloads.
            a = HKHealthStore(directory: directories[0], configuration: configuration)
            #expect(try a.eventLog().verify().isIntact)
            _ = try await pull(a, b)
            _ = try await pull(b, a)
            let visible = try await HKSampleQueryDescriptor(
                predicates: [.quantitySample(type: HKQuantityType(.stepCount))],
                sortDescriptors: []
            ).result(for: a)
            #expect(visible.map(\.uuid) == [samples[2].uuid])
            #expect(try a.stateDigest() == b.stateDigest())
            // b keeps its copies: purging is local.
            let onB = try b.eventLog().entries(after: nil, limit: 100).entries
            #expect(onB.filter(\.isPurged).isEmpty)
            await a.close()
            await b.close()
            try Self.expectMarkers(in: directories[0], absent: forms[0..<2], present: forms[2], markers: markers)
        }
    }

    /// Searches the store's data file for each sample's stored form (its
    /// marker, or its sealed envelope); no marker is in a sealed store.
    static func expectMarkers(
        in directory: URL,
        absent: ArraySlice<[UInt8]>,
        present: [UInt8],
        markers: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let file = try Data(contentsOf: directory.appendingPathComponent("data.mdb"))
        for form in absent {
            #expect(
                file.range(of: Data(form)) == nil,
                "a purged sample is still in the data file",
                sourceLocation: sourceLocation
            )
        }
        #expect(
            file.range(of: Data(present)) != nil,
            "the live sample's data is missing",
            sourceLocation: sourceLocation
        )
        if HKHealthStore.Configuration.isSealingRun {
            for marker in markers {
                #expect(
                    file.range(of: Data(marker.utf8)) == nil,
                    "a sealed store shows a marker",
                    sourceLocation: sourceLocation
                )
            }
        }
    }
}
