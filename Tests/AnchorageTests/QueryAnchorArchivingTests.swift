import AnchorageStoreTesting
import Foundation
import Testing

@testable import Anchorage

@Suite("Anchors archived as apps archive them")
struct QueryAnchorArchivingTests {
    @Test(
        "AQ-11: an anchor archived with NSKeyedArchiver (secure coding) unarchives equal, and still resumes its query"
    )
    func keyedArchiver() async throws {
        try await withTemporaryStore { store, _ in
            try await store.save([steps(1, atMinute: 1), steps(2, atMinute: 2)])
            let first = try await anchoredPage(in: store, of: HKQuantityType(.stepCount), anchor: nil)
            let data = try NSKeyedArchiver.archivedData(withRootObject: first.anchor, requiringSecureCoding: true)
            let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: data))
            #expect(restored == first.anchor)
            #expect(restored.hash == first.anchor.hash)
            #expect(restored.stringValue == first.anchor.stringValue)
            #expect((first.anchor.copy() as? HKQueryAnchor) === first.anchor)

            try await store.save([steps(3, atMinute: 3)])
            let next = try await anchoredPage(in: store, of: HKQuantityType(.stepCount), anchor: restored)
            #expect(next.added.count == 1, "the archived anchor resumes after the first two samples")

            // An integer anchor round-trips too; garbage unarchives as nil, never a crash.
            let integer = HKQueryAnchor(fromValue: 7)
            let integerData = try NSKeyedArchiver.archivedData(withRootObject: integer, requiringSecureCoding: true)
            #expect(try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: integerData) == integer)
            let other = try NSKeyedArchiver.archivedData(
                withRootObject: "not an anchor" as NSString,
                requiringSecureCoding: true
            )
            #expect((try? NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: other)) == nil)
        }
    }

    @Test("AQ-11: anchors are equal by value, hash alike, and work as set members across copies")
    func equality() throws {
        let a = try HKQueryAnchor(string: "42")
        let b = HKQueryAnchor(fromValue: 42)
        #expect(a == b && a.isEqual(b) && a.hash == b.hash)
        #expect(Set([a, b]).count == 1)
        #expect(a != HKQueryAnchor(fromValue: 43))
    }
}
