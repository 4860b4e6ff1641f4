import LMDB
import Testing

@Suite("Cursors")
struct CursorTests {
    /// Keys 10, 20, …, 100.
    private func filled(_ environment: Environment) throws -> Database {
        let db = try environment.openDatabase(named: "cursor")
        try environment.write { txn throws in
            for value in stride(from: 10, through: 100, by: 10) {
                try txn.put([UInt8(value)], forKey: key(UInt64(value)), in: db, options: .append)
            }
        }
        return db
    }

    private func decode(_ key: UnsafeRawBufferPointer) -> UInt64 { UInt64(bigEndianBytes: key)! }

    @Test("first, last, next, previous and seek position on the right entries")
    func positioning() throws {
        try withEnvironment { environment, _ in
            let db = try filled(environment)
            try environment.read { txn throws in
                try txn.withCursor(on: db) { cursor throws in
                    #expect(try cursor.first { k, _ in decode(k) } == 10)
                    #expect(try cursor.next { k, _ in decode(k) } == 20)
                    #expect(try cursor.last { k, _ in decode(k) } == 100)
                    #expect(try cursor.next { k, _ in decode(k) } == nil)
                    #expect(try cursor.previous { k, _ in decode(k) } == 90)
                    #expect(try cursor.seek(atOrAfter: key(35)) { k, v in (decode(k), Array(v)) }! == (40, [40]))
                    #expect(try cursor.seek(atOrAfter: key(40)) { k, _ in decode(k) } == 40)
                    #expect(try cursor.seek(atOrAfter: key(101)) { k, _ in decode(k) } == nil)
                }
            }
        }
    }

    @Test(
        "scans run in key order from a key, in both directions, and stop when asked",
        arguments: [0, 10, 15, 100, 150]
    )
    func scans(start: UInt64) throws {
        try withEnvironment { environment, _ in
            let db = try filled(environment)
            let all = stride(from: 10, through: 100, by: 10).map { UInt64($0) }
            try environment.read { txn in
                try txn.withCursor(on: db) { cursor in
                    var forward: [UInt64] = []
                    try cursor.scan(from: key(start)) { k, _ in
                        forward.append(decode(k))
                        return true
                    }
                    #expect(forward == all.filter { $0 >= start })

                    var backward: [UInt64] = []
                    try cursor.scanReversed(from: key(start)) { k, _ in
                        backward.append(decode(k))
                        return true
                    }
                    #expect(backward == all.filter { $0 <= start }.reversed())

                    var firstTwo: [UInt64] = []
                    try cursor.scan { k, _ in
                        firstTwo.append(decode(k))
                        return firstTwo.count < 2
                    }
                    #expect(firstTwo == [10, 20])
                }
            }
        }
    }

    @Test("a scan of an empty database calls nothing")
    func emptyScan() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "empty")
            try environment.read { txn in
                try txn.withCursor(on: db) { cursor in
                    try cursor.scan { _, _ in
                        Issue.record("no entry expected")
                        return true
                    }
                    try cursor.scanReversed { _, _ in
                        Issue.record("no entry expected")
                        return true
                    }
                    #expect(try cursor.last { k, _ in Array(k) } == nil)
                }
            }
        }
    }
}
