import Anchorage
import Foundation

/// One bucket of `anchorage stats`, its values in the display unit.
struct StatsRow {
    var start: Date
    var end: Date
    var columns: [(name: String, value: Double?)]

    init(_ statistics: HKStatistics, options: HKStatisticsOptions, unit: HKUnit) {
        start = statistics.startDate
        end = statistics.endDate
        func value(_ quantity: HKQuantity?) -> Double? { quantity.flatMap { try? $0.checkedDoubleValue(for: unit) } }
        columns = []
        if options.contains(.cumulativeSum) { columns.append(("sum", value(statistics.sumQuantity()))) }
        if options.contains(.discreteAverage) {
            columns.append(("average", value(statistics.averageQuantity())))
        }
        if options.contains(.discreteMin) { columns.append(("min", value(statistics.minimumQuantity()))) }
        if options.contains(.discreteMax) { columns.append(("max", value(statistics.maximumQuantity()))) }
        if options.contains(.mostRecent) {
            columns.append(("mostRecent", value(statistics.mostRecentQuantity())))
        }
        if options.contains(.duration) {
            columns.append(("duration (s)", statistics.duration()?.doubleValue(for: .second())))
        }
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
        format: StatsCommand.Format,
        unit: String,
        zone: TimeZone,
        to output: CLIOutput
    ) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let names = rows.first?.columns.map(\.name) ?? []
        switch format {
        case .table:
            let header = ["start (\(zone.identifier))"] + names.map { "\($0) [\(unit)]" }
            let lines = rows.map { row in [formatter.string(from: row.start)] + row.columns.map { number($0.value) } }
            for line in TextTable.lines([header] + lines) { output.line(line) }
        case .csv:
            output.line((["start", "end"] + names).joined(separator: ","))
            let iso = ISO8601DateFormatter()
            for row in rows {
                output.line(
                    ([iso.string(from: row.start), iso.string(from: row.end)] + row.columns.map { exact($0.value) })
                        .joined(separator: ",")
                )
            }
        case .json:
            let iso = ISO8601DateFormatter()
            let objects = rows.map { row -> String in
                let values = row.columns.map { "\"\($0.name)\": \($0.value.map { exact($0) } ?? "null")" }
                return
                    "{\"start\": \"\(iso.string(from: row.start))\", \"end\": \"\(iso.string(from: row.end))\", \"unit\": \"\(unit)\""
                    + (values.isEmpty ? "" : ", " + values.joined(separator: ", ")) + "}"
            }
            output.line("[" + objects.joined(separator: ",\n ") + "]")
        }
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
