import Foundation
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
