import AnchorageTestRun
import AnchorageTesting
import Foundation
import Testing

@testable import AnchorageLog

@Suite("Entry format")
struct EntryFormatTests {
    @Test("encoding then decoding gives the same entry")
    func roundTrip() async throws {
        try await withTemporaryLog(configuration: fastConfiguration) { log, _ in
            var generator = SeededGenerator(seed: 5)
            try await log.append((0..<200).map { _ in LogEvent.random(using: &generator) })
            for entry in try readAll(log) {
                #expect(try LogEntry(seq: entry.seq, encoded: entry.encoded()) == entry)
            }
        }
    }

    @Test("the documented layout: offsets, big-endian fields, header size")
    func layout() throws {
        let id = UUID()
        let origin = StoreID()
        let entry = LogEntry(
            seq: 9,
            dot: Dot(origin: origin, counter: 0x0102_0304_0506_0708),
            timestamp: 0x1112_1314_1516_1718,
            operation: .save,
            kind: 0x2122_2324,
            id: id,
            payload: [0xAA, 0xBB],
            payloadDigest: EntryDigest.of([0xAA, 0xBB]),
            link: .zero
        )
        let bytes = entry.encoded()
        #expect(bytes.count == 124 + 2)
        #expect(Array(bytes[0..<4]) == [1, 1, 0, 0])
        #expect(Array(bytes[4..<8]) == [0x21, 0x22, 0x23, 0x24])
        #expect(Array(bytes[8..<24]) == origin.uuid.bytes)
        #expect(Array(bytes[24..<32]) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Array(bytes[32..<40]) == [0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18])
        #expect(Array(bytes[40..<56]) == id.bytes)
        #expect(Array(bytes[56..<60]) == [0, 0, 0, 2])
        #expect(Array(bytes[60..<92]) == EntryDigest.of([0xAA, 0xBB]).bytes)
        #expect(Array(bytes[124...]) == [0xAA, 0xBB])
    }

    @Test("random and mutated bytes never crash the decoder; damage is a typed error", .ownThread)
    func hostileBytes() throws {
        var generator = SeededGenerator(seed: 99)
        let valid = LogEntry(
            seq: 1,
            dot: Dot(origin: StoreID(), counter: 1),
            timestamp: 0,
            operation: .save,
            kind: 1,
            id: UUID(),
            payload: [1, 2, 3],
            payloadDigest: EntryDigest.of([1, 2, 3]),
            link: .zero
        ).encoded()
        for round in 0..<20_000 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            } else {
                bytes = valid
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
            do {
                _ = try LogEntry(seq: 1, encoded: bytes)
            } catch {
                #expect(error.code == .malformedEntry && error.seq == 1)
            }
        }
    }
}

extension EntryFormatTests {
    @Test("a digest's description is its 64 lowercase hex digits, byte by byte")
    func digestHex() {
        var generator = SeededGenerator(seed: 16)
        for _ in 0..<200 {
            let digest = EntryDigest.of(
                (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
                }
            )
            let expected = digest.bytes.map { String(format: "%02x", $0) }.joined()
            #expect(digest.description == expected)
        }
    }
}
