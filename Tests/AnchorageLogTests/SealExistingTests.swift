import AnchorageTesting
import Crypto
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// `EventLog.seal(at:keys:)`: turning sealing on for a store that holds
/// entries, leaving nothing in clear in any of its files.
@Suite("Sealing an existing store")
struct SealExistingTests {
    /// A plain store with saves carrying the marker, deletes and one purged
    /// save, closed.
    static func plainStore(at directory: URL, box: ProjectionBox = ProjectionBox()) async throws -> [LogEntry] {
        let log = try EventLog.open(at: directory, configuration: fastConfiguration, projections: box.factory)
        try await log.append(SealingTests.events(count: 30))
        try await log.append(SealingTests.events(count: 10))
        _ = try await log.purgePayloads(at: [2])
        let entries = try readAll(log)
        await log.close()
        return entries
    }

    @Test(
        "every entry sealed with its dot, kind, time, id and payload; no marker in any file; verifies with and without the key"
    )
    func sealsEverything() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectory { directory in
            let store = directory.appending(path: "store")
            let before = try await Self.plainStore(at: store, box: ProjectionBox())
            let report = try EventLog.seal(at: store, keys: [key])
            #expect(report.entries == 40)
            for (name, bytes) in try SealingTests.files(in: store) {
                #expect(!SealingTests.contains(bytes, SealingTests.marker), "\(name) holds the marker after sealing")
            }
            #expect(try EventLog.verify(at: store, sealing: .keyless(key.id)).isIntact)
            let box = ProjectionBox()
            let log = try EventLog.open(at: store, configuration: SealingTests.sealed([key]), projections: box.factory)
            let after = try readAll(log)
            #expect(after.allSatisfy { $0.isSealed })
            #expect(after.map(\.dot) == before.map(\.dot))
            for (old, new) in zip(before, after) where !old.isPurged {
                #expect(new.kind == old.kind && new.id == old.id && new.timestamp == old.timestamp)
                #expect(new.payload == old.payload)
            }
            #expect(
                after[1].isPurged && after[1].payloadDigest == before[1].payloadDigest,
                "a purged save keeps its digest"
            )
            #expect(try log.verify().isIntact)
            #expect(try await log.checkProjections() == nil, "the projections were rebuilt from the sealed log")
            try await log.append(SealingTests.events(count: 2))
            #expect(try log.verify().isIntact)
            await log.close()
            // Again: nothing to seal; another key is refused.
            #expect(try EventLog.seal(at: store, keys: [key]).entries == 0)
            #expect(SealingTests.code { try EventLog.seal(at: store, keys: [DataKey.generate()]) } == .wrongKey)
        }
    }

    @Test("two copies of one person's store sealed apart under one key get the same bytes, so they still replicate")
    func deterministic() async throws {
        let key = DataKey.generate()
        try await withTemporaryDirectory { directory in
            let a = directory.appending(path: "a")
            let b = directory.appending(path: "b")
            _ = try await Self.plainStore(at: a)
            do {
                let source = try EventLog.open(at: a, configuration: fastConfiguration)
                let copy = try EventLog.open(at: b, configuration: fastConfiguration)
                try await SealingTests.replicate(from: source, to: copy)
                await source.close()
                await copy.close()
            }
            _ = try EventLog.seal(at: a, keys: [key])
            _ = try EventLog.seal(at: b, keys: [key])
            let left = try EventLog.open(at: a, configuration: SealingTests.sealed([key]))
            let right = try EventLog.open(at: b, configuration: SealingTests.sealed([key]))
            let byDot = { (log: EventLog) in
                Dictionary(uniqueKeysWithValues: try readAll(log).map { ($0.dot, $0.payloadDigest) })
            }
            #expect(try byDot(left) == byDot(right))
            try await left.append(SealingTests.events(count: 3))
            #expect(try await SealingTests.replicate(from: left, to: right, after: 40).applied == 3)
            #expect(try right.verify().isIntact)
            await left.close()
            await right.close()
        }
    }

    @Test("refused while the store is open and for a format-1 store; nothing changes")
    func refusals() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory.appending(path: "store")
            let log = try EventLog.open(at: store, configuration: fastConfiguration)
            try await log.append(SealingTests.events(count: 3))
            #expect(SealingTests.code { try EventLog.seal(at: store, keys: [DataKey.generate()]) } == .storeInUse)
            await log.close()
            var old = fastConfiguration
            old.newStoreFormat = 1
            let formatOne = directory.appending(path: "old")
            let oldLog = try EventLog.open(at: formatOne, configuration: old)
            try await oldLog.append(SealingTests.events(count: 3))
            await oldLog.close()
            #expect(
                SealingTests.code { try EventLog.seal(at: formatOne, keys: [DataKey.generate()]) } == .unsupportedFormat
            )
            #expect(try EventLog.sealingKeyID(at: formatOne) == nil)
        }
    }
}
