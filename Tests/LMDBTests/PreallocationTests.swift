import Foundation
import LMDB
import Testing

@Suite("Zeros written ahead of the data file's pages")
struct PreallocationTests {
    /// The data file's bytes.
    private func file(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb")))
    }

    private func fill(_ environment: Environment, _ db: Database, from first: UInt64, count: UInt64) throws {
        try environment.write { txn throws in
            for value in first..<(first + count) {
                try txn.put([UInt8](repeating: UInt8(value % 251), count: 200), forKey: key(value), in: db)
            }
        }
    }

    @Test(
        "preallocate writes zeros from the file's end to headroom + extent past the last page, only when less than headroom is left; the pages written later land in them and read back; a copy holds only the pages"
    )
    func zerosAhead() throws {
        try withEnvironment { environment, path in
            let db = try environment.openDatabase(named: "rows")
            try fill(environment, db, from: 0, count: 100)
            let before = try file(path)
            let headroom = 64 << 10
            let extent = 256 << 10
            let written = try environment.preallocate(headroom: headroom, extent: extent)
            let after = try file(path)
            #expect(written == after.count - before.count && written > 0)
            #expect(after.count == environment.usedBytes + headroom + extent)
            #expect(Array(after[..<before.count]) == before, "nothing below the old end changed")
            #expect(after[before.count...].allSatisfy { $0 == 0 })
            #expect(try environment.preallocate(headroom: headroom, extent: extent) == 0, "room left: nothing written")

            // Pages written into the zeros; then, with less than the headroom left, more zeros.
            var next: UInt64 = 100
            while try file(path).count - environment.usedBytes >= headroom {
                try fill(environment, db, from: next, count: 100)
                next += 100
            }
            #expect(try file(path).count == after.count, "commits overwrote the zeros instead of growing the file")
            #expect(
                try environment.preallocate(
                    headroom: headroom,
                    extent: extent,
                    piece: environment.pageSize,
                    flushes: false
                ) > 0
            )
            #expect(try file(path).count == environment.usedBytes + headroom + extent, "by pages, unflushed: the same")
            let rows = try dump(environment, db)
            #expect(rows.count == Int(next))
            #expect(
                rows.allSatisfy { key, value in
                    value == [UInt8](repeating: UInt8(UInt64(bigEndianBytes: key)! % 251), count: 200)
                }
            )

            let copy = path + "-copy"
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: copy) }
            try environment.copy(to: copy)
            #expect(try file(copy).count <= environment.usedBytes, "a copy holds the pages, not the zeros")
        }
    }

    @Test("the zeros survive reopening: the environment opens over them with every row, and uses them")
    func reopened() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lmdb-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = Environment.Configuration()
        configuration.maxDatabases = 4
        do {
            let environment = try Environment(path: path, configuration: configuration)
            let db = try environment.openDatabase(named: "rows")
            try fill(environment, db, from: 0, count: 50)
            #expect(try environment.preallocate(headroom: 1 << 20, extent: 1 << 20) > 0)
        }
        let length = try file(path).count
        let environment = try Environment(path: path, configuration: configuration)
        let db = try environment.openDatabase(named: "rows")
        #expect(try dump(environment, db).count == 50)
        try fill(environment, db, from: 50, count: 50)
        #expect(try dump(environment, db).count == 100)
        #expect(try file(path).count == length)
    }
}
