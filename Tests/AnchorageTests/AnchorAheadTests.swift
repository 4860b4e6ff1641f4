import AnchorageLog
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@testable import Anchorage

/// Anchors a store issued past the end of its log: the store's files were
/// put back to an older copy after the anchor was handed out. A consumer
/// keeping such an anchor would skip every later change, so it is refused
/// wherever an anchor is accepted (AQ-11).
@Suite("Anchors ahead of the log")
struct AnchorAheadTests {
    /// A store whose files went back to an older copy after `ahead` was issued.
    private func withRewoundStore(_ body: (HKHealthStore, HKQueryAnchor, URL) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let live = directory.appendingPathComponent("store")
            let old = directory.appendingPathComponent("old")
            var store = HKHealthStore(directory: live, configuration: .forTests)
            try await store.save(steps(1))
            await store.close()
            try FileManager.default.copyItem(at: live, to: old)
            store = HKHealthStore(directory: live, configuration: .forTests)
            try await store.save([steps(2, atMinute: 5), steps(3, atMinute: 10)])
            let ahead = try store.currentAnchor()
            await store.close()
            try FileManager.default.removeItem(at: live)
            try FileManager.default.moveItem(at: old, to: live)
            let rewound = HKHealthStore(directory: live, configuration: .forTests)
            do {
                try await body(rewound, ahead, directory)
            } catch {
                await rewound.close()
                throw error
            }
            await rewound.close()
        }
    }

    private func expectAhead<R>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> R
    ) async {
        await expectCode(
            .errorInvalidArgument,
            rule: "AQ-11",
            saying: "anchorAhead",
            sourceLocation: sourceLocation,
            body
        )
    }

    @Test("AQ-11: an anchor past the head is refused by every query, feed, stream, position and replay")
    func refusedEverywhere() async throws {
        try await withRewoundStore { store, ahead, directory in
            await expectAhead { try await anchoredPage(in: store, of: stepType, anchor: ahead) }
            await expectAhead {
                try await HKAnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: stepType)], anchor: ahead)
                    .result(for: store)
            }
            await expectAhead {
                try await ChangeFeedDescriptor(predicates: [.sample(type: stepType)], anchor: ahead).result(for: store)
            }
            await expectAhead {
                let stream = HKAnchoredObjectQueryDescriptor(
                    predicates: [.quantitySample(type: stepType)],
                    anchor: ahead
                )
                .results(for: store)
                for try await _ in stream { break }
            }
            await expectAhead { try store.position(of: ahead) }
            await expectAhead {
                try await store.replay(to: ahead, into: directory.appendingPathComponent("replayed"))
            }
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("replayed").path))

            // The store's own anchors still work, and an integer anchor past
            // the end is echoed as HealthKit does (AQ-4).
            let now = try store.currentAnchor()
            #expect(try store.position(of: now) == 1)
            let page = try await anchoredPage(in: store, of: stepType, anchor: nil)
            #expect(page.added.count == 1 && page.anchor == now)
            let integer = HKQueryAnchor(fromValue: 1_000)
            #expect(try await anchoredPage(in: store, of: stepType, anchor: integer).anchor == integer)
        }
    }
}
