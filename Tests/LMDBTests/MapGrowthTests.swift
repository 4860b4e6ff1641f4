import AnchorageTestRun
import Foundation
import LMDB
import Testing

@Suite("Map growth", .ownThread)
struct MapGrowthTests {
    @Test("writes past a 64 KiB map grow it, in many transactions and in one big one")
    func growth() throws {
        try withEnvironment(mapSize: 64 << 10) { environment, _ in
            let db = try environment.openDatabase(named: "grow")
            let value = [UInt8](repeating: 0x42, count: 1_000)
            for batch in 0..<10 {
                try environment.write { txn in
                    for i in 0..<500 {
                        try txn.put(value, forKey: key(UInt64(batch * 500 + i)), in: db, options: .append)
                    }
                }
            }
            try environment.write { txn in
                for i in 5_000..<15_000 {
                    try txn.put(value, forKey: key(UInt64(i)), in: db, options: .append)
                }
            }
            #expect(environment.mapSize > 15_000_000)
            let rows = try dump(environment, db)
            #expect(rows.count == 15_000)
            #expect(rows.allSatisfy { $0.1 == value })
        }
    }

    @Test("a closure that swallows the map-full error is still retried, and its writes all land")
    func swallowedMapFull() throws {
        try withEnvironment(mapSize: 64 << 10) { environment, _ in
            let db = try environment.openDatabase(named: "swallow")
            var attempts = 0
            try environment.write { txn in
                attempts += 1
                for i in 0..<2_000 {
                    // Swallowing errors is a caller bug, but it must not crash or commit half.
                    try? txn.put([UInt8](repeating: 1, count: 500), forKey: key(UInt64(i)), in: db)
                }
            }
            #expect(attempts > 1)
            #expect(try dump(environment, db).count == 2_000)
        }
    }

    @Test("the maximum map size is a hard limit with a message that says what to raise")
    func maximum() throws {
        try withEnvironment(mapSize: 64 << 10, maximumMapSize: 256 << 10) { environment, _ in
            let db = try environment.openDatabase(named: "cap")
            #expect {
                try environment.write { txn in
                    for i in 0..<1_000 {
                        try txn.put([UInt8](repeating: 1, count: 1_000), forKey: key(UInt64(i)), in: db)
                    }
                }
            } throws: { error in
                guard let error = error as? LMDBError else { return false }
                return error.code == .mapFull && error.code.isResourceLimit && error.message.contains("maximumMapSize")
            }
            // Nothing was half-written, and smaller writes still work.
            #expect(try dump(environment, db).isEmpty)
            try environment.write { txn in try txn.put([1], forKey: key(1), in: db) }
        }
    }

    @Test("readers running while the map grows see consistent data")
    func readersDuringGrowth() async throws {
        try await withEnvironmentAsync(mapSize: 64 << 10) { environment in
            let db = try environment.openDatabase(named: "concurrent")
            let writer = Task.detached {
                for batch in 0..<40 {
                    try environment.write { txn in
                        for i in 0..<100 {
                            let n = UInt64(batch * 100 + i)
                            try txn.put(
                                [UInt8](repeating: UInt8(truncatingIfNeeded: n), count: 900),
                                forKey: key(n),
                                in: db
                            )
                        }
                    }
                }
            }
            let readers = (0..<4).map { _ in
                Task.detached {
                    var last = 0
                    while !Task.isCancelled {
                        let count = try environment.read { txn in
                            var count = 0
                            try txn.withCursor(on: db) { cursor in
                                try cursor.scan { k, v in
                                    let n = UInt64(bigEndianBytes: k)!
                                    #expect(v.count == 900 && v.allSatisfy { $0 == UInt8(truncatingIfNeeded: n) })
                                    count += 1
                                    return true
                                }
                            }
                            return count
                        }
                        // Commits are whole batches of 100, and never go backwards.
                        #expect(count % 100 == 0 && count >= last)
                        last = count
                        if count == 4_000 { return }
                    }
                }
            }
            try await writer.value
            for reader in readers { try await reader.value }
            #expect(environment.mapSize > 3_600_000)
        }
    }
}

/// `withEnvironment` for async bodies.
func withEnvironmentAsync<R>(
    mapSize: Int,
    _ body: (Environment) async throws -> R
) async throws -> R {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lmdb-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var configuration = Environment.Configuration()
    configuration.options.insert(.noSync)
    configuration.mapSize = mapSize
    return try await body(try Environment(path: path, configuration: configuration))
}
