import Anchorage
import AnchorageService
import AnchorageStoreTesting
import AnchorageTesting
import Foundation
import Testing

@Suite("The change-feed session: pages")
struct ChangeFeedSessionTests {
    @Test(
        "pages of any size, read from the start, report what a reference model says; read does not move, next does",
        arguments: testSeeds([3, 17, 41])
    )
    func pages(seed: UInt64) async throws {
        try await withTemporaryStore { store, _ in
            var history = FeedHistory(seed: seed)
            try await history.run(12, on: store)
            for pageSize in [1, 2, 5, nil] as [Int?] {
                var session = try ChangeFeedSession(
                    store: store,
                    predicates: FeedHistory.predicates,
                    since: nil,
                    pageSize: pageSize
                )
                var replica = FeedReplica()
                var pages = 0
                while true {
                    let peeked = try await session.read()
                    #expect(try await session.read().newAnchor.stringValue == peeked.newAnchor.stringValue)
                    let page = try await session.next()
                    #expect(page.newAnchor.stringValue == peeked.newAnchor.stringValue)
                    #expect(session.anchor?.stringValue == page.newAnchor.stringValue, "next moves the anchor")
                    if let pageSize { #expect(page.hasMore == (page.count >= pageSize)) }
                    replica.apply(page)
                    pages += 1
                    if !page.hasMore { break }
                }
                #expect(replica.matches(history), "page size \(String(describing: pageSize))")
                if pageSize == nil { #expect(pages == 1) }
                #expect(try await session.next().count == 0, "nothing after the last page")
            }
            try await expectAuditPasses(store)
        }
    }

    @Test("an anchor of another store is refused when the session is made (AQ-11)")
    func foreignAnchor() async throws {
        try await withTemporaryStore { other, _ in
            try await other.save(FeedHistory.sample(type: FeedHistory.steps, value: 1, minute: 0, uuid: UUID()))
            let foreign = try other.currentAnchor()
            _ = try await withTemporaryStore { store, _ in
                #expect(throws: HKError.self) {
                    _ = try ChangeFeedSession(
                        store: store,
                        predicates: FeedHistory.predicates,
                        since: foreign,
                        pageSize: 10
                    )
                }
            }
        }
    }
}
