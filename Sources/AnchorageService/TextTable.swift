import Foundation

/// Plain-text tables as the commands print them: columns two spaces apart,
/// the first left-aligned and the others (numbers) right-aligned, no
/// trailing spaces.
///
/// ```swift
/// TextTable.lines([["day", "steps"], ["2024-06-13", "4901"]])   // ["day         steps", "2024-06-13   4901"]
/// ```
public enum TextTable {
    /// The lines of `rows` (the header first, if any).
    public static func lines(_ rows: [[String]]) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            let text = zip(row, widths).enumerated().map { index, cell in
                index == 0
                    ? cell.0.padding(toLength: cell.1, withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: cell.1 - cell.0.count) + cell.0
            }.joined(separator: "  ")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// The lines of `rows` with every column left-aligned (ids, dates,
    /// anchors), two spaces apart, no trailing spaces.
    ///
    /// ```swift
    /// TextTable.leftAligned([["seq", "epoch"], ["12", "3"]])   // ["seq  epoch", "12   3"]
    /// ```
    public static func leftAligned(_ rows: [[String]]) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            let text = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
            return String(text.joined(separator: "  ").reversed().drop { $0 == " " }.reversed())
        }
    }
}
