import LMDB
import Synchronization
import Testing

/// A toy sealing that is easy to check by eye: a key gets a one-byte
/// marker 0xEE in front (a prefix kept for every key, so order and
/// prefixes survive); a value is XORed with 0x5A and gets a check byte,
/// the sum of the stored key's bytes, so a value moved to another key
/// does not open. It counts the values it opens.
private final class ToySealing: DatabaseSealing {
    let keyGrowth = 1
    let sealsValues: Bool
    let opened = Atomic<Int>(0)

    init(sealsValues: Bool = true) { self.sealsValues = sealsValues }

    struct Refused: Error {}

    func storeKey(_ key: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        output[0] = 0xEE
        UnsafeMutableRawBufferPointer(rebasing: output[1...]).copyMemory(from: key)
        return key.count + 1
    }

    func plainKey(_ stored: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> Int {
        guard stored.first == 0xEE else { throw Refused() }
        output.copyMemory(from: UnsafeRawBufferPointer(rebasing: stored[1...]))
        return stored.count - 1
    }

    func sealedCount(ofValueCount count: Int) -> Int { count + 1 }

    private static func check(_ key: UnsafeRawBufferPointer) -> UInt8 {
        key.reduce(0) { $0 &+ $1 }
    }

    func seal(
        _ value: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) {
        for index in value.indices { output[index] = value[index] ^ 0x5A }
        output[value.count] = Self.check(storedKey)
    }

    func openValue(
        _ sealed: UnsafeRawBufferPointer,
        storedKey: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        opened.add(1, ordering: .relaxed)
        guard let check = sealed.last, check == Self.check(storedKey) else { throw Refused() }
        for index in 0..<sealed.count - 1 { output[index] = sealed[index] ^ 0x5A }
        return sealed.count - 1
    }
}

@Suite("A database's sealing: plain keys and values to callers, sealed ones in the file")
struct DatabaseSealingTests {
    @Test("puts, reads, cursors and removals see plain bytes; the file holds the sealed ones; a moved value is refused")
    func roundTrip() throws {
        try withEnvironment { environment, _ in
            let plain = try environment.openDatabase(named: "toy")
            let sealing = ToySealing()
            let sealed = plain.sealed(by: sealing)
            #expect(sealed.isSealed && !plain.isSealed)
            try environment.write { txn in
                for value: UInt64 in [30, 10, 20] {
                    try txn.put([UInt8(value), 1, 2], forKey: key(value), in: sealed)
                }
                try key(40).withUnsafeBytes { key in
                    try txn.put(reservingCount: 2, forKey: key, in: sealed) { $0.copyBytes(from: [40, 4]) }
                }
            }
            // The file: the marker before every key, values XORed with a check byte.
            let stored = try dump(environment, plain)
            #expect(stored.map(\.0) == [10, 20, 30, 40].map { [0xEE] + key($0) })
            let check: UInt8 = ([0xEE] + key(10)).reduce(0) { $0 &+ $1 }
            let expected: [UInt8] = [10 ^ 0x5A, 1 ^ 0x5A, 2 ^ 0x5A, check]
            #expect(stored[0].1 == expected)
            // Callers: the plain bytes, in key order, from every way in.
            #expect(try dump(environment, sealed).map(\.0) == [10, 20, 30, 40].map { key($0) })
            #expect(try dump(environment, sealed).map(\.1) == [[10, 1, 2], [20, 1, 2], [30, 1, 2], [40, 4]])
            try environment.read { txn in
                #expect(try txn.value(forKey: key(20), in: sealed) == [20, 1, 2])
                try txn.withCursor(on: sealed) { cursor in
                    #expect(
                        try cursor.seek(atOrAfter: key(25)) { k, v in (Array(k), Array(v)) }! == (key(30), [30, 1, 2])
                    )
                    #expect(try cursor.last { k, _ in Array(k) } == key(40))
                    var reversed: [[UInt8]] = []
                    try cursor.scanReversed(from: key(25)) { k, _ in
                        reversed.append(Array(k))
                        return true
                    }
                    #expect(reversed == [key(20), key(10)])
                }
            }
            let removed = try environment.write { txn in try txn.removeValue(forKey: key(10), in: sealed) }
            #expect(removed)
            #expect(try dump(environment, plain).count == 3)
            // A value copied under another key no longer opens.
            try environment.write { txn in
                let moved = try txn.value(forKey: [0xEE] + key(20), in: plain)!
                try txn.put(moved, forKey: [0xEE] + key(30), in: plain)
            }
            #expect(throws: ToySealing.Refused.self) {
                try environment.read { txn in _ = try txn.value(forKey: key(30), in: sealed) }
            }
        }
    }

    @Test("a key scan opens only the values it reads: here 2 of 50", arguments: [true, false])
    func keyScansOpenOnlyWhatTheyRead(sealsValues: Bool) throws {
        try withEnvironment { environment, _ in
            let sealing = ToySealing(sealsValues: sealsValues)
            let sealed = try environment.openDatabase(named: "toy").sealed(by: sealing)
            try environment.write { txn in
                for value: UInt64 in 1...50 { try txn.put([UInt8(value)], forKey: key(value), in: sealed) }
            }
            let before = sealing.opened.load(ordering: .relaxed)
            var keys: [UInt64] = []
            var values: [[UInt8]] = []
            try environment.read { txn in
                try txn.withCursor(on: sealed) { cursor in
                    try cursor.scanKeys(from: key(1)) { k, value in
                        let number = UInt64(bigEndianBytes: k)!
                        keys.append(number)
                        if number % 20 == 0 { values.append(try value.withBytes { Array($0) }) }
                        return true
                    }
                }
            }
            #expect(keys == Array(1...50))
            #expect(values == [[20], [40]])
            // Values a sealing leaves as they are are never "opened".
            #expect(sealing.opened.load(ordering: .relaxed) - before == (sealsValues ? 2 : 0))
        }
    }
}
