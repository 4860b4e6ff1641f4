import AnchorageTestRun
import Foundation
import LMDB
import Testing

@Suite("Mapped pages", .ownThread)
struct MappedPagesTests {
    @Test(
        "releasing the mapped pages takes the file out of the process's resident memory; every value reads back the same"
    )
    func releaseKeepsData() throws {
        try withEnvironment { environment, path in
            let db = try environment.openDatabase(named: "pages")
            let value = [UInt8](repeating: 7, count: 1_000)
            try environment.write { txn in
                for index in 0..<8_000 { try txn.put(value + key(UInt64(index)), forKey: key(UInt64(index)), in: db) }
            }
            let before = try dump(environment, db)
            let read = try #require(try mappedResidentBytes(of: path + "/data.mdb"))
            #expect(read > 4 << 20, "reading 8 MB mapped it: \(read) bytes resident")

            environment.releaseMappedPages()
            let released = try #require(try mappedResidentBytes(of: path + "/data.mdb"))
            #expect(released < 256 << 10, "\(released) bytes still resident")

            let after = try dump(environment, db)
            #expect(after.count == before.count && zip(after, before).allSatisfy { $0 == $1 })
            #expect(try #require(try mappedResidentBytes(of: path + "/data.mdb")) > 4 << 20, "reading maps it again")
        }
    }
}
