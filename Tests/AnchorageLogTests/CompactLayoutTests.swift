import AnchorageCore
import AnchorageTestRun
import AnchorageTesting
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// Log format 2's entry layout, byte by byte, and what it leaves of a purge.
@Suite("Log format 2: the compact entry layout")
struct CompactLayoutTests {
    /// The stored value of each entry, read from the data file's `log` database.
    static func storedValues(_ log: EventLog) throws -> [[UInt8]] {
        try log.read { txn in
            var values: [[UInt8]] = []
            try txn.withCursor(on: log.databases.log) { cursor in
                try cursor.scan { _, value in
                    values.append(Array(value))
                    return true
                }
            }
            return values
        }
    }

    @Test(
        "the documented layout: 43-byte header, origin number, link only on a transaction's last entry, salt then payload"
    )
    func layout() async throws {
        var configuration = fastConfiguration
        configuration.clock = .continuous.telling { Date(timeIntervalSince1970: 1_700_000_000) }
        try await withTemporaryLog(configuration: configuration) { log, _ in
            let id = UUID()
            try await log.append([
                .save(id: id, kind: 0x2122_2324, payload: [0xAA, 0xBB]),
                .delete(id: id, kind: 0x2122_2324),
            ])
            let values = try Self.storedValues(log)
            let entries = try readAll(log)
            let save = values[0]
            #expect(save.count == 40 + 12 + 2, "header, salt, payload; no digest, no link")
            #expect(Array(save[0..<2]) == [2, 1], "version 2, save, no flags")
            #expect(Array(save[2..<6]) == [0x21, 0x22, 0x23, 0x24])
            #expect(Array(save[6..<10]) == [0, 0, 0, 1], "origin number 1: the store's own")
            #expect(Array(save[10..<16]) == [0, 0, 0, 0, 0, 1], "a 48-bit counter")
            #expect(Array(save[16..<24]) == Int64(1_700_000_000_000_000_000).bigEndianBytes)
            #expect(Array(save[24..<40]) == id.bytes)
            let salt = try #require(entries[0].salt)
            #expect(Array(save[40..<52]) == salt.withBytes(Array.init))
            #expect(Array(save[52...]) == [0xAA, 0xBB])
            #expect(entries[0].payloadDigest == EntryDigest.of(Array(save[40...])), "SHA-256 of the region as stored")

            let delete = values[1]
            #expect(delete.count == 40 + 32, "header and link: the transaction's last entry")
            #expect(Array(delete[0..<2]) == [2, 2 | 8], "version 2, delete with its link stored")
            let storedLink = Array(delete[40..<72]).withUnsafeBytes { EntryDigest(bytes: $0) }
            #expect(storedLink == (try log.link(at: 2)))
            #expect(
                try log.link(at: 2)
                    == entries[1].link(after: entries[0].link(after: .zero)),
                "the link formula of format 1, over the same fields"
            )
            let numbers = try #require(log.databases.originNumbers)
            let first = try log.read { txn in try txn.value(forKey: UInt32(1).bigEndianBytes, in: numbers) }
            #expect(first == log.originID.uuid.bytes)
        }
    }

    @Test("a purged version-2 save keeps neither payload nor salt; its digest confirms no guess of the payload")
    func purgedSaveIsUnguessable() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            let guess = Array(#"{"value":72,"start":"08:00","end":"08:01"}"#.utf8)
            try await log.append([.save(id: UUID(), kind: 5, payload: guess), .save(id: UUID(), kind: 5, payload: [1])])
            let before = try readAll(log)
            #expect(try await log.purgePayloads(at: [1]) == 1)
            let after = try readAll(log)
            #expect(after[0].isPurged && after[0].salt == nil && after[0].payload == nil)
            #expect(after[0].payloadDigest == before[0].payloadDigest, "the digest stays, so the chain holds")
            #expect(after[0].payloadDigest != EntryDigest.of(guess), "hashing the right guess does not give it")
            let stored = try Self.storedValues(log)[0]
            #expect(stored.count == 40 + 32, "header and digest: no region, and no link (not the last entry)")
            #expect(stored[1] == 1 | 4, "a save, purged")
            let salt = try #require(before[0].salt)
            let saltBytes = salt.withBytes(Array.init)
            #expect(!stored.indices.dropLast(11).contains { Array(stored[$0..<$0 + 12]) == saltBytes })
            #expect(try log.verify().isIntact)
        }
    }

    @Test("random and mutated bytes never crash the format-2 decoder; damage is a typed error", .ownThread)
    func hostileBytes() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            try await log.append([.save(id: UUID(), kind: 1, payload: [1, 2, 3])])
            try await log.append([.delete(id: UUID(), kind: 1), .save(id: UUID(), kind: 1, payload: [])])
            _ = try await log.purgePayloads(at: [1])
            let valid = try Self.storedValues(log)
            let decoder = try log.read { txn in try log.decoder(in: txn) }
            var generator = SeededGenerator(seed: 0x0C0)
            for round in 0..<20_000 {
                var bytes: [UInt8]
                if round % 2 == 0 {
                    bytes = (0..<Int.random(in: 0...120, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                } else {
                    bytes = valid[round % valid.count]
                    for _ in 0..<Int.random(in: 1...4, using: &generator) {
                        bytes[Int.random(in: bytes.indices, using: &generator)] = UInt8.random(
                            in: 0...255,
                            using: &generator
                        )
                    }
                    if Bool.random(using: &generator) {
                        bytes.removeLast(Int.random(in: 0...bytes.count, using: &generator))
                    }
                }
                let result = bytes.withUnsafeBytes { buffer in
                    Result { () throws(LogError) in
                        let stored = try decoder.decode(seq: 9, bytes: buffer)
                        _ = stored.entryWithPayload(seq: 9, in: buffer).payloadDigest
                    }
                }
                if case .failure(let error) = result {
                    #expect(error.code == .malformedEntry && error.seq == 9)
                }
            }
        }
    }
}

