import Anchorage
import AnchorageService
import AnchorageStoreTesting
import Foundation
import NIOCore
import Testing

@Suite("The change feed's one wire form")
struct FeedEncodingTests {
    static let stepType = HKQuantityType(.stepCount)

    static func sample(_ value: Double, minute: Int) -> HKQuantitySample {
        let start = Date(timeIntervalSince1970: 1_717_200_000 + Double(minute) * 60)
        return HKQuantitySample(
            type: stepType,
            quantity: HKQuantity(unit: .count(), doubleValue: value),
            start: start,
            end: start.addingTimeInterval(30)
        )
    }

    @Test(
        "AQ-9: lines are one change each, a deletion as {\"deleted\":{\"uuid\":…}}, then the anchor line; the page holds the same"
    )
    func linesAndPage() async throws {
        try await withTemporaryStore { store, _ in
            let kept = Self.sample(10, minute: 0)
            let gone = Self.sample(20, minute: 1)
            try await store.save([kept, gone])
            let before = try await ChangeFeedDescriptor(predicates: [.sample(type: Self.stepType)], anchor: nil)
                .result(for: store)
            try await store.delete([gone])
            let result = try await ChangeFeedDescriptor(
                predicates: [.sample(type: Self.stepType)],
                anchor: before.newAnchor
            ).result(for: store)

            var encoding = FeedEncoding()
            let lines = String(buffer: try encoding.lines(result)).split(separator: "\n").map(String.init)
            #expect(
                lines == [
                    #"{"deleted":{"uuid":"\#(gone.uuid.uuidString)"}}"#,
                    #"{"anchor":"\#(result.newAnchor.stringValue)"}"#,
                ]
            )
            let page = String(buffer: try encoding.page(result, hasMore: false))
            #expect(
                page
                    == #"{"added":[],"deleted":[{"uuid":"\#(gone.uuid.uuidString)"}],"activitySummaries":[],"hasMore":false,"newAnchor":"\#(result.newAnchor.stringValue)"}"#
            )

            let first = String(buffer: try encoding.lines(before)).split(separator: "\n")
            #expect(first.count == 3)
            #expect(first[0].hasPrefix(#"{"added":{"#) && first[0].contains(kept.uuid.uuidString))
            #expect(first[1].contains(gone.uuid.uuidString))
        }
    }
}
