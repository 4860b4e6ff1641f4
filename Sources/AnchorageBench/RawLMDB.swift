import Foundation

/// Runs the C baseline (Scripts/bench-lmdb/raw_lmdb.c) and parses its line.
struct RawLMDB {
    struct Run {
        var appendRate: Double
        var scanRate: Double
        var fileBytes: Int
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let executable: String
    let workDirectory: URL

    /// Runs the baseline; `indexed` adds the store index's three rows per entry.
    func run(entries: Int, batch: Int, valueBytes: Int, indexed: Bool = false) throws -> Run {
        let directory = workDirectory.appendingPathComponent("raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [directory.path, "\(entries)", "\(batch)", "\(valueBytes)"] + (indexed ? ["1"] : [])
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) exited with status \(process.terminationStatus)")
        }
        var fields: [String: Double] = [:]
        for pair in output.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let append = fields["append_seconds"], let scan = fields["scan_seconds"], let bytes = fields["file_bytes"]
        else {
            throw Failure(description: "unexpected output from \(executable): \(output)")
        }
        return Run(appendRate: Double(entries) / append, scanRate: Double(entries) / scan, fileBytes: Int(bytes))
    }
}