extension CompactLayoutTests {
    @Test("the 48-bit counter: the largest it holds round-trips, one more is refused with a typed error")
    func counterLimit() throws {
        let origin = StoreID()
        var table = OriginTable()
        _ = table.append(origin)
        let largest = Dot(origin: origin, counter: CompactLayout.maximumCounter)
        try CompactLayout.checkCounter(largest, seq: 1)
        let header = EntryFormat.Header(
            version: 2,
            operation: .delete,
            kind: 7,
            dot: largest,
            timestamp: -1,
            id: UUID(),
            payloadDigest: .zero,
            isPurged: false
        )
        var bytes = [UInt8](
            repeating: 0,
            count: CompactLayout.size(version: 2, isPurged: false, hasLink: false, regionCount: 0)
        )
        bytes.withUnsafeMutableBytes {
            CompactLayout.write(header, originNumber: 1, link: nil, salt: nil, payload: nil, into: $0)
        }
        let decoded = try bytes.withUnsafeBytes {
            try CompactLayout.decode(seq: 1, bytes: $0, origin: { table.id($0) })
        }
        #expect(decoded.dot == largest && decoded.timestamp == -1 && decoded.kind == 7)
        #expect(throws: LogError.self) {
            try CompactLayout.checkCounter(Dot(origin: origin, counter: CompactLayout.maximumCounter + 1), seq: 1)
        }
    }
}

extension CompactLayoutTests {
    @Test(
        "a replication read from a format-2 store counts what it sends: the exchange form's bytes, not the stored ones"
    )
    func replicationBudgetCountsExchangeBytes() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            try await log.append(
                (0..<20).map { _ in .save(id: UUID(), kind: 1, payload: Array(repeating: 7, count: 100)) }
            )
            let exchangeSize = 124 + 12 + 100
            var sizes: [Int] = []
            var previousLinks: [EntryDigest] = []
            let read = try log.readForReplication(
                after: 0,
                maxEntries: 1_000,
                maxBytes: exchangeSize * 5,
                skipping: [:]
            ) { seq, previous, bytes in
                sizes.append(bytes.count)
                previousLinks.append(previous)
                // Each entry arrives whole and checkable in the exchange form.
                _ = try LogEntry(seq: seq, encoded: bytes, previousLink: previous)
            }
            #expect(sizes == Array(repeating: exchangeSize, count: 5))
            #expect(read.sent == 5 && read.through == 5 && read.hasMore)
            #expect(previousLinks.first == .zero)
        }
    }
}
