import Foundation
import LMDB
import Testing

@Suite("Transactions")
struct TransactionTests {
    @Test("put, get, remove and contains round-trip; a missing key reads as nil")
    func basics() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "basics")
            try environment.write { txn throws in
                try txn.put([1, 2, 3], forKey: key(1), in: db)
                try txn.put([4], forKey: key(2), in: db)
                // A write transaction sees its own writes.
                #expect(try txn.value(forKey: key(1), in: db) == [1, 2, 3])
            }
            try environment.read { txn throws in
                #expect(try txn.value(forKey: key(1), in: db) == [1, 2, 3])
                #expect(try txn.value(forKey: key(3), in: db) == nil)
                #expect(try txn.contains(key: key(2), in: db))
                #expect(try txn.statistics(of: db).entries == 2)
            }
            let removed = try environment.write { txn in
                (try txn.removeValue(forKey: key(2), in: db), try txn.removeValue(forKey: key(9), in: db))
            }
            #expect(removed == (true, false))
            #expect(try dump(environment, db).map(\.0) == [key(1)])
        }
    }

    @Test("a write whose closure throws stores nothing")
    func abortOnThrow() throws {
        struct Stop: Error {}
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "abort")
            #expect(throws: Stop.self) {
                try environment.write { txn in
                    try txn.put([1], forKey: key(1), in: db)
                    throw Stop()
                }
            }
            #expect(try dump(environment, db).isEmpty)
        }
    }

    @Test("noOverwrite and an out-of-order append fail with keyExists, which the write can survive")
    func keyExists() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "exists")
            try environment.write { txn in
                try txn.put([1], forKey: key(5), in: db, options: .append)
                do {
                    try txn.put([2], forKey: key(5), in: db, options: .noOverwrite)
                    Issue.record("expected keyExists")
                } catch LMDBError.Code.keyExists {}
                do {
                    try txn.put([3], forKey: key(4), in: db, options: .append)
                    Issue.record("expected keyExists")
                } catch LMDBError.Code.keyExists {}
                // keyExists leaves the transaction usable.
                try txn.put([6], forKey: key(6), in: db, options: .append)
            }
            #expect(try dump(environment, db).map(\.1) == [[1], [6]])
        }
    }

    @Test("reserving space writes the value in place")
    func reserve() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "reserve")
            try environment.write { txn in
                try key(1).withUnsafeBytes { k in
                    try txn.put(reservingCount: 4, forKey: k, in: db) { buffer in
                        buffer.copyBytes(from: [9, 8, 7, 6])
                    }
                }
            }
            #expect(try dump(environment, db).map(\.1) == [[9, 8, 7, 6]])
        }
    }

    @Test("a nested transaction that throws is undone alone")
    func nested() throws {
        struct Stop: Error {}
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "nested")
            try environment.write { txn throws in
                try txn.put([1], forKey: key(1), in: db)
                try txn.withNestedTransaction { child in try child.put([2], forKey: key(2), in: db) }
                #expect(throws: Stop.self) {
                    try txn.withNestedTransaction { child throws in
                        try child.put([3], forKey: key(3), in: db)
                        throw Stop()
                    }
                }
                try txn.put([4], forKey: key(4), in: db)
            }
            #expect(try dump(environment, db).map(\.0) == [key(1), key(2), key(4)])
        }
    }

    @Test("removeAll empties a database and keeps it")
    func removeAll() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "drop")
            try environment.write { txn throws in
                for i in 1...10 { try txn.put([UInt8(i)], forKey: key(UInt64(i)), in: db) }
            }
            try environment.write { txn in try txn.removeAll(in: db) }
            #expect(try dump(environment, db).isEmpty)
            try environment.write { txn in try txn.put([1], forKey: key(1), in: db) }
            #expect(try dump(environment, db).count == 1)
        }
    }

    @Test("a database that does not exist is nil without create, and an error from the environment")
    func missingDatabase() throws {
        try withEnvironment { environment, _ in
            let missing = try environment.write { txn in try txn.openDatabase(named: "nope", options: []) }
            #expect(missing == nil)
            #expect(throws: LMDBError.self) { try environment.openDatabase(named: "nope", options: []) }
        }
    }

    @Test("readers see the last commit before they began, not later ones")
    func snapshotIsolation() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "snapshot")
            try environment.write { txn in try txn.put([1], forKey: key(1), in: db) }
            try environment.read { txn throws in
                // A writer on another thread commits while this reader is open.
                let done = DispatchSemaphore(value: 0)
                Thread {
                    try! environment.write { txn in try txn.put([2], forKey: key(1), in: db) }
                    done.signal()
                }.start()
                done.wait()
                #expect(try txn.value(forKey: key(1), in: db) == [1])
            }
            #expect(try environment.read { txn in try txn.value(forKey: key(1), in: db) } == [2])
        }
    }
}

extension TransactionTests {
    @Test("insert stores only new keys; atEnd stores only keys after the last, and neither poisons the transaction")
    func insertIfAbsent() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "insert")
            let steps: [(UInt64, UInt8, Bool)] = [
                (5, 1, true),  // empty database: appended
                (9, 2, true),  // after the last: appended
                (7, 3, true),  // before the last: refused
                (7, 4, false),  // new key: inserted in place
                (9, 5, false),  // taken: refused, value kept
                (9, 6, true),  // equal to the last: refused
            ]
            let results = try environment.write { txn throws in
                var results: [Bool] = []
                for (k, v, atEnd) in steps {
                    let value = [v]
                    let keyBytes = key(k)
                    let stored = try value.withUnsafeBytes { value in
                        try keyBytes.withUnsafeBytes { keyBuffer in
                            try txn.insert(value, forKey: keyBuffer, in: db, atEnd: atEnd)
                        }
                    }
                    results.append(stored)
                }
                return results
            }
            #expect(results == [true, true, false, true, false, false])
            #expect(try dump(environment, db).map { $0.1 } == [[1], [4], [2]])
        }
    }
}
