import Anchorage
import Foundation

/// One bucket of `anchorage stats`, its values in the display unit.
struct StatsRow {
    var start: Date
    var end: Date
    var columns: [(name: String, value: Double?)]
    /// With `separateBySource`: each source's columns (ST-9), by bundle
    /// identifier.
    var sources: [(bundleIdentifier: String, columns: [(name: String, value: Double?)])]?

    init(_ statistics: HKStatistics, options: HKStatisticsOptions, unit: HKUnit) {
        start = statistics.startDate
        end = statistics.endDate
        columns = Self.columns(statistics, of: nil, options: options, unit: unit)
        if options.contains(.separateBySource) {
            sources = (statistics.sources ?? []).sorted { $0.bundleIdentifier < $1.bundleIdentifier }.map {
                ($0.bundleIdentifier, Self.columns(statistics, of: $0, options: options, unit: unit))
            }
        }
    }

    /// The merged values (`source` nil) or one source's.
    private static func columns(
        _ statistics: HKStatistics,
        of source: HKSource?,
        options: HKStatisticsOptions,
        unit: HKUnit
    ) -> [(name: String, value: Double?)] {
        func value(_ quantity: HKQuantity?) -> Double? { quantity.flatMap { try? $0.checkedDoubleValue(for: unit) } }
        var columns: [(name: String, value: Double?)] = []
        if options.contains(.cumulativeSum) {
            columns.append(("sum", value(source.map { statistics.sumQuantity(for: $0) } ?? statistics.sumQuantity())))
        }
        if options.contains(.discreteAverage) {
            columns.append(
                ("average", value(source.map { statistics.averageQuantity(for: $0) } ?? statistics.averageQuantity()))
            )
        }
        if options.contains(.discreteMin) {
            columns.append(
                ("min", value(source.map { statistics.minimumQuantity(for: $0) } ?? statistics.minimumQuantity()))
            )
        }
        if options.contains(.discreteMax) {
            columns.append(
                ("max", value(source.map { statistics.maximumQuantity(for: $0) } ?? statistics.maximumQuantity()))
            )
        }
        if options.contains(.mostRecent) {
            columns.append(
                (
                    "mostRecent",
                    value(source.map { statistics.mostRecentQuantity(for: $0) } ?? statistics.mostRecentQuantity())
                )
            )
        }
        if options.contains(.duration) {
            let duration = source.map { statistics.duration(for: $0) } ?? statistics.duration()
            columns.append(("duration (s)", duration?.doubleValue(for: .second())))
        }
        return columns
    }

    /// The lines of a table or CSV: the merged values, then each source's
    /// (with the source's bundle identifier, or `all`, in a column of its
    /// own when `bySource`).
    var lines: [(source: String?, columns: [(name: String, value: Double?)])] {
        guard let sources else { return [(nil, columns)] }
        return [("all", columns)] + sources.map { ($0.bundleIdentifier, $0.columns) }
    }

    /// A value for people to read: whole numbers as such, others to two
    /// decimals (tables and messages).
    static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        guard value.isFinite else { return "\(value)" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.2f", value)
    }

    /// A value for programs to read (JSON and CSV): whole numbers as such,
    /// others in the shortest form that reads back as the same double, as
    /// the HTTP API writes them; `null` text for a value that is not finite.
    static func exact(_ value: Double?) -> String {
        guard let value else { return "" }
        guard value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    /// Writes the rows as a table, JSON or CSV.
    static func write(
        _ rows: [StatsRow],
        format: TableFormat,
        unit: String,
        zone: TimeZone,
        to output: CLIOutput
    ) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let names = rows.first?.columns.map(\.name) ?? []
        let bySource = rows.first?.sources != nil
        switch format {
        case .table:
            let header =
                ["start (\(zone.identifier))"] + (bySource ? ["source"] : []) + names.map { "\($0) [\(unit)]" }
            let lines = rows.flatMap { row in
                row.lines.map { line in
                    [formatter.string(from: row.start)] + (line.source.map { [$0] } ?? [])
                        + line.columns.map { number($0.value) }
                }
            }
            for line in TextTable.lines([header] + lines) { output.line(line) }
        case .csv:
            output.line((["start", "end"] + (bySource ? ["source"] : []) + names).joined(separator: ","))
            let iso = ISO8601DateFormatter()
            for row in rows {
                for line in row.lines {
                    output.line(
                        ([iso.string(from: row.start), iso.string(from: row.end)] + (line.source.map { [$0] } ?? [])
                            + line.columns.map { exact($0.value) })
                            .joined(separator: ",")
                    )
                }
            }
        case .json:
            let iso = ISO8601DateFormatter()
            func values(_ columns: [(name: String, value: Double?)]) -> [String] {
                columns.map { "\"\($0.name)\": \($0.value.map { exact($0) } ?? "null")" }
            }
            let objects = rows.map { row -> String in
                var fields =
                    [
                        "\"start\": \"\(iso.string(from: row.start))\"", "\"end\": \"\(iso.string(from: row.end))\"",
                        "\"unit\": \"\(unit)\"",
                    ]
                    + values(row.columns)
                if let sources = row.sources {
                    let listed = sources.map { source in
                        "{"
                            + (["\"bundleIdentifier\": \(jsonString(source.bundleIdentifier))"] + values(source.columns))
                            .joined(separator: ", ") + "}"
                    }
                    fields.append("\"sources\": [" + listed.joined(separator: ", ") + "]")
                }
                return "{" + fields.joined(separator: ", ") + "}"
            }
            output.line("[" + objects.joined(separator: ",\n ") + "]")
        }
    }
}

extension StatsRow {
    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension StatsRow {
    /// Draws the rows' first column as a horizontal bar chart, scaled to
    /// the largest value, with eighth-of-a-cell precision.
    static func chart(_ rows: [StatsRow], unit: String, zone: TimeZone, width: Int = 48, to output: CLIOutput) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        guard let name = rows.first?.columns.first?.name else { return }
        let values = rows.map { $0.columns.first?.value }
        let largest = values.compactMap { $0 }.filter { $0 > 0 }.max() ?? 0
        output.line("\(name) [\(unit)], \(zone.identifier)")
        let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        for (row, value) in zip(rows, values) {
            var bar = ""
            if let value, value > 0, largest > 0 {
                let cells = Int((value / largest * Double(width * 8)).rounded())
                bar = String(repeating: "█", count: cells / 8) + eighths[cells % 8]
            }
            let label = formatter.string(from: row.start)
            let number = number(value)
            let line = label + "  " + bar.padding(toLength: width + 1, withPad: " ", startingAt: 0) + " " + number
            output.line(String(line.reversed().drop { $0 == " " }.reversed()))
        }
    }
}
