import Foundation
import LMDB
import Synchronization
import Testing

@testable import AnchorageLog

/// Committed-batch announcements and append preconditions.
@Suite("Batches and preconditions")
struct BatchTests {
    struct Rejected: Error {}

    @Test("every batch is announced once, in order, with its exact range, even to a subscriber that lags")
    func batchesAnnounced() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            try await log.append([.save(id: UUID(), kind: 1, payload: [0])])
            let stream = log.committedBatches()
            var sizes: [Int] = []
            try await withThrowingTaskGroup(of: Void.self) { group in
                for caller in 0..<8 {
                    group.addTask {
                        for round in 0..<10 {
                            let size = 1 + (caller + round) % 3
                            try await log.append((0..<size).map { _ in .save(id: UUID(), kind: 1, payload: [1]) })
                        }
                    }
                }
                try await group.waitForAll()
            }
            var iterator = stream.makeAsyncIterator()
            var expectedFirst: UInt64 = 2
            while expectedFirst <= log.head.seq {
                guard let batch = await iterator.next() else { break }
                #expect(batch.first.seq == expectedFirst, "batches are contiguous and in commit order")
                #expect(batch.previous.seq == expectedFirst - 1)
                sizes.append(batch.count)
                expectedFirst = batch.last.seq + 1
            }
            #expect(sizes.count == 80, "one announcement per append call, none for the batch before subscribing")
            #expect(sizes.reduce(0, +) == Int(log.head.seq) - 1)
        }
    }

    @Test("a throwing precondition rejects its batch alone; the others in the group commit")
    func preconditionRejects() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            async let good = log.append([.save(id: UUID(), kind: 1, payload: [1])])
            async let bad: [Anchor] = log.append([.save(id: UUID(), kind: 1, payload: [2])]) { _ in throw Rejected() }
            async let alsoGood = log.append([.save(id: UUID(), kind: 1, payload: [3])]) { _ in }
            _ = try await good
            _ = try await alsoGood
            do {
                _ = try await bad
                Issue.record("the rejected batch was appended")
            } catch {
                #expect(error is Rejected)
            }
            #expect(log.head.seq == 2)
            let payloads = try log.entries(after: nil, limit: 10).entries.compactMap { $0.payload.map(Array.init) }
            #expect(payloads.sorted { $0[0] < $1[0] } == [[1], [3]])
            _ = try log.verify()
        }
    }
}

/// Counts entries in `apply` (in the transaction's scratch) and writes the
/// count once per transaction in `finish`: deferred work, as the
/// statistics views do it.
struct DeferredCount: Projection {
    final class Finishes: @unchecked Sendable {
        // @unchecked: used on the log's writer thread only.
        var count = 0
    }

    let totals: Database
    let finishes = Finishes()
    var name: String { "deferred-count" }
    var version: Int { 1 }
    var databases: [Database] { [totals] }

    static let pending = ProjectionScratchKey<Int>(owner: "deferred-count")

    func apply(_ entries: [LogEntry], context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        context.withScratch(Self.pending, 0) { $0 += entries.count }
    }

    func finish(context: ProjectionContext, in txn: borrowing WriteTransaction) throws {
        finishes.count += 1
        let entries = context.withScratch(Self.pending, 0) { count in
            defer { count = 0 }
            return count
        }
        let old = try txn.value(forKey: Array("total".utf8), in: totals).flatMap { UInt64(bigEndianBytes: $0) } ?? 0
        try txn.put((old + UInt64(entries)).bigEndianBytes, forKey: Array("total".utf8), in: totals)
    }
}

extension BatchTests {
    @Test("deferred projection work runs once per transaction and forgets what an abandoned transaction applied")
    func deferredWork() async throws {
        let holder = Mutex<DeferredCount?>(nil)
        try await withTemporaryLog(configuration: fastConfiguration) { txn in
            let projection = DeferredCount(totals: try #require(try txn.database(named: "totals")))
            holder.withLock { $0 = projection }
            return [projection]
        } _: { log, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let events: [LogEvent] = [
                            .save(id: UUID(), kind: 1, payload: [UInt8(index)]),
                            .save(id: UUID(), kind: 1, payload: [1]),
                        ]
                        if index % 5 == 0 {
                            _ = try? await log.append(events) { _ in throw Rejected() }
                        } else {
                            _ = try await log.append(events)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let projection = try #require(holder.withLock { $0 })
            let total = try log.withReadTransaction { txn in
                try txn.value(forKey: Array("total".utf8), in: projection.totals).flatMap { UInt64(bigEndianBytes: $0) }
            }
            #expect(total == 64, "32 accepted batches of 2 entries")
            #expect(log.head.seq == 64)
            #expect(projection.finishes.count == log.statistics.commits, "one finish per commit")
        }
    }
}

/// The batch streams' start, without a writer's timing: the writer resumes
/// a batch's callers before it publishes the batch, so a caller may
/// subscribe in between.
@Suite("Batch streams start after the head they read")
struct BatchStreamStartTests {
    @Test("a batch ending at or before the head read at subscription is not announced; the next one is")
    func startsAfterTheHead() async throws {
        let subscribers = HeadSubscribers()
        let store = StoreID()
        func anchor(_ seq: UInt64) -> Anchor { Anchor(storeID: store, incarnation: 1, seq: seq) }
        // Its caller resumed (head 3) and subscribed before batch 2...3 was published.
        let stream = subscribers.subscribeToBatches { 3 }
        subscribers.publish(anchor(3), batches: [CommittedBatch(first: anchor(2), last: anchor(3))])
        subscribers.publish(anchor(5), batches: [CommittedBatch(first: anchor(4), last: anchor(5))])
        subscribers.finish()
        var announced: [UInt64] = []
        for await batch in stream { announced.append(batch.first.seq) }
        #expect(announced == [4])
    }
}
