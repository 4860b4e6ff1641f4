import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("Head changes")
struct SubscriptionTests {
    @Test("a subscriber gets the current head, then the head after each commit, and ends when the log closes")
    func headStream() async throws {
        try await withTemporaryDirectory { directory in
            let log = try EventLog.open(at: directory, configuration: fastConfiguration)
            try await log.append([.save(id: UUID(), kind: 1, payload: [1])])
            var iterator = log.headChanges().makeAsyncIterator()
            #expect(await iterator.next()?.seq == 1)
            try await log.append([.save(id: UUID(), kind: 1, payload: [2]), .delete(id: UUID(), kind: 1)])
            #expect(await iterator.next()?.seq == 3)
            await log.close()
            // The stream may still hold nothing newer; after that it ends.
            var last: Anchor?
            while let head = await iterator.next() { last = head }
            #expect(last == nil || last?.seq == 3)
        }
    }

    @Test("a head rung again after a subscriber read it is not given twice: it cannot stand in for the next")
    func repeatedHeadIsDropped() async throws {
        // The writer resumes its callers before it rings: a subscriber made
        // right after an append reads that head, then hears it rung. Played
        // here in that order, without a writer.
        let subscribers = HeadSubscribers()
        let store = StoreID()
        func head(_ seq: UInt64) -> Anchor { Anchor(storeID: store, incarnation: 1, seq: seq) }
        var iterator = subscribers.subscribe { head(1) }.makeAsyncIterator()
        #expect(await iterator.next()?.seq == 1)
        subscribers.publish(head(1), batches: [])
        subscribers.publish(head(0), batches: [])
        // Nothing newer was rung: once the log closes the stream ends
        // without handing out a head again.
        subscribers.finish()
        #expect(await iterator.next() == nil)
    }

    @Test("subscribing while commits land never misses one: each subscriber that read head h sees a head past h")
    func subscribeDuringCommits() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            // Subscribers start while a writer commits one entry at a time;
            // each waits for a head past the one it read before subscribing.
            let writer = Task {
                for _ in 0..<200 { _ = try await log.append([.save(id: UUID(), kind: 1, payload: [1])]) }
            }
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<100 {
                    let before = log.head.seq
                    group.addTask {
                        // The writer goes on past `before`, so a head past it comes;
                        // the bound only guards against a hang.
                        try await finishes("a head past \(before)", timeout: 120) {
                            for await head in log.headChanges() where head.seq > before { return true }
                            return false
                        }
                    }
                    await Task.yield()
                }
                try await writer.value
                // One more commit, so that the last subscribers have a head past theirs.
                _ = try await log.append([.save(id: UUID(), kind: 1, payload: [1])])
                for try await sawNewer in group { #expect(sawNewer) }
            }
        }
    }

    @Test("a slow subscriber skips to the newest head and never blocks the writer")
    func slowSubscriber() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            let stream = log.headChanges()
            for _ in 0..<50 {
                try await log.append([.save(id: UUID(), kind: 1, payload: [1])])
            }
            var iterator = stream.makeAsyncIterator()
            // Only the newest head was kept while nobody read. The writer
            // resumes its callers before it rings the subscribers, so when
            // the last append returns the newest rung is 49 or already 50.
            var seen: [UInt64] = []
            while let head = await iterator.next() {
                seen.append(head.seq)
                if head.seq >= 50 { break }
            }
            #expect(seen == [50] || seen == [49, 50], "\(seen)")
        }
    }

    @Test("a subscriber that follows the stream and reads from its own anchor sees every entry once")
    func followWithPull() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            let total = 300
            let reader = Task {
                var seen: [UInt64] = []
                var anchor: Anchor? = nil
                for await head in log.headChanges() {
                    while anchor.map({ $0.seq < head.seq }) ?? (head.seq > 0) {
                        let page = try log.entries(after: anchor, limit: 7)
                        seen += page.entries.map(\.seq)
                        anchor = page.next
                    }
                    if seen.count == total { break }
                }
                return seen
            }
            for _ in 0..<100 {
                try await log.append((0..<3).map { _ in .save(id: UUID(), kind: 1, payload: [1]) })
            }
            #expect(try await reader.value == Array(1...UInt64(total)))
        }
    }
}
