import AnchorageCore
import AnchorageLog
import AnchorageService
import Foundation
import Synchronization
import Testing

/// A wall clock the test moves by hand.
private final class HandWallClock: Sendable {
    let seconds = Mutex<Double>(1_767_225_600)
    var now: Date { Date(timeIntervalSince1970: seconds.withLock { $0 }) }
    func advance(days: Double) { seconds.withLock { $0 += days * 86_400 } }
}

@Suite("Access log: node-local records with retention")
struct AccessLogTests {
    private func withLog(_ body: (EventLog) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("access-\(UUID().uuidString)")
        var configuration = EventLog.Configuration()
        configuration.durability = .none
        let log = try EventLog.open(at: directory, configuration: configuration)
        do {
            try await body(log)
        } catch {
            await log.close()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        await log.close()
        try? FileManager.default.removeItem(at: directory)
    }

    private func read(_ accessLog: AccessLog) throws -> [AccessLogEntry] {
        var all: [AccessLogEntry] = []
        var after: String?
        repeat {
            let page = try accessLog.page(after: after, from: nil, to: nil, limit: 2)
            all += page.entries
            after = page.next
        } while after != nil
        return all
    }

    @Test("entries page in order, outside the log's entries, chain and verification")
    func recordsAndPages() async throws {
        try await withLog { log in
            let clock = HandWallClock()
            let accessLog = AccessLog(log: log, clock: .continuous.telling { clock.now })
            _ = try await log.append([.save(id: UUID(), kind: 1, payload: [1, 2, 3])])
            let head = log.head
            for count in 0..<5 {
                try await accessLog.record(
                    AccessRecord(principal: "owner", action: "GET /v1/samples", types: ["steps"], count: count)
                )
            }
            #expect(try read(accessLog).map(\.record.count) == [0, 1, 2, 3, 4])
            #expect(log.head == head, "no log entry: nothing to replicate, nothing in the chain")
            #expect(try log.entries(after: nil, limit: 100).entries.count == 1)
            _ = try log.verify()
        }
    }

    @Test("retention prunes by age on the injected clock and by count")
    func retention() async throws {
        try await withLog { log in
            let clock = HandWallClock()
            var accessLog = AccessLog(log: log, clock: .continuous.telling { clock.now })
            accessLog.retention = LocalRecordRetention(maximumAge: .seconds(90 * 86_400), maximumCount: 3)
            let record = AccessRecord(principal: "owner", action: "GET /v1/sources", types: [], count: 1)
            for _ in 0..<5 { try await accessLog.record(record) }
            #expect(try read(accessLog).count == 3, "the count bound holds")
            clock.advance(days: 91)
            try await accessLog.record(record)
            let left = try read(accessLog)
            #expect(left.count == 1, "the entries older than 90 days are gone")
            #expect(left.first?.time == clock.now)
        }
    }

    @Test("hostile paging: bad cursor, limits out of range, reversed range are typed errors")
    func hostile() async throws {
        try await withLog { log in
            let accessLog = AccessLog(log: log)
            for cursor in ["", "x", "1-", "-1", "1-2-3", "99999999999999999999999-1"] {
                #expect(throws: ServiceError(.invalidCursor, "'after' is not a cursor an access-log page handed out")) {
                    _ = try accessLog.page(after: cursor, from: nil, to: nil, limit: 10)
                }
            }
            for limit in [0, -1, AccessLog.maximumPageSize + 1, Int.max] {
                #expect(throws: ServiceError.self) {
                    _ = try accessLog.page(after: nil, from: nil, to: nil, limit: limit)
                }
            }
            #expect(throws: ServiceError.self) {
                _ = try accessLog.page(
                    after: nil,
                    from: Date(timeIntervalSince1970: 10),
                    to: Date(timeIntervalSince1970: 0),
                    limit: 1
                )
            }
            // Well formed, but no page handed it out: the log holds no entry yet.
            #expect(throws: ServiceError(.invalidCursor, "'after' is not a cursor an access-log page handed out")) {
                _ = try accessLog.page(after: "\(UInt64.max)-\(UInt64.max)", from: nil, to: nil, limit: 5)
            }
        }
    }

    @Test(
        "a cursor is one a page showed: a kept entry's, or one removed by retention since; a well-formed cursor no page showed is invalidCursor"
    )
    func cursorsHandedOut() async throws {
        try await withLog { log in
            let clock = HandWallClock()
            var accessLog = AccessLog(log: log, clock: .continuous.telling { clock.now })
            accessLog.retention = LocalRecordRetention(maximumAge: nil, maximumCount: 4)
            let record = AccessRecord(principal: "owner", action: "GET /v1/sources", types: [], count: 1)
            for _ in 0..<3 {
                try await accessLog.record(record)
                clock.advance(days: 1)
            }
            let shown = try read(accessLog).map(\.cursor)
            #expect(shown.count == 3)
            // Every cursor a page showed reads on from its entry.
            for (index, cursor) in shown.enumerated() {
                let page = try accessLog.page(after: cursor, from: nil, to: nil, limit: 10)
                #expect(page.entries.map(\.cursor) == Array(shown[(index + 1)...]))
            }
            // Inside the kept range or past its end, naming no entry: refused.
            let first = try #require(LocalRecordKey(string: shown[0]))
            let last = try #require(LocalRecordKey(string: shown[2]))
            for forged in [
                LocalRecordKey(milliseconds: first.milliseconds + 1, number: first.number),
                LocalRecordKey(milliseconds: first.milliseconds, number: first.number + 1),
                LocalRecordKey(milliseconds: last.milliseconds, number: last.number + 1),
                LocalRecordKey(milliseconds: last.milliseconds + 86_400_000, number: last.number + 1),
            ] {
                #expect(
                    throws: ServiceError(.invalidCursor, "'after' is not a cursor an access-log page handed out"),
                    "\(forged.stringValue)"
                ) {
                    _ = try accessLog.page(after: forged.stringValue, from: nil, to: nil, limit: 10)
                }
            }
            // Retention removes the first two; their cursors still read on,
            // from the oldest entry kept.
            for _ in 0..<3 { try await accessLog.record(record) }
            let kept = try read(accessLog).map(\.cursor)
            #expect(kept.count == 4 && !kept.contains(shown[0]) && !kept.contains(shown[1]))
            let resumed = try accessLog.page(after: shown[0], from: nil, to: nil, limit: 10)
            #expect(resumed.entries.map(\.cursor) == kept)
        }
    }
}
