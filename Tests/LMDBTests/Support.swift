import Foundation
import LMDB

/// Runs `body` with a new environment in a temporary directory, removed afterwards.
func withEnvironment<R>(
    mapSize: Int? = nil,
    maximumMapSize: Int? = nil,
    _ body: (Environment, String) throws -> R
) throws -> R {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lmdb-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var configuration = Environment.Configuration()
    configuration.options.insert(.noSync)
    if let mapSize { configuration.mapSize = mapSize }
    if let maximumMapSize { configuration.maximumMapSize = maximumMapSize }
    let environment = try Environment(path: path, configuration: configuration)
    return try body(environment, path)
}

/// A big-endian 8-byte key.
func key(_ value: UInt64) -> [UInt8] { value.bigEndianBytes }

/// Every key and value of `database`, in order.
func dump(_ environment: Environment, _ database: Database) throws -> [([UInt8], [UInt8])] {
    try environment.read { txn in
        var rows: [([UInt8], [UInt8])] = []
        try txn.withCursor(on: database) { cursor in
            try cursor.scan { key, value in
                rows.append((Array(key), Array(value)))
                return true
            }
        }
        return rows
    }
}
