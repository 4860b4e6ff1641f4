import AnchorageLog
import Foundation

/// The event-log workloads.
struct LogBenchmarks {
    struct Parameters: Codable {
        var entries: Int
        var batch: Int
        var payload: Int
    }

    struct AppendAndRead {
        var appendRate: Double
        var catchUpRate: Double
        var fileBytes: Int
    }

    let parameters: Parameters
    let workDirectory: URL

    /// Appends `entries` in batches of `batch` from one caller (durable),
    /// then reads them all back from anchor 0 in pages of 1,000, decoding
    /// every entry. `zerosAhead`: the writer keeps zeros written ahead of
    /// the log (``EventLog/Configuration/keepsZerosAhead``), as by default.
    func appendThenCatchUp(run: Int, zerosAhead: Bool = true) async throws -> AppendAndRead {
        let directory = workDirectory.appendingPathComponent("append-\(run)-\(zerosAhead)")
        var configuration = EventLog.Configuration()
        configuration.keepsZerosAhead = zerosAhead
        let log = try EventLog.open(at: directory, configuration: configuration)
        let batches = makeBatches(count: parameters.entries, batch: parameters.batch)

        let appendRate = try await rate(parameters.entries) {
            for batch in batches {
                try await log.append(batch)
            }
        }

        let (readSeconds, (read, checksum)) = try await timed {
            var anchor: Anchor? = nil
            var read = 0
            var checksum = 0
            while true {
                let page = try log.entries(after: anchor, limit: 1_000)
                for entry in page.entries {
                    checksum &+= Int(entry.seq) &+ (entry.payload?.count ?? 0)
                }
                read += page.entries.count
                anchor = page.next
                if !page.hasMore { return (read, checksum) }
            }
        }
        precondition(read == parameters.entries && checksum != 0, "read \(read) entries")

        // The log's pages (its file also holds zeros the writer keeps ahead).
        let size = try log.storedBytesByFile().log
        await log.close()
        try FileManager.default.removeItem(at: directory)
        return AppendAndRead(
            appendRate: appendRate,
            catchUpRate: Double(read) / readSeconds,
            fileBytes: size
        )
    }

    /// Appends `entries` from `callers` concurrent tasks in batches of `batch`.
    func concurrentAppends(run: Int, callers: Int, batch: Int) async throws -> Double {
        try await concurrentAppendsGrouped(run: run, callers: callers, batch: batch).rate
    }

    /// The same, with how many entries each durable transaction held on
    /// average (group commit at work).
    func concurrentAppendsGrouped(
        run: Int,
        callers: Int,
        batch: Int
    ) async throws -> (rate: Double, entriesPerCommit: Double) {
        let directory = workDirectory.appendingPathComponent("concurrent-\(callers)-\(batch)-\(run)")
        let log = try EventLog.open(at: directory)
        let total = batch == 1 ? min(parameters.entries, 100_000) : parameters.entries
        let perCaller = makeBatches(count: total / callers, batch: batch)
        let (seconds, _) = try await timed {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        for events in perCaller { try await log.append(events) }
                    }
                }
                try await group.waitForAll()
            }
        }
        let appended = Int(log.head.seq)
        let statistics = log.statistics
        await log.close()
        try FileManager.default.removeItem(at: directory)
        return (Double(appended) / seconds, Double(statistics.entries) / Double(max(1, statistics.commits)))
    }

    /// Batches of save events with payloads of the configured size.
    private func makeBatches(count: Int, batch: Int) -> [[LogEvent]] {
        var payload = (0..<parameters.payload).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var batches: [[LogEvent]] = []
        var made = 0
        while made < count {
            let size = min(batch, count - made)
            batches.append(
                (0..<size).map { index in
                    if !payload.isEmpty { payload[0] = UInt8(truncatingIfNeeded: made + index) }
                    return .save(id: UUID(), kind: EntryKind(rawValue: UInt32(index % 16)), payload: payload)
                }
            )
            made += size
        }
        return batches
    }
}
