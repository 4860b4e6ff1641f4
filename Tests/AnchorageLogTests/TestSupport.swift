import AnchorageLog
import AnchorageTesting
import Foundation
import Testing

/// Runs `body` with a log opened in a new temporary directory, closing it
/// afterwards.
@discardableResult
func withTemporaryLog<R>(
    configuration: EventLog.Configuration = EventLog.Configuration(),
    projections: @escaping ProjectionFactory = { _ in [] },
    _ body: (EventLog, URL) async throws -> R
) async throws -> R {
    try await withTemporaryDirectory { directory in
        let store = directory.appendingPathComponent("store")
        let log = try EventLog.open(at: store, configuration: configuration, projections: projections)
        do {
            let result = try await body(log, store)
            await log.close()
            return result
        } catch {
            await log.close()
            throw error
        }
    }
}

/// A configuration that skips fsync, for tests that do not test durability.
var fastConfiguration: EventLog.Configuration {
    var configuration = EventLog.Configuration()
    configuration.durability = .none
    return configuration
}

extension LogEvent {
    /// A random save or delete of one of `kinds`.
    static func random(kinds: ClosedRange<UInt32> = 1...4, using generator: inout SeededGenerator) -> LogEvent {
        let kind = EntryKind(rawValue: UInt32.random(in: kinds, using: &generator))
        let id = UUID()
        if Int.random(in: 0..<5, using: &generator) == 0 {
            return .delete(id: id, kind: kind)
        }
        let count = Int.random(in: 0...200, using: &generator)
        return .save(id: id, kind: kind, payload: (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

/// Reads the whole log from the start with pages of `limit`.
func readAll(_ log: EventLog, limit: Int = 1_000, kinds: Set<EntryKind>? = nil) throws -> [LogEntry] {
    var entries: [LogEntry] = []
    var anchor: Anchor? = nil
    while true {
        let page = try log.entries(after: anchor, limit: limit, kinds: kinds)
        entries += page.entries
        anchor = page.next
        if !page.hasMore { return entries }
    }
}
