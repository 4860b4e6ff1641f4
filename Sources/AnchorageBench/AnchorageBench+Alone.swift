import Foundation

extension AnchorageBench {
    /// Runs one suite in a new process of this program, with the same
    /// options, and returns its rows.
    func runAlone(_ name: Suite, work: URL) throws -> [Report.Row] {
        let rows = work.appendingPathComponent("rows-\(name.rawValue).json")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = childArguments(suite: name, json: rows.path)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchFailure(message: "suite \(name.rawValue) failed (exit status \(process.terminationStatus))")
        }
        return try Report.rows(fromJSON: Data(contentsOf: rows))
    }

    /// This run's options for a process that runs `suite` alone.
    private func childArguments(suite: Suite, json: String) -> [String] {
        var arguments = [
            "--suite", suite.rawValue, "--suite-child", "--json", json,
            "--entries", "\(entries)", "--batch", "\(batch)", "--payload", "\(payload)", "--runs", "\(runs)",
            "--work-directory", workDirectory, "--samples", "\(samples)",
            "--statistics-minutes", "\(statisticsMinutes)", "--stores-count", "\(storesCount)",
        ]
        if let rawLMDB { arguments += ["--raw-lmdb", rawLMDB] }
        if let rawSax { arguments += ["--raw-sax", rawSax] }
        if let wrkScript { arguments += ["--wrk-script", wrkScript] }
        if let export { arguments += ["--export", export] }
        if let routesExport { arguments += ["--routes-export", routesExport] }
        if let oldExport { arguments += ["--old-export", oldExport] }
        return arguments
    }
}

extension Report {
    /// The rows of a report written by ``json()``.
    static func rows(fromJSON data: Data) throws -> [Row] {
        struct Document: Decodable {
            var results: [Row]
        }
        return try JSONDecoder().decode(Document.self, from: data).results
    }
}
