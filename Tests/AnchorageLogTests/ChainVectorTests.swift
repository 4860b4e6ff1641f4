import AnchorageTesting
import Foundation
import LMDB
import Testing

@testable import AnchorageLog

/// The hash chain against numbers computed outside the implementation
/// (the test vector of docs/log-format.md, worked out from the documented
/// layout with another SHA-256), and against entries spliced in that are
/// consistent in themselves.
@Suite("Hash chain: known answers and splices")
struct ChainVectorTests {
    /// docs/log-format.md, "Test vector": a save and a delete of one object
    /// by origin 00010203-…-0e0f.
    enum Vector {
        static let origin = StoreID(UUID(uuidString: "00010203-0405-0607-0809-0A0B0C0D0E0F")!)
        static let object = UUID(uuidString: "10111213-1415-1617-1819-1A1B1C1D1E1F")!
        static let payload = Array("hello, anchorage".utf8)
        static let payloadDigest = "9cf717eccd55461a4d343dc79178c0ebeba76440d8e0f36e67f5251518bc3550"
        static let saveLink = "95150c14fef334fe71262a8f751bf88809ad71475f1158ff07e66d18d7027292"
        static let deleteLink = "a61ea5085ab655d43e5b5090897f9ee954d8e2d3d1d4a4198d6f387f562c69e7"
        static let saveBytes =
            "0101000000000003000102030405060708090a0b0c0d0e0f000000000000000117979cfe362a0000"
            + "101112131415161718191a1b1c1d1e1f000000109cf717eccd55461a4d343dc79178c0ebeba76440"
            + "d8e0f36e67f5251518bc355095150c14fef334fe71262a8f751bf88809ad71475f1158ff07e66d18"
            + "d702729268656c6c6f2c20616e63686f72616765"
        static let deleteBytes =
            "0102000000000003000102030405060708090a0b0c0d0e0f000000000000000217979cfe71c4ca00"
            + "101112131415161718191a1b1c1d1e1f000000000000000000000000000000000000000000000000"
            + "000000000000000000000000a61ea5085ab655d43e5b5090897f9ee954d8e2d3d1d4a4198d6f387f"
            + "562c69e7"

        /// The save and the delete as a peer sends them, links included.
        static func entries() throws -> [LogEntry] {
            [
                try LogEntry(seq: 1, encoded: try bytes(saveBytes)),
                try LogEntry(seq: 2, encoded: try bytes(deleteBytes)),
            ]
        }
    }

    /// docs/log-format.md, "Test vector, format 2": the same save and
    /// delete as entry version 2, salt 20 21 … 2b, stored by a format-2
    /// store whose own origin is the vector's (origin number 1), in one
    /// transaction. Worked out with Python's hashlib from the documented layout.
    enum Vector2 {
        static let salt = Array(UInt8(0x20)...UInt8(0x2B))
        static let payloadDigest = "389d03cedb95549ad58c7f02fa73fe82cf36ac71f89f00f795caa40dc22b60ce"
        static let saveLink = "c1bc752aa61ddf90ab8d4e17992dff5de889155a792071031e2182d762829310"
        static let deleteLink = "6fb4a2c3836f485f8ac376e086bccce705b38ad77c945db12c8a0bd703ee8548"
        static let saveBytes =
            "0201000000030000000100000000000117979cfe362a0000101112131415161718191a1b1c1d1e1f"
            + "202122232425262728292a2b68656c6c6f2c20616e63686f72616765"
        static let deleteBytes =
            "020a000000030000000100000000000217979cfe71c4ca00101112131415161718191a1b1c1d1e1f"
            + "6fb4a2c3836f485f8ac376e086bccce705b38ad77c945db12c8a0bd703ee8548"
    }

