import Anchorage
import Foundation

extension StatisticsTable {
    /// The lines of a row in a table or CSV: the merged values, then, when
    /// by source, each source's (named `all` and by bundle identifier).
    private func lines(of row: StatisticsRow) -> [(source: String?, values: StatisticsValues)] {
        guard let sources = row.sources else { return [(bySource ? "all" : nil, row.values)] }
        return [("all", row.values)] + sources.map { ($0.bundleIdentifier, $0.values) }
    }

    /// A column's heading in a text table: its name and unit; durations are
    /// in seconds whatever the table's unit.
    func heading(_ column: StatisticsColumn) -> String {
        column == .duration ? "duration [s]" : "\(column.name) [\(unit.unitString)]"
    }

    /// A column's name in JSON and CSV (`duration (s)` for durations).
    static func fieldName(_ column: StatisticsColumn) -> String {
        column == .duration ? "duration (s)" : column.name
    }

    /// Start times in the table's zone, as `2024-06-13 08:00`.
    func startFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }

    /// `anchorage stats`' table: `start (<zone>)`, `source` when by source,
    /// then a column per statistic headed with its unit; values rounded.
    ///
    /// ```swift
    /// for line in table.textTable() { print(line) }   // start (Europe/Paris)  sum [count]
    /// ```
    public func textTable() -> [String] {
        let formatter = startFormatter()
        let header = ["start (\(timeZone.identifier))"] + (bySource ? ["source"] : []) + columns.map(heading)
        var cells = [header]
        forEachRow { row in
            for line in lines(of: row) {
                cells.append(
                    [formatter.string(from: row.startDate)] + (line.source.map { [$0] } ?? [])
                        + columns.map { NumberText.readable(line.values[$0]) }
                )
            }
        }
        return TextTable.lines(cells)
    }

    /// `anchorage stats --format csv`: `start,end[,source],<statistic>…`,
    /// ISO 8601 dates, exact numbers.
    ///
    /// ```swift
    /// table.csv()   // ["start,end,sum", "2024-06-12T22:00:00Z,2024-06-13T22:00:00Z,4901"]
    /// ```
    public func csv() -> [String] {
        let iso = ISO8601DateFormatter()
        var lines = [
            (["start", "end"] + (bySource ? ["source"] : []) + columns.map(Self.fieldName)).joined(separator: ",")
        ]
        forEachRow { row in
            for line in self.lines(of: row) {
                lines.append(
                    ([iso.string(from: row.startDate), iso.string(from: row.endDate)] + (line.source.map { [$0] } ?? [])
                        + columns.map { NumberText.exact(line.values[$0]) })
                        .joined(separator: ",")
                )
            }
        }
        return lines
    }

    /// `anchorage stats --format json`: one array, an object per bucket,
    /// `{"start": …, "end": …, "unit": …, "<statistic>": <number or null>…}`,
    /// with `"sources": [{"bundleIdentifier": …, …}]` when by source.
    ///
    /// ```swift
    /// print(table.commandLineJSON())   // [{"start": "2024-06-12T22:00:00Z", …, "sum": 4901}]
    /// ```
    public func commandLineJSON() -> String {
        let iso = ISO8601DateFormatter()
        func fields(_ values: StatisticsValues) -> [String] {
            columns.map { "\"\(Self.fieldName($0))\": \(values[$0].map { NumberText.exact($0) } ?? "null")" }
        }
        var objects: [String] = []
        forEachRow { row in
            var members =
                [
                    "\"start\": \"\(iso.string(from: row.startDate))\"",
                    "\"end\": \"\(iso.string(from: row.endDate))\"",
                    "\"unit\": \"\(unit.unitString)\"",
                ] + fields(row.values)
            if let sources = row.sources {
                let listed = sources.map { source in
                    "{"
                        + (["\"bundleIdentifier\": \(Self.jsonString(source.bundleIdentifier))"] + fields(source.values))
                        .joined(separator: ", ") + "}"
                }
                members.append("\"sources\": [" + listed.joined(separator: ", ") + "]")
            }
            objects.append("{" + members.joined(separator: ", ") + "}")
        }
        return "[" + objects.joined(separator: ",\n ") + "]"
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
