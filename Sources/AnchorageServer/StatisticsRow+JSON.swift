import Foundation

extension StatisticsRoutes.Row {
    /// Appends the row as JSON with sorted keys and absent values left out:
    /// the bytes `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`)
    /// writes, without its generic machinery, whose shared runtime caches a
    /// wide answer's 100,000 rows would keep busy for every other request.
    /// Dates are ISO 8601 text, which needs no escaping.
    func appendJSON(to bytes: inout [UInt8]) {
        var first = true
        func key(_ name: String) {
            bytes.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            first = false
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: "\":".utf8)
        }
        func number(_ name: String, _ value: Double?) {
            guard let value else { return }
            key(name)
            bytes.append(contentsOf: Self.jsonNumber(value).utf8)
        }
        func text(_ name: String, _ value: String?) {
            guard let value else { return }
            key(name)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\""))
        }
        number("average", average)
        number("duration", duration)
        text("endDate", endDate)
        number("max", max)
        number("min", min)
        number("mostRecent", mostRecent)
        text("mostRecentStartDate", mostRecentStartDate)
        text("startDate", startDate)
        number("sum", sum)
        bytes.append(UInt8(ascii: "}"))
    }

    /// A double as `JSONEncoder` writes it: its shortest round-tripping
    /// description, without a trailing `.0`.
    static func jsonNumber(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
