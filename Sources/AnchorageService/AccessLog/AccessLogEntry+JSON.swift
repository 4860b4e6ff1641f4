public import Foundation

extension AccessLogEntry {
    /// The entry as one JSON object, keys sorted, dates in ISO 8601: the
    /// form `GET /v1/access-log` and `anchorage access-log` print.
    ///
    /// ```swift
    /// print(String(decoding: entry.json(), as: UTF8.self))
    /// ```
    public func json() throws -> Data {
        try Self.encoder.encode(Wire(entry: self))
    }

    /// A page of entries as `{"entries":[…],"next":…}`.
    public static func page(_ entries: [AccessLogEntry], next: String?) throws -> Data {
        try encoder.encode(Page(entries: entries.map(Wire.init(entry:)), next: next))
    }

    private struct Page: Encodable {
        var entries: [Wire]
        var next: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(entries, forKey: .entries)
            try container.encode(next, forKey: .next)
        }

        enum CodingKeys: String, CodingKey { case entries, next }
    }

    private struct Wire: Encodable {
        var time: Date
        var cursor: String
        var principal: String
        var action: String
        var types: [String]
        var from: Date?
        var to: Date?
        var since: String?
        var until: String?
        var count: Int
        var phase: String?

        init(entry: AccessLogEntry) {
            time = entry.time
            cursor = entry.cursor
            principal = entry.record.principal
            action = entry.record.action
            types = entry.record.types
            from = entry.record.from
            to = entry.record.to
            since = entry.record.since
            until = entry.record.until
            count = entry.record.count
            phase = entry.record.phase
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
