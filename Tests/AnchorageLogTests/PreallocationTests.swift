import AnchorageTesting
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

@Suite("The writer keeps zeros ahead of the log's pages")
struct WriterPreallocationTests {
    @Test(
        "after every commit the data file reaches past the last page by at most headroom + extent (in proportion to the log), and by at least the headroom once the writer commits again; the log verifies and reopens"
    )
    func zerosAheadOfTheLog() async throws {
        #expect(LogWriter.preallocation(forUsed: 0) == (32 << 10, 64 << 10), "a new store keeps little")
        #expect(LogWriter.preallocation(forUsed: 1 << 30) == (2 << 20, 4 << 20))
        try await withTemporaryDirectory { directory in
            let log = try EventLog.open(at: directory)
            let file = directory.appendingPathComponent("data.mdb").path
            var generator = SeededGenerator(seed: 54)
            for _ in 0..<40 {
                try await log.append((0..<200).map { _ in LogEvent.random(using: &generator) })
                let used = try log.store().environment.usedBytes
                let length = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
                let (headroom, extent) = LogWriter.preallocation(forUsed: used)
                #expect(length >= used && length - used <= headroom + extent, "\(length) bytes for \(used) used")
            }
            // Before a commit the writer makes room: at least the headroom past the pages it starts from.
            let used = try log.store().environment.usedBytes
            try await log.append([LogEvent.random(using: &generator)])
            let length = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            #expect(length - used >= LogWriter.preallocation(forUsed: used).headroom)
            #expect(try log.verify().isIntact)
            await log.close()
            let reopened = try EventLog.open(at: directory)
            #expect(try reopened.verify().isIntact && reopened.head.seq == 8_001)
            await reopened.close()
        }
    }

    @Test(
        "the writer keeps zeros ahead of the projections' last page too, unflushed, in proportion to it; turned off, neither file reaches past its pages; the projections equal a rebuild either way"
    )
    func zerosAheadOfTheProjections() async throws {
        #expect(
            LogWriter.projectionPreallocation(forUsed: 64 << 10) == (4 << 10, 8 << 10),
            "a small store keeps little"
        )
        #expect(LogWriter.projectionPreallocation(forUsed: 1 << 30) == (2 << 20, 4 << 20))
        for keeps in [true, false] {
            try await withTemporaryDirectory { directory in
                let box = ProjectionBox()
                var configuration = fastConfiguration
                configuration.keepsZerosAhead = keeps
                let log = try EventLog.open(at: directory, configuration: configuration, projections: box.factory)
                let file = directory.appendingPathComponent("projections.mdb").path
                for round in 0..<12 {
                    try await ProjectionStoreTests.appendBatches(log, count: 10, seed: UInt64(round))
                    let companion = try #require(try log.store().environment.companion)
                    let used = companion.usedBytes
                    let length = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
                    let (headroom, extent) = LogWriter.projectionPreallocation(forUsed: used)
                    if keeps {
                        #expect(
                            length >= used && length - used <= headroom + extent,
                            "\(length) bytes for \(used) used"
                        )
                    } else {
                        #expect(length <= used, "no zeros: \(length) bytes for \(used) used")
                        let logFile = directory.appendingPathComponent("data.mdb").path
                        let logLength = try FileManager.default.attributesOfItem(atPath: logFile)[.size] as? Int
                        #expect(try logLength ?? .max <= log.store().environment.usedBytes)
                    }
                }
                if keeps {
                    var generator = SeededGenerator(seed: 55)
                    // Before a commit the writer makes room past the pages it starts from.
                    let used = try #require(try log.store().environment.companion).usedBytes
                    try await log.append([LogEvent.random(using: &generator)])
                    let length = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
                    #expect(length - used >= LogWriter.projectionPreallocation(forUsed: used).headroom)
                }
                let (rebuilt, kept) = try await ProjectionStoreTests.dumps(log, box)
                #expect(!kept.isEmpty && rebuilt == kept)
                await log.close()
                let reopened = try EventLog.open(at: directory, configuration: configuration, projections: box.factory)
                #expect(try reopened.verify().isIntact)
                let (again, keptAgain) = try await ProjectionStoreTests.dumps(reopened, box)
                #expect(keptAgain == kept && again == kept, "reopened over the zeros, the projections are as they were")
                await reopened.close()
            }
        }
    }
}
