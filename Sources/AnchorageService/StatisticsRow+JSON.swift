import Anchorage
import Foundation

/// The keys of a bucket's JSON and of its sources'.
enum StatisticsJSONKey: String, CodingKey {
    case startDate, endDate, bundleIdentifier, name, sum, average, min, max, mostRecent, duration
    case mostRecentStartDate, sources
}

extension StatisticsValues {
    /// Writes the values present, dates as ISO 8601 text.
    func encode(into container: inout KeyedEncodingContainer<StatisticsJSONKey>) throws {
        try container.encodeIfPresent(sum, forKey: .sum)
        try container.encodeIfPresent(average, forKey: .average)
        try container.encodeIfPresent(min, forKey: .min)
        try container.encodeIfPresent(max, forKey: .max)
        try container.encodeIfPresent(mostRecent, forKey: .mostRecent)
        try container.encodeIfPresent(duration, forKey: .duration)
        try container.encodeIfPresent(mostRecentStartDate.map(ISO8601.format), forKey: .mostRecentStartDate)
    }
}

extension StatisticsRow: Encodable {
    /// Dates as ISO 8601 text in UTC, by arithmetic: Foundation's formatter
    /// goes through shared calendar caches, which the 200,000 dates of a
    /// wide answer would keep busy for every other request.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StatisticsJSONKey.self)
        try container.encode(ISO8601.format(startDate), forKey: .startDate)
        try container.encode(ISO8601.format(endDate), forKey: .endDate)
        try values.encode(into: &container)
        try container.encodeIfPresent(sources, forKey: .sources)
    }

    /// Appends the row as JSON with sorted keys and absent values left out:
    /// the bytes `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`)
    /// writes, without its generic machinery, whose shared runtime caches a
    /// wide answer's 100,000 rows would keep busy for every other request.
    ///
    /// ```swift
    /// var bytes: [UInt8] = []
    /// row.appendJSON(to: &bytes)   // {"endDate":"…","startDate":"…","sum":120}
    /// ```
    public func appendJSON(to bytes: inout [UInt8]) {
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
        func date(_ name: String, _ value: Date?) {
            guard let value else { return }
            key(name)
            bytes.append(UInt8(ascii: "\""))
            ISO8601.append(value, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        number("average", values.average)
        number("duration", values.duration)
        date("endDate", endDate)
        number("max", values.max)
        number("min", values.min)
        number("mostRecent", values.mostRecent)
        date("mostRecentStartDate", values.mostRecentStartDate)
        if let sources {
            key("sources")
            bytes.append(UInt8(ascii: "["))
            for (index, source) in sources.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                source.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        date("startDate", startDate)
        number("sum", values.sum)
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

extension StatisticsSourceValues: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StatisticsJSONKey.self)
        try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encode(name, forKey: .name)
        try values.encode(into: &container)
    }

    /// The bytes `JSONEncoder` writes for it (sorted keys): names are
    /// arbitrary text, so they go through the encoder; values by hand.
    func appendJSON(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: (try? CanonicalJSON.encoder().encode(self)) ?? Data("{}".utf8))
    }
}
