import Anchorage
import AnchorageLog
import Foundation

extension AnchorageBench {
    /// The audit tools on a store of `samples` step samples: verify the
    /// chain, check the projections against a replay, rebuild them, and
    /// replay the store into a new one.
    func runAuditBenchmarks(work: URL, report: inout Report) async throws {
        let filled = try await filledStore("audit", in: work, for: "audit")
        let (store, count) = (filled.store, filled.count)
        let log = try store.eventLog()
        let measured = try await eachRun(atMost: 3) { run in
            progress("audit run \(run): verify, check, rebuild, replay")
            let verify = try await rate(count) {
                guard try log.verify().isIntact else { throw BenchFailure(message: "the store does not verify") }
            }
            let check = try await rate(count) {
                guard try await log.checkProjections() == nil else {
                    throw BenchFailure(message: "projections disagree")
                }
            }
            let rebuild = try await rate(count) { try await log.rebuildProjections() }
            let target = work.appendingPathComponent("audit-replay-\(run)")
            let replay = try await rate(count) {
                let replica = try await store.replay(to: try store.currentAnchor(), into: target)
                await replica.close()
            }
            try? FileManager.default.removeItem(at: target)
            let export = try await rate(count) {
                let lines = try Self.exportLines(log)
                guard lines == count else { throw BenchFailure(message: "exported \(lines) entries of \(count)") }
            }
            return (verify: verify, check: check, rebuild: rebuild, replay: replay, export: export)
        }
        await filled.discard()
        report.add(.auditVerify, anchorage: measured.map(\.verify))
        report.add(.auditCheck, anchorage: measured.map(\.check))
        report.add(.auditRebuild, anchorage: measured.map(\.rebuild))
        report.add(.export, anchorage: measured.map(\.export))
        report.add(.auditReplay, anchorage: measured.map(\.replay), baseline: measured.map(\.rebuild))
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
