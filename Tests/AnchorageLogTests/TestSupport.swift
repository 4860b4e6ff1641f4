import AnchorageLog
import Foundation
import Testing

/// Runs `body` with a new, empty directory that is removed afterwards.
@discardableResult
func withTemporaryDirectory<R>(_ body: (URL) async throws -> R) async rethrows -> R {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("anchorage-tests-\(UUID().uuidString)", isDirectory: true)
    try! FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// Runs `body` with a log opened in a new temporary directory, closing it
/// afterwards.
@discardableResult
func withTemporaryLog<R>(
    configuration: EventLog.Configuration = EventLog.Configuration(),
    projections: ProjectionFactory = { _ in [] },
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

/// A deterministic random number generator (SplitMix64), so a failing
/// generated history can be replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
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
