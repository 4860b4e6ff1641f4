import Anchorage
import Foundation

extension StatisticsRoutes {
    /// The keys of a bucket's JSON and of its sources'.
    enum JSONKey: String, CodingKey {
        case startDate, endDate, bundleIdentifier, name, sum, average, min, max, mostRecent, duration
        case mostRecentStartDate, sources
    }
}

extension StatisticsRoutes.Values {
    /// Writes the values present, dates as ISO 8601 text.
    func encode(into container: inout KeyedEncodingContainer<StatisticsRoutes.JSONKey>) throws {
        try container.encodeIfPresent(sum, forKey: .sum)
        try container.encodeIfPresent(average, forKey: .average)
        try container.encodeIfPresent(min, forKey: .min)
        try container.encodeIfPresent(max, forKey: .max)
        try container.encodeIfPresent(mostRecent, forKey: .mostRecent)
        try container.encodeIfPresent(duration, forKey: .duration)
        try container.encodeIfPresent(mostRecentStartDate.map(ISO8601.format), forKey: .mostRecentStartDate)
    }
}

extension StatisticsRoutes.Row: Encodable {
    /// Dates as ISO 8601 text in UTC, by arithmetic: Foundation's formatter
    /// goes through shared calendar caches, which the 200,000 dates of a
    /// wide answer would keep busy for every other request.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StatisticsRoutes.JSONKey.self)
        try container.encode(ISO8601.format(startDate), forKey: .startDate)
        try container.encode(ISO8601.format(endDate), forKey: .endDate)
        try values.encode(into: &container)
        try container.encodeIfPresent(sources, forKey: .sources)
    }

    /// Appends the row as JSON with sorted keys and absent values left out:
    /// the bytes `JSONEncoder` (`.sortedKeys`, `.withoutEscapingSlashes`)
    /// writes, without its generic machinery, whose shared runtime caches a
    /// wide answer's 100,000 rows would keep busy for every other request.
    /// Dates are ISO 8601 text, which needs no escaping, written without
    /// making strings.
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

extension StatisticsRoutes.SourceValues: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: StatisticsRoutes.JSONKey.self)
        try container.encode(bundleIdentifier, forKey: .bundleIdentifier)
        try container.encode(name, forKey: .name)
        try values.encode(into: &container)
    }

    /// The bytes `JSONEncoder` writes for it (sorted keys): names are
    /// arbitrary text, so they go through the encoder; values by hand.
    func appendJSON(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: (try? JSONBodies.encoder().encode(self)) ?? Data("{}".utf8))
    }
}
