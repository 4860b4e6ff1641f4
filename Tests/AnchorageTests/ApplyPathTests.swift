import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
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
        let engine = try await store.engine()
        let shared = (0..<30).map { _ in UUID() }
        let acknowledged = Collector<UUID>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var next = 0
                while next < replicated.count {
                    let end = min(next + 2, replicated.count)
                    // Sometimes skips ahead: refused inside the group (originGap),
                    // unless what it skips to is the next entry anyway.
                    if next % 3 == 1 {
                        let ahead = min(end, replicated.count - 1)
                        do {
                            _ = try await engine.log.apply(Array(replicated[ahead...]))
                            #expect(ahead == next, "entries from \(ahead) applied before \(next)")
                        } catch let error as LogError {
                            #expect(error.code == .originGap, "\(error)")
                        }
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
                            await #expect(throws: Refused.self) {
                                _ = try await engine.log.append(
                                    [.save(id: UUID(), kind: EntryKind(rawValue: 1001), payload: [1])]
                                ) { _ in throw Refused() }
                            }
                        case 1:
                            // Refused by the index while applying (OBJ-32) when its twin
                            // committed first, after its precondition passed.
                            let model = steps(2, atMinute: Double(task))
                            let twin = HKQuantitySample(
                                type: stepType,
                                quantity: model.quantity,
                                fields: SampleFields(
                                    start: model.startDate,
                                    end: model.endDate,
                                    uuid: shared[task % shared.count],
                                    sourceRevision: model.sourceRevision,
                                    device: nil,
                                    metadata: HKMetadata(values: [:])
                                )
                            )
                            var saved = false
                            do {
                                try await store.save(twin)
                                saved = true
                            } catch let error as HKError {
                                #expect(error.rule == "OBJ-32", "only a twin's refusal: \(error)")
                            }
                            if saved { acknowledged.append(shared[task % shared.count]) }
                        default:
                            let sample = steps(
                                Double(task),
                                atMinute: Double(task),
                                metadata: [
                                    HKMetadataKeySyncIdentifier: "walk-\(task % 3)",
                                    HKMetadataKeySyncVersion: task + round,
                                ]
                            )
                            try await store.save(sample)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // The requests that committed beside failing ones are all there: each
        // id saved once, by the one request that was acknowledged.
        let saved = acknowledged.all
        #expect(!saved.isEmpty && Set(saved).count == saved.count, "each id acknowledged once")
        let stored = try await samples(in: store, of: stepType).map(\.uuid)
        #expect(Set(saved).isSubset(of: Set(stored)), "an acknowledged save is missing")
    }
}

extension ApplyPathTests {
    /// Every page of a feed of step samples from `anchor`, with `limit`.
    static func feed(
        _ store: HKHealthStore,
        from anchor: HKQueryAnchor?,
        limit: Int
    ) async throws -> (added: [UUID], deleted: [UUID], anchor: HKQueryAnchor?) {
        var added: [UUID] = []
        var deleted: [UUID] = []
        var anchor = anchor
        while true {
            let page = try await HKAnchoredObjectQueryDescriptor(
                predicates: [.quantitySample(type: stepType)],
                anchor: anchor,
                limit: limit
            ).result(for: store)
            added += page.addedSamples.map(\.uuid)
            deleted += page.deletedObjects.map(\.uuid)
            anchor = page.newAnchor
            if page.addedSamples.isEmpty && page.deletedObjects.isEmpty { return (added, deleted, anchor) }
        }
    }

