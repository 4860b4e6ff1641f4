import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

/// The log against a deliberately simple model: a list of (dot, event) and
/// a version vector, driven by generated histories of appends (some failing),
/// applies of other logs' entries (in and out of order, repeated), and reopens.
@Suite("Log against a reference model")
struct LogModelTests {
    struct Model {
        var entries: [(dot: Dot, event: LogEvent)] = []
        var vector: [StoreID: UInt64] = [:]

        /// Applies `incoming` as the log must: all or nothing, skipping
        /// covered dots; returns `false` when the batch has a gap.
        mutating func apply(_ incoming: [LogEntry]) -> Bool {
            var copy = self
            for entry in incoming {
                let known = copy.vector[entry.dot.origin, default: 0]
                if entry.dot.counter <= known { continue }
                guard entry.dot.counter == known + 1 else { return false }
                copy.vector[entry.dot.origin] = entry.dot.counter
                copy.entries.append((entry.dot, entry.event))
            }
            self = copy
            return true
        }
    }

    @Test("generated histories match the model after every step", arguments: [7, 8, 9, 10] as [UInt64])
    func generatedHistories(seed: UInt64) async throws {
        var generator = SeededGenerator(seed: seed)
        let poison: EntryKind = 99
        let projections: ProjectionFactory = { _ in [RejectingProjection(kind: poison)] }
        try await withTemporaryDirectory { directory in
            let peers = try (0..<2).map { index in
                try EventLog.open(
                    at: directory.appendingPathComponent("peer-\(index)"),
                    configuration: fastConfiguration
                )
            }
            let path = directory.appendingPathComponent("subject")
            var log = try EventLog.open(at: path, configuration: fastConfiguration, projections: projections)
            var model = Model()

            for step in 0..<120 {
                switch Int.random(in: 0..<10, using: &generator) {
                case 0..<4:
                    var batch = (0..<Int.random(in: 1...5, using: &generator)).map { _ in
                        LogEvent.random(using: &generator)
                    }
                    let fails = Int.random(in: 0..<8, using: &generator) == 0
                    if fails { batch.insert(.save(id: UUID(), kind: poison, payload: [1]), at: batch.count / 2) }
                    do {
                        let anchors = try await log.append(batch)
                        #expect(!fails, "step \(step): a poisoned batch was accepted")
                        #expect(anchors.map(\.seq) == (1...batch.count).map { UInt64(model.entries.count + $0) })
                        for event in batch {
                            let counter = model.vector[log.originID, default: 0] + 1
                            model.vector[log.originID] = counter
                            model.entries.append((Dot(origin: log.originID, counter: counter), event))
                        }
                    } catch {
                        #expect(fails, "step \(step): \(error)")
                    }
                case 4..<5:
                    // Peers write too.
                    let peer = peers[Int.random(in: 0..<2, using: &generator)]
                    try await peer.append(
                        (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                            LogEvent.random(using: &generator)
                        }
                    )
                case 5..<9:
                    // Apply a slice of a peer's log, sometimes reordered.
                    let source = try readAll(peers[Int.random(in: 0..<2, using: &generator)])
                    guard !source.isEmpty else { continue }
                    let lower = Int.random(in: 0..<source.count, using: &generator)
                    let upper = Int.random(in: lower...source.count, using: &generator)
                    var slice = Array(source[lower..<upper])
                    if Int.random(in: 0..<4, using: &generator) == 0 { slice.shuffle(using: &generator) }
                    let accepted = model.apply(slice)
                    do {
                        let result = try await log.apply(slice)
                        #expect(accepted, "step \(step): a batch with a gap was accepted")
                        #expect(result.head.seq == UInt64(model.entries.count))
                    } catch {
                        #expect(!accepted && (error as? LogError)?.code == .originGap, "step \(step): \(error)")
                    }
                default:
                    await log.close()
                    log = try EventLog.open(at: path, configuration: fastConfiguration, projections: projections)
                }

                let entries = try readAll(log, limit: Int.random(in: 1...9, using: &generator))
                #expect(entries.map(\.dot) == model.entries.map(\.dot), "step \(step)")
                #expect(entries.map(\.event) == model.entries.map(\.event), "step \(step)")
                #expect(entries.map(\.seq) == (0..<entries.count).map { UInt64($0 + 1) }, "step \(step)")
                #expect(try log.versionVector() == model.vector, "step \(step)")
            }
            #expect(try log.verify().isIntact)
            await log.close()
            for peer in peers { await peer.close() }
        }
    }
}