    static func bytes(_ hex: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
            index = next
        }
        return bytes
    }

    static func hex(_ digest: EntryDigest) -> String {
        digest.bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test("the documented test vector: payload digest, links and bytes of a save and a delete")
    func knownAnswers() throws {
        #expect(Self.hex(EntryDigest.of(Vector.payload)) == Vector.payloadDigest)
        let save = LogEntry(
            seq: 1,
            dot: Dot(origin: Vector.origin, counter: 1),
            timestamp: 1_700_000_000_000_000_000,
            operation: .save,
            kind: 3,
            id: Vector.object,
            payload: EntryPayload(Vector.payload),
            payloadDigest: EntryDigest.of(Vector.payload),
            link: .zero
        )
        let saveLink = save.encoded().withUnsafeBytes { EntryFormat.link(previous: .zero, entry: $0) }
        #expect(Self.hex(saveLink) == Vector.saveLink, "link(1) = SHA-256(32 zero bytes ‖ header ‖ digest)")
        let delete = LogEntry(
            seq: 2,
            dot: Dot(origin: Vector.origin, counter: 2),
            timestamp: 1_700_000_001_000_000_000,
            operation: .delete,
            kind: 3,
            id: Vector.object,
            payload: nil,
            payloadDigest: .zero,
            link: .zero
        )
        let deleteLink = delete.encoded().withUnsafeBytes { EntryFormat.link(previous: saveLink, entry: $0) }
        #expect(Self.hex(deleteLink) == Vector.deleteLink, "link(2) commits to link(1)")
        // The stored bytes, link included, and back.
        let entries = try Vector.entries()
        #expect(entries[0].encoded() == (try Self.bytes(Vector.saveBytes)))
        #expect(entries[1].encoded() == (try Self.bytes(Vector.deleteBytes)))
        #expect(entries[0].link == saveLink && entries[1].link == deleteLink)
        #expect(entries[0].dot == save.dot && entries[0].timestamp == save.timestamp && entries[0].id == save.id)
    }

    @Test("the documented format-2 vector: salted digest, links, and the compact bytes a format-2 store writes")
    func format2Vector() async throws {
        let salt = Vector2.salt.withUnsafeBytes { EntrySalt(loadingFrom: $0, at: 0) }
        let entries = [
            LogEntry(
                seq: 1,
                dot: Dot(origin: Vector.origin, counter: 1),
                timestamp: 1_700_000_000_000_000_000,
                operation: .save,
                kind: 3,
                id: Vector.object,
                payload: EntryPayload(Vector.payload),
                version: 2,
                salt: salt,
                storedDigest: nil,
                link: nil
            ),
            LogEntry(
                seq: 2,
                dot: Dot(origin: Vector.origin, counter: 2),
                timestamp: 1_700_000_001_000_000_000,
                operation: .delete,
                kind: 3,
                id: Vector.object,
                payload: nil,
                version: 2,
                salt: nil,
                storedDigest: nil,
                link: nil
            ),
        ]
        #expect(Self.hex(entries[0].payloadDigest) == Vector2.payloadDigest, "SHA-256(salt ‖ payload)")
        #expect(Self.hex(entries[0].link(after: .zero)) == Vector2.saveLink)
        #expect(Self.hex(entries[1].link(after: entries[0].link(after: .zero))) == Vector2.deleteLink)
        var configuration = fastConfiguration
        configuration.newStoreID = { Vector.origin }
        try await withTemporaryLog(configuration: configuration) { log, _ in
            _ = try await log.apply(entries)
            let stored = try CompactLayoutTests.storedValues(log)
            #expect(stored == [try Self.bytes(Vector2.saveBytes), try Self.bytes(Vector2.deleteBytes)])
            #expect(try readAll(log) == entries)
            #expect(try log.verify().isIntact)
        }
    }

    @Test("a log that receives the vector's entries links them as documented, and verifies")
    func appliedVector() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            _ = try await log.apply(try Vector.entries())
            let stored = try log.entries(after: nil, limit: 10).entries
            let links = try [log.link(at: 1), log.link(at: 2)]
            #expect(links.map(Self.hex) == [Vector.saveLink, Vector.deleteLink])
            #expect(stored[1].link == links[1], "format 2 stores the link of a transaction's last entry")
            #expect(
                zip(stored, links).map { $0.encoded(link: $1) }
                    == [try Self.bytes(Vector.saveBytes), try Self.bytes(Vector.deleteBytes)],
                "the exchange form of a version-1 entry is the same in a format-2 store"
            )
            #expect(try log.verify().isIntact)
        }
    }

    @Test(
        "an entry replaced by another that is consistent in itself (its digest and its own link right) is found by the next stored link",
        arguments: [1, 3, 5] as [UInt64]
    )
    func splice(at position: UInt64) async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            var generator = SeededGenerator(seed: 0x5971 + position)
            try await log.append((0..<6).map { _ in LogEvent.random(using: &generator) })
            let entries = try log.entries(after: nil, limit: 10).entries
            let original = entries[Int(position) - 1]
            let previous = try log.link(at: position - 1)
            // Another save at the same place: new contents, their digest,
            // and the link that follows from the entry before it.
            let payload = Array("spliced in at \(position)".utf8)
            var forged = LogEntry(
                seq: position,
                dot: original.dot,
                timestamp: original.timestamp,
                operation: .save,
                kind: original.kind,
                id: UUID.random(using: &generator),
                payload: EntryPayload(payload),
                payloadDigest: EntryDigest.of(payload),
                link: .zero
            )
            let link = forged.encoded().withUnsafeBytes { EntryFormat.link(previous: previous, entry: $0) }
            forged = LogEntry(
                seq: position,
                dot: forged.dot,
                timestamp: forged.timestamp,
                operation: .save,
                kind: forged.kind,
                id: forged.id,
                payload: forged.payload,
                payloadDigest: forged.payloadDigest,
                link: link
            )
            // Consistent in itself: a peer checking it against the entry
            // before would take it.
            let bytes = forged.encoded()
            _ = try bytes.withUnsafeBytes { try LogEntry(seq: position, encoded: $0, previousLink: previous) }
            let stored = try log.storedForm(of: forged, link: original.link == nil ? nil : link)
            try log.store().environment.write { txn in
                try txn.put(stored, forKey: position.bigEndianBytes, in: log.databases.log)
            }
            // Format 2 keeps links at intervals and on each transaction's
            // last entry: the first one stored after the splice finds it.
            let next = try #require(entries.first { $0.seq > position && $0.link != nil }).seq
            let report = try log.verify()
            #expect(report.problem?.seq == next, "\(String(describing: report.problem))")
            #expect(report.entriesChecked == Int(next) - 1)
        }
    }
}