    @Test(
        "AQ-6, AQ-12, AQ-13: on converged peers with concurrent sync-identifier replacements, a feed from the start reports each object once, the same on every peer"
    )
    func feedFromStartOnPeers() async throws {
        for seed in UInt64(1)...6 {
            var random = SeededGenerator(seed: seed)
            try await withTemporaryStore { a, _ in
                try await withTemporaryStore { b, _ in
                    try await withTemporaryStore { c, _ in
                        let peers = [a, b, c]
                        var consumers: [(anchor: HKQueryAnchor?, live: Set<UUID>)] = Array(
                            repeating: (nil, []),
                            count: 3
                        )
                        var saved: [[HKSample]] = [[], [], []]
                        for step in 0..<90 {
                            let index = Int.random(in: 0..<3, using: &random)
                            let store = peers[index]
                            switch Int.random(in: 0..<10, using: &random) {
                            case 0..<6:
                                let sample = steps(
                                    Double(step),
                                    atMinute: Double(step),
                                    metadata: [
                                        HKMetadataKeySyncIdentifier: "walk-\(Int.random(in: 0..<4, using: &random))",
                                        HKMetadataKeySyncVersion: Int.random(in: 0..<6, using: &random),
                                    ]
                                )
                                try await store.save(sample)
                                saved[index].append(sample)
                            case 6:
                                if let victim = saved[index].randomElement(using: &random) {
                                    _ = try await store.deleteObjects(withUUIDs: [victim.uuid])
                                }
                            case 7, 8:
                                // Some of one peer's log reaches another.
                                let from = peers[Int.random(in: 0..<3, using: &random)]
                                let entries = try from.eventLog().entries(after: nil, limit: 100_000).entries
                                _ = try await store.eventLog().apply(
                                    Array(entries.prefix(Int.random(in: 0...entries.count, using: &random)))
                                )
                            default:
                                // A consumer of this peer pages from its own anchor.
                                let page = try await Self.feed(
                                    store,
                                    from: consumers[index].anchor,
                                    limit: Int.random(in: 1...5, using: &random)
                                )
                                consumers[index].live.subtract(page.deleted)
                                consumers[index].live.formUnion(page.added)
                                consumers[index].anchor = page.anchor
                            }
                        }
                        // Full exchange, twice around: converged.
                        for _ in 0..<2 {
                            for from in peers {
                                let entries = try from.eventLog().entries(after: nil, limit: 100_000).entries
                                for to in peers where to !== from { _ = try await to.eventLog().apply(entries) }
                            }
                        }
                        var fromStart: [(added: Set<UUID>, deleted: Set<UUID>)] = []
                        for (index, store) in peers.enumerated() {
                            let visible = Set(try await samples(in: store, of: stepType).map(\.uuid))
                            let page = try await Self.feed(
                                store,
                                from: nil,
                                limit: Int.random(in: 1...7, using: &random)
                            )
                            #expect(Set(page.added).count == page.added.count, "seed \(seed): an object added twice")
                            #expect(
                                Set(page.deleted).count == page.deleted.count,
                                "seed \(seed), peer \(index): an object deleted twice"
                            )
                            #expect(Set(page.added).isDisjoint(with: page.deleted), "seed \(seed): added and deleted")
                            #expect(Set(page.added) == visible, "seed \(seed), peer \(index)")
                            fromStart.append((Set(page.added), Set(page.deleted)))
                            // The consumer that followed along ends equal to the store.
                            let rest = try await Self.feed(store, from: consumers[index].anchor, limit: 3)
                            let live = consumers[index].live.subtracting(rest.deleted).union(rest.added)
                            #expect(live == visible, "seed \(seed), peer \(index): the incremental consumer")
                            #expect(try await store.eventLog().checkProjections() == nil, "seed \(seed), peer \(index)")
                        }
                        #expect(fromStart[0].added == fromStart[1].added && fromStart[1].added == fromStart[2].added)
                        #expect(
                            fromStart[0].deleted == fromStart[1].deleted
                                && fromStart[1].deleted == fromStart[2].deleted,
                            "seed \(seed): every peer reports the same deletions"
                        )
                        #expect(try a.stateDigest() == b.stateDigest() && b.stateDigest() == c.stateDigest())
                    }
                }
            }
        }
    }
}
