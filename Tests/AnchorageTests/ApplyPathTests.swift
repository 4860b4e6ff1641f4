import AnchorageLog
import Foundation
import Testing

@testable import Anchorage

/// The apply path under group commit (issue 16): a request that fails
/// inside a group leaves no trace in any projection.
@Suite("Apply path")
struct ApplyPathTests {
    struct Refused: Error {}

    @Test("OBJ-33, OBJ-32: group commits where one request fails after others replaced sync identifiers equal a replay")
    func failedRequestInGroup() async throws {
        for round in 0..<3 {
            try await withTemporaryStore { peer, _ in
                // The peer replaces sync identifiers with higher versions: where its saves
                // arrive, they hide the visible object (rows for other objects).
                for version in 0..<60 {
                    try await peer.save(
                        steps(
                            Double(version),
                            atMinute: Double(version),
                            metadata: [
                                HKMetadataKeySyncIdentifier: "walk-\(version % 3)",
                                HKMetadataKeySyncVersion: 1_000 + version,
                            ]
                        )
                    )
                }
                let replicated = try peer.eventLog().entries(after: nil, limit: 10_000).entries
                try await withTemporaryStore { store, _ in
                    try await Self.contend(store, replicated: replicated, round: round)
                    let disagreement = try await store.eventLog().checkProjections()
                    #expect(disagreement == nil, "round \(round): \(String(describing: disagreement))")
                }
            }
        }
    }

    /// Local sync-identifier saves, refused appends, duplicate ids and the
    /// peer's entries (a few at a time, some out of order) all at once, so
    /// that group commits mix requests that fail with ones that ran.
    static func contend(_ store: HKHealthStore, replicated: [LogEntry], round: Int) async throws {
        let engine = try store.engine()
        let shared = (0..<30).map { _ in UUID() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var next = 0
                while next < replicated.count {
                    let end = min(next + 2, replicated.count)
                    // Sometimes skips ahead: refused inside the group (originGap).
                    if next % 3 == 1 {
                        _ = try? await engine.log.apply(Array(replicated[min(end, replicated.count - 1)...]))
                    }
                    _ = try await engine.log.apply(Array(replicated[next..<end]))
                    next = end
                }
            }
            for worker in 0..<12 {
                group.addTask {
                    for step in 0..<24 {
                        let task = worker * 24 + step
                        switch (task + worker) % 4 {
                        case 0:
                            // Refused in its precondition, inside the group.
                            _ = try? await engine.log.append(
                                [.save(id: UUID(), kind: EntryKind(rawValue: 1001), payload: [1])]
                            ) { _ in throw Refused() }
                        case 1:
                            // Refused by the index while applying (OBJ-32) when its twin
                            // committed first, after its precondition passed.
                            let model = steps(2, atMinute: Double(task))
                            _ = try? await store.save(
                                HKQuantitySample(
                                    type: stepType,
                                    quantity: model.quantity,
                                    start: model.startDate,
                                    end: model.endDate,
                                    uuid: shared[task % shared.count],
                                    sourceRevision: model.sourceRevision,
                                    device: nil,
                                    metadata: HKMetadata(values: [:])
                                )
                            )
                        default:
                            let sample = steps(
                                Double(task),
                                atMinute: Double(task),
                                metadata: [
                                    HKMetadataKeySyncIdentifier: "walk-\(task % 3)",
                                    HKMetadataKeySyncVersion: task + round,
                                ]
                            )
                            _ = try? await store.save(sample)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
