import Foundation
import LMDB
import Testing

@Suite("Environments opened read-only")
struct ReadOnlyTests {
    @Test("a read transaction opens existing databases and keeps them; it creates none, and writes fail")
    func opensExistingDatabases() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lmdb-ro-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let writer = try Environment(path: path)
            let created = try writer.write { txn in try txn.opener.database(named: "rows") }
            let rows = try #require(created)
            try writer.write { txn in try txn.put([42], forKey: key(1), in: rows) }
        }
        var configuration = Environment.Configuration()
        configuration.options.insert(.readOnly)
        let reader = try Environment(path: path, configuration: configuration)
        let (rows, missing) = try reader.readOpeningDatabases { txn in
            (try txn.opener.database(named: "rows"), try txn.opener.database(named: "absent"))
        }
        #expect(missing == nil)
        let database = try #require(rows)
        // Still open in a later transaction.
        #expect(try reader.read { txn in try txn.value(forKey: key(1), in: database) } == [42])
        #expect(throws: LMDBError.self) { try reader.write { txn in try txn.put([1], forKey: key(2), in: database) } }
        #expect(throws: LMDBError.self) { _ = try reader.openDatabase(named: "new") }
    }
}
