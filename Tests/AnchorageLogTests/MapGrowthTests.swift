import AnchorageTestRun
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

@Suite("Map growth", .ownThread)
struct MapGrowthTests {
    @Test("a store opened with a 64 KiB map accepts 100 MB of entries by growing", .timeLimit(.minutes(5)))
    func tinyMapGrows() async throws {
        var configuration = fastConfiguration
        configuration.initialMapSize = 64 << 10
        try await withTemporaryLog(configuration: configuration) { log, _ in
            let payload = [UInt8](repeating: 0xAB, count: 4_000)
            let batches = 25
            let perBatch = 1_000
            for _ in 0..<batches {
                try await log.append((0..<perBatch).map { _ in .save(id: UUID(), kind: 1, payload: payload) })
            }
            #expect(log.head.seq == UInt64(batches * perBatch))
            let environment = try log.store().environment
            #expect(environment.mapSize >= 100_000_000)
            let entries = try readAll(log, limit: 5_000)
            #expect(entries.count == batches * perBatch)
            #expect(entries.allSatisfy { $0.payload == EntryPayload(payload) })
            #expect(try log.verify().isIntact)
        }
    }
}
