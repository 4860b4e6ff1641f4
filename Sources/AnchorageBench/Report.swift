import Foundation

/// Medians, ratios and goals of one benchmark run, as a table and as JSON.
struct Report {
    enum Goal: Codable {
        /// Anchorage's median must be at least this fraction of the baseline's.
        case ratioAtLeast(Double)
        /// Anchorage's median must be at least this value.
        case valueAtLeast(Double)
        /// Anchorage's median must be at most this value (latencies).
        case valueAtMost(Double)
        /// Anchorage's median must be at most this multiple of the baseline's.
        case ratioAtMost(Double)
    }

    struct Row: Codable {
        var name: String
        var unit: String
        var anchorage: [Double]
        var baseline: [Double]
        var anchorageMedian: Double?
        var baselineMedian: Double?
        var ratio: Double?
        var goal: Goal?
        var goalMet: Bool?
    }

    let parameters: LogBenchmarks.Parameters
    let runs: Int
    private(set) var rows: [Row] = []

    init(parameters: LogBenchmarks.Parameters, runs: Int) {
        self.parameters = parameters
        self.runs = runs
    }

    /// Adds a workload's measurements of each run; `baseline`, where there
    /// is one, is measured in the same runs.
    /// Adds rows another process measured.
    mutating func append(_ more: [Row]) {
        rows += more
    }

    mutating func add(_ workload: Workload, anchorage: [Double], baseline: [Double] = []) {
        let (name, unit, goal) = (workload.name, workload.unit, workload.goal)
        let ours = Self.median(anchorage)
        let theirs = Self.median(baseline)
        let ratio = ours.flatMap { ours in theirs.map { ours / $0 } }
        let met: Bool? =
            switch goal {
            case .ratioAtLeast(let minimum): ratio.map { $0 >= minimum }
            case .valueAtLeast(let minimum): ours.map { $0 >= minimum }
            case .valueAtMost(let maximum): ours.map { $0 <= maximum }
            case .ratioAtMost(let maximum): ratio.map { $0 <= maximum }
            case nil: nil
            }
        rows.append(
            Row(
                name: name,
                unit: unit,
                anchorage: anchorage,
                baseline: baseline,
                anchorageMedian: ours,
                baselineMedian: theirs,
                ratio: ratio,
                goal: goal,
                goalMet: met
            )
        )
    }

    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    func table() -> String {
        let header = ["workload", "Anchorage", "baseline", "ratio", "goal"]
        var lines: [[String]] = [header]
        for row in rows {
            let goal: String =
                switch row.goal {
                case .ratioAtLeast(let minimum):
                    "≥ \(Self.percent(minimum)) of baseline: " + (row.goalMet == true ? "met" : "NOT met")
                case .valueAtLeast(let minimum):
                    "≥ \(Self.format(minimum)): " + (row.goalMet == true ? "met" : "NOT met")
                case .valueAtMost(let maximum):
                    "≤ \(Self.format(maximum)): " + (row.goalMet == true ? "met" : "NOT met")
                case .ratioAtMost(let maximum):
                    "≤ \(Self.percent(maximum)) of baseline: " + (row.goalMet == true ? "met" : "NOT met")
                case nil: ""
                }
            lines.append([
                row.name,
                row.anchorageMedian.map { Self.format($0) + " " + row.unit } ?? "–",
                row.baselineMedian.map { Self.format($0) + " " + row.unit } ?? "–",
                row.ratio.map(Self.percent) ?? "",
                goal,
            ])
        }
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        let title =
            "Anchorage against baselines measured in the same run (raw LMDB unless the workload names another) — medians of \(runs) runs; \(parameters.entries) entries, "
            + "\(parameters.payload)-byte payloads, batches of \(parameters.batch)"
        return
            ([title]
            + lines.map { line in
                zip(line, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            }).joined(separator: "\n")
    }

    /// A ratio as a percentage, with decimals when it is small.
    static func percent(_ ratio: Double) -> String {
        let value = ratio * 100
        return value >= 10 ? String(format: "%.0f%%", value) : String(format: "%.2f%%", value)
    }

    func json() throws -> Data {
        struct Document: Codable {
            var date: String
            var machine: Machine
            var parameters: LogBenchmarks.Parameters
            var runs: Int
            var results: [Row]
        }
        struct Machine: Codable {
            var processors: Int
            var memoryBytes: UInt64
            var system: String
        }
        let document = Document(
            date: ISO8601DateFormatter().string(from: Date()),
            machine: Machine(
                processors: ProcessInfo.processInfo.activeProcessorCount,
                memoryBytes: ProcessInfo.processInfo.physicalMemory,
                system: ProcessInfo.processInfo.operatingSystemVersionString
            ),
            parameters: parameters,
            runs: runs,
            results: rows
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(document)
    }

    static func format(_ value: Double) -> String {
        switch value {
        case 1e9...: String(format: "%.2f G", value / 1e9)
        case 1e6...: String(format: "%.2f M", value / 1e6)
        case 1e3...: String(format: "%.1f k", value / 1e3)
        case 10...: String(format: "%.0f", value)
        case 0.01...: String(format: "%.2f", value)
        default: String(format: "%.4f", value)
        }
    }
}
