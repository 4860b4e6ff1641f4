import Anchorage
import AnchorageLog
import Foundation

extension AnchorageBench {
    /// The audit tools on a store of `samples` step samples: verify the
    /// chain, check the projections against a replay, rebuild them, and
    /// replay the store into a new one.
    func runAuditBenchmarks(work: URL, report: inout Report) async throws {
        let count = min(samples, 1_000_000)
        let directory = work.appendingPathComponent("audit")
        progress("audit: saving \(count) step samples")
        let store = try await StoreBenchmarks.filledStore(at: directory, samples: count)
        let log = try store.eventLog()
        var verify: [Double] = []
        var check: [Double] = []
        var rebuild: [Double] = []
        var replay: [Double] = []
        var export: [Double] = []
        for run in 1...min(runs, 3) {
            progress("audit run \(run): verify, check, rebuild, replay")
            var start = ContinuousClock.now
            guard try log.verify().isIntact else { throw BenchFailure(message: "the store does not verify") }
            verify.append(Double(count) / (ContinuousClock.now - start).seconds)
            start = ContinuousClock.now
            guard try await log.checkProjections() == nil else { throw BenchFailure(message: "projections disagree") }
            check.append(Double(count) / (ContinuousClock.now - start).seconds)
            start = ContinuousClock.now
            try await log.rebuildProjections()
            rebuild.append(Double(count) / (ContinuousClock.now - start).seconds)
            let target = work.appendingPathComponent("audit-replay-\(run)")
            start = ContinuousClock.now
            let replica = try await store.replay(to: try store.currentAnchor(), into: target)
            replay.append(Double(count) / (ContinuousClock.now - start).seconds)
            await replica.close()
            try? FileManager.default.removeItem(at: target)
            start = ContinuousClock.now
            let lines = try Self.exportLines(log)
            guard lines == count else { throw BenchFailure(message: "exported \(lines) entries of \(count)") }
            export.append(Double(count) / (ContinuousClock.now - start).seconds)
        }
        await store.close()
        try? FileManager.default.removeItem(at: directory)
        report.add(
            name: "audit: verify the hash chain and payload digests",
            unit: "entries/s",
            anchorage: verify,
            baseline: []
        )
        report.add(
            name: "audit: check every index and view against a replay (rolled back)",
            unit: "entries/s",
            anchorage: check,
            baseline: []
        )
        report.add(name: "audit: rebuild every index and view", unit: "entries/s", anchorage: rebuild, baseline: [])
        report.add(
            name: "export: the log as JSON lines (anchorage export's writer, into memory)",
            unit: "entries/s",
            anchorage: export,
            baseline: [],
            goal: .valueAtLeast(300_000)
        )
        report.add(
            name: "audit: replay into a new durable store (vs rebuild in place)",
            unit: "entries/s",
            anchorage: replay,
            baseline: rebuild
        )
    }

    /// Writes every entry of `log` as export lines, a page at a time, into
    /// a buffer emptied after each page; returns how many were written.
    static func exportLines(_ log: EventLog) throws -> Int {
        var writer = LogExportWriter()
        var bytes: [UInt8] = []
        var anchor: Anchor?
        var count = 0
        while true {
            let page = try log.entries(after: anchor, limit: 1_000)
            bytes.removeAll(keepingCapacity: true)
            for entry in page.entries { try writer.append(entry, anchor: log.anchor(atSeq: entry.seq), to: &bytes) }
            count += page.entries.count
            anchor = page.next
            if !page.hasMore { return count }
        }
    }
}
