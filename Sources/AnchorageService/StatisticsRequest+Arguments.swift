public import Foundation

extension StatisticsRequest {
    /// The values of `anchorage stats`' options, as typed.
    ///
    /// ```swift
    /// let arguments = StatisticsRequest.Arguments(type: "stepCount", from: "2024-06-01", to: "2024-06-07")
    /// ```
    public struct Arguments: Sendable, Equatable {
        public var type: String
        public var options: String
        public var interval: String
        public var from: String
        public var to: String
        public var anchor: String?
        public var tz: String?
        public var unit: String?
        /// `--by-source`.
        public var bySource: Bool
        /// `--source`, repeatable: one bundle identifier each.
        public var sources: [String]

        /// The options given, the others at the command's defaults.
        public init(
            type: String,
            options: String = "sum",
            interval: String = "1d",
            from: String,
            to: String,
            anchor: String? = nil,
            tz: String? = nil,
            unit: String? = nil,
            bySource: Bool = false,
            sources: [String] = []
        ) {
            self.type = type
            self.options = options
            self.interval = interval
            self.from = from
            self.to = to
            self.anchor = anchor
            self.tz = tz
            self.unit = unit
            self.bySource = bySource
            self.sources = sources
        }
    }

    /// The request of `anchorage stats`' options; without `--tz`, the zone
    /// is `defaultTimeZone` (this machine's).
    ///
    /// ```swift
    /// let request = try StatisticsRequest(arguments: .init(type: "stepCount", from: "2024-06-01", to: "2024-06-07"))
    /// ```
    public init(arguments: Arguments, defaultTimeZone: TimeZone = .current) throws(StatisticsRequestError) {
        let text = Text(
            type: arguments.type,
            options: arguments.options,
            interval: arguments.interval,
            from: arguments.from,
            to: arguments.to,
            anchor: arguments.anchor,
            tz: arguments.tz,
            unit: arguments.unit,
            separateBySource: arguments.bySource,
            sources: arguments.sources
        )
        try self.init(text, spelling: .commandLine, defaultTimeZone: defaultTimeZone)
    }
}
