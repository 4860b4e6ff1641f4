import Foundation

extension StatisticsRequest {
    /// The request of an HTTP query's parameters (`GET /v1/statistics`),
    /// already percent-decoded. A parameter given twice must be given the
    /// same value, except `sources`, whose comma-separated values all count;
    /// `options`, `interval` and `separateBySource` are never empty. The zone
    /// is UTC unless `tz` says otherwise.
    ///
    /// ```swift
    /// let request = try StatisticsRequest(query: [("type", "stepCount"), ("from", "2024-06-01"), ("to", "2024-06-07")])
    /// ```
    public init(query parameters: [(String, String)]) throws(StatisticsRequestError) {
        var last: [String: String] = [:]
        var sources: [String] = []
        for (name, value) in parameters {
            // One value each: which of two different ones counts would be a guess.
            if let field = Field(rawValue: name), field != .sources, let earlier = last[name], earlier != value {
                throw StatisticsRequestError(
                    .invalidArgument,
                    field,
                    "\(Spelling.query.quoted(field)) is given more than once, with different values; give it once"
                )
            }
            last[name] = value
            if name == Field.sources.rawValue {
                sources += value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }
            }
        }
        // Empty is no choice, not the default.
        for (field, choices) in [
            (Field.options, "sum, average, min, max, mostRecent or duration, comma-separated"),
            (.interval, "a length such as 15m, 1h, 1d, 1w, 1mo or 1y"),
            (.separateBySource, "true or false"),
        ] where last[field.rawValue] == "" {
            throw StatisticsRequestError(
                .invalidArgument,
                field,
                "\(Spelling.query.quoted(field)) is empty; give \(choices), or leave it out"
            )
        }
        var separate = false
        if let text = last[Field.separateBySource.rawValue], !text.isEmpty {
            guard text == "true" || text == "false" else {
                throw StatisticsRequestError(.invalidArgument, .separateBySource, "separateBySource is true or false")
            }
            separate = text == "true"
        }
        let text = Text(
            type: last["type"],
            options: last["options"],
            interval: last["interval"],
            from: last["from"],
            to: last["to"],
            anchor: last["anchor"],
            tz: last["tz"],
            unit: last["unit"],
            separateBySource: separate,
            sources: sources
        )
        try self.init(text, spelling: .query, defaultTimeZone: TimeZone(identifier: "UTC")!, defaultTimeZoneText: "UTC")
    }

    /// The request of a query string (`type=stepCount&from=2024-06-01…`),
    /// percent-decoded as the node decodes it.
    ///
    /// ```swift
    /// let request = try StatisticsRequest(queryString: "type=heartRate&options=average&from=2024-06-01&to=2024-06-01")
    /// ```
    public init(queryString: String) throws(StatisticsRequestError) {
        let pairs = queryString.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String { String(text).removingPercentEncoding ?? String(text) }
            return (decoded(parts[0]), parts.count > 1 ? decoded(parts[1]) : "")
        }
        try self.init(query: pairs)
    }
}
