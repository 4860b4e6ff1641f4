import Foundation

extension StatisticsRequest {
    /// The request of an HTTP query's parameters (`GET /v1/statistics`),
    /// already percent-decoded: a repeated parameter's last value counts,
    /// except `sources`, whose comma-separated values all do. The zone is
    /// UTC unless `tz` says otherwise.
    ///
    /// ```swift
    /// let request = try StatisticsRequest(query: [("type", "stepCount"), ("from", "2024-06-01"), ("to", "2024-06-07")])
    /// ```
    public init(query parameters: [(String, String)]) throws(StatisticsRequestError) {
        var last: [String: String] = [:]
        var sources: [String] = []
        for (name, value) in parameters {
            last[name] = value
            if name == Field.sources.rawValue {
                sources += value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }
            }
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
