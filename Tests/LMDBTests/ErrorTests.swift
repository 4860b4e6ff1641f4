import Foundation
@_spi(Testing) import LMDB
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Errors")
struct ErrorTests {
    @Test("opening a missing directory is fileNotFound; a non-LMDB file is invalidFile")
    func openErrors() throws {
        #expect {
            try Environment(path: "/nonexistent/\(UUID().uuidString)")
        } throws: { error in
            (error as? LMDBError)?.code == .fileNotFound
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lmdb-junk-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0xEE, count: 32 * 1024).write(to: URL(fileURLWithPath: path + "/data.mdb"))
        #expect {
            try Environment(path: path)
        } throws: { error in
            (error as? LMDBError)?.code == .invalidFile
        }
    }

    @Test("an empty or over-long key is badValueSize, a typed error rather than a crash")
    func longKey() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "keys")
            let long = [UInt8](repeating: 1, count: environment.maximumKeySize + 1)
            #expect {
                try environment.write { txn in try txn.put([1], forKey: long, in: db) }
            } throws: { error in
                (error as? LMDBError)?.code == .badValueSize
            }
            #expect {
                try environment.read { txn in try txn.value(forKey: [], in: db) }
            } throws: { error in
                (error as? LMDBError)?.code == .badValueSize
            }
        }
    }

    #if DEBUG
    @Test(
        "resource and environment errors are sorted into codes with remedies",
        arguments: [
            (ENOSPC, LMDBError.Code.noSpace, true, "free disk space"),
            (MDB_READERS_FULL_CODE, .readersFull, true, "maxReaders"),
            (ENOMEM, .outOfMemory, true, "memory"),
            (EACCES, .permissionDenied, false, "permission"),
            (EROFS, .permissionDenied, false, "permission"),
            (EIO, .ioError, false, "input/output"),
            (MDB_CORRUPTED_CODE, .corrupted, false, "backup"),
        ]
    )
    func classification(returnCode: Int32, code: LMDBError.Code, isResource: Bool, remedy: String) throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "faults")
            try environment.write { txn in try txn.put([1], forKey: key(1), in: db) }
            // A forced failure of the commit: nothing of the transaction is stored.
            environment.faults.inject(returnCode, into: "mdb_txn_commit")
            #expect {
                try environment.write { txn in try txn.put([2], forKey: key(2), in: db) }
            } throws: { error in
                guard let error = error as? LMDBError else { return false }
                return error.code == code && error.code.isResourceLimit == isResource
                    && error.message.contains(remedy) && error.function == "mdb_txn_commit"
            }
            #expect(try dump(environment, db).map(\.0) == [key(1)])
            // The environment keeps working afterwards.
            try environment.write { txn in try txn.put([3], forKey: key(3), in: db) }
            #expect(try dump(environment, db).map(\.0) == [key(1), key(3)])
        }
    }

    @Test("a failing put inside a write aborts the whole transaction, even if the closure swallows it")
    func swallowedFailure() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "swallowed")
            environment.faults.inject(EIO, into: "mdb_put", skip: 1)
            #expect {
                try environment.write { txn in
                    try txn.put([1], forKey: key(1), in: db)
                    try? txn.put([2], forKey: key(2), in: db)
                    try txn.put([3], forKey: key(3), in: db)
                }
            } throws: { error in
                (error as? LMDBError)?.code == .ioError
            }
            #expect(try dump(environment, db).isEmpty)
        }
    }

    @Test("a map-full commit is retried with a bigger map")
    func mapFullAtCommit() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "commit")
            let before = environment.mapSize
            environment.faults.inject(MDB_MAP_FULL_CODE, into: "mdb_txn_commit")
            var attempts = 0
            try environment.write { txn in
                attempts += 1
                try txn.put([1], forKey: key(1), in: db)
            }
            #expect(attempts == 2 && environment.mapSize > before)
            #expect(try dump(environment, db).count == 1)
        }
    }
    #endif

    @Test("descriptions name the function and the code, and codes match in catch clauses")
    func descriptions() throws {
        try withEnvironment { environment, _ in
            let db = try environment.openDatabase(named: "describe")
            try environment.write { txn in try txn.put([1], forKey: key(1), in: db) }
            do {
                try environment.write { txn in try txn.put([1], forKey: key(1), in: db, options: .noOverwrite) }
                Issue.record("expected keyExists")
            } catch LMDBError.Code.keyExists {
                // matched by code
            }
            do {
                try environment.write { txn in try txn.put([1], forKey: key(1), in: db, options: .noOverwrite) }
            } catch let error as LMDBError {
                #expect(error.description.contains("mdb_put") && error.description.contains("keyExists"))
                #expect(!error.code.isResourceLimit)
            }
        }
    }

    @Test("copy(to:) writes a consistent, usable copy")
    func copy() throws {
        try withEnvironment { environment, path in
            let db = try environment.openDatabase(named: "copied")
            try environment.write { txn in
                for i in 0..<100 { try txn.put([UInt8(i)], forKey: key(UInt64(i)), in: db) }
            }
            let target = path + "-copy"
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: target) }
            try environment.copy(to: target)
            let copy = try Environment(path: target)
            let copied = try copy.openDatabase(named: "copied", options: [])
            #expect(try dump(copy, copied).map(\.1) == (0..<100).map { [UInt8($0)] })
        }
    }
}

let MDB_MAP_FULL_CODE: Int32 = -30792
let MDB_READERS_FULL_CODE: Int32 = -30790
let MDB_CORRUPTED_CODE: Int32 = -30796
