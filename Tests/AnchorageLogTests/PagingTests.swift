import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("Paging")
struct PagingTests {
    @Test("every limit from 1 to 7 yields each entry exactly once, in order", arguments: [1, 2, 3])
    func everyLimit(seed: UInt64) async throws {
        var generator = SeededGenerator(seed: seed)
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            // The reference model: the events in append order.
            var model: [LogEvent] = []
            for _ in 0..<Int.random(in: 20...60, using: &generator) {
                let batch = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                    LogEvent.random(using: &generator)
                }
                try await log.append(batch)
                model += batch
            }
            for limit in 1...7 {
                let entries = try readAll(log, limit: limit)
                #expect(entries.map(\.event) == model, "limit \(limit)")
                #expect(entries.map(\.seq) == Array(1...UInt64(model.count)), "limit \(limit)")
                for kinds in [Set<EntryKind>([1]), [2, 4], [9]] {
                    let filtered = try readAll(log, limit: limit, kinds: kinds)
                    #expect(
                        filtered.map(\.event) == model.filter { kinds.contains($0.kind) },
                        "limit \(limit) \(kinds)"
                    )
                }
            }
        }
    }

    @Test("a page limit of Int.max reads everything without overflowing or reserving for it")
    func hugeLimit() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            let events = (0..<3).map { i in
                LogEvent.save(id: UUID(), kind: 1, payload: [UInt8](repeating: 7, count: 10 + i))
            }
            try await log.append(events)
            let page = try log.entries(after: nil, limit: .max)
            #expect(page.entries.map(\.event) == events && !page.hasMore)
        }
    }

    @Test("pages resume from the anchor of a page read earlier, across new appends")
    func resumeAcrossAppends() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            try await log.append((0..<5).map { _ in .save(id: UUID(), kind: 1, payload: [1]) })
            let first = try log.entries(after: nil, limit: 10)
            #expect(first.entries.count == 5 && !first.hasMore)
            let empty = try log.entries(after: first.next, limit: 10)
            #expect(empty.entries.isEmpty && empty.next == first.next && !empty.hasMore)
            try await log.append([.delete(id: UUID(), kind: 1)])
            let second = try log.entries(after: first.next, limit: 10)
            #expect(second.entries.map(\.seq) == [6])
        }
    }

    @Test("a kind filter cannot scan more than the budget in one call, and still makes progress")
    func scanBudget() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            let total = EventLog.scanBudget + 10
            var events = (0..<total - 1).map { _ in LogEvent.save(id: UUID(), kind: 1, payload: []) }
            events.append(.save(id: UUID(), kind: 2, payload: [7]))
            try await log.append(events)
            let first = try log.entries(after: nil, limit: 5, kinds: [2])
            #expect(first.entries.isEmpty && first.hasMore && first.next.seq == UInt64(EventLog.scanBudget))
            let second = try log.entries(after: first.next, limit: 5, kinds: [2])
            #expect(second.entries.map(\.seq) == [UInt64(total)] && !second.hasMore)
        }
    }
}
