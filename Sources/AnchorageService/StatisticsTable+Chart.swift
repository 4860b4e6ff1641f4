import Foundation

extension StatisticsTable {
    /// The first statistic as a horizontal bar chart, scaled to the largest
    /// value, with eighth-of-a-cell precision; a heading line, then one line
    /// per bucket.
    ///
    /// ```swift
    /// for line in table.chart(width: 40) { print(line) }   // 2024-06-13 08:00  ███▎  701
    /// ```
    public func chart(width: Int = 48) -> [String] {
        guard let column = columns.first else { return [] }
        let formatter = startFormatter()
        var points: [(start: Date, value: Double?)] = []
        forEachRow { points.append(($0.startDate, $0.values[column])) }
        let largest = points.compactMap(\.value).filter { $0 > 0 }.max() ?? 0
        var lines = ["\(heading(column)), \(timeZone.identifier)"]
        let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        for (start, value) in points {
            var bar = ""
            if let value, value > 0, largest > 0 {
                let cells = Int((value / largest * Double(width * 8)).rounded())
                bar = String(repeating: "█", count: cells / 8) + eighths[cells % 8]
            }
            let line =
                formatter.string(from: start) + "  " + bar.padding(toLength: width + 1, withPad: " ", startingAt: 0)
                + " " + NumberText.readable(value)
            lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        return lines
    }
}
