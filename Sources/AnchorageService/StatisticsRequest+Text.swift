import Anchorage
public import Foundation

extension StatisticsRequest {
    /// A request's fields as text, as either front end received them; `nil`
    /// or empty for a field not given.
    ///
    /// ```swift
    /// let text = StatisticsRequest.Text(type: "stepCount", from: "2024-06-01", to: "2024-06-07")
    /// let request = try StatisticsRequest(text, spelling: .query)
    /// ```
    public struct Text: Sendable, Equatable {
        public var type, options, interval, from, to, anchor, tz, unit: String?
        /// Whether each source's own values are asked for too.
        public var separateBySource: Bool
        /// Bundle identifiers, one each.
        public var sources: [String]

        /// The fields given; the others absent.
        public init(
            type: String? = nil,
            options: String? = nil,
            interval: String? = nil,
            from: String? = nil,
            to: String? = nil,
            anchor: String? = nil,
            tz: String? = nil,
            unit: String? = nil,
            separateBySource: Bool = false,
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
            self.separateBySource = separateBySource
            self.sources = sources
        }

        /// The value of a one-value field, `nil` when absent or empty.
        func value(_ field: Field) -> String? {
            let value: String? =
                switch field {
                case .type: type
                case .options: options
                case .interval: interval
                case .from: from
                case .to: to
                case .anchor: anchor
                case .tz: tz
                case .unit: unit
                case .separateBySource, .sources: nil
                }
            return value.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// The request `text` describes, its mistakes named in `spelling`; a
    /// zone not given is `defaultTimeZone`, echoed as `defaultTimeZoneText`.
    ///
    /// ```swift
    /// let request = try StatisticsRequest(text, spelling: .commandLine, defaultTimeZone: .current)
    /// ```
    public init(
        _ text: Text,
        spelling: Spelling,
        defaultTimeZone: TimeZone = TimeZone(identifier: "UTC")!,
        defaultTimeZoneText: String? = nil
    ) throws(StatisticsRequestError) {
        let reader = FieldReader(text: text, spelling: spelling)
        try reader.checkLengths()
        type = try reader.quantityType()
        options = try reader.suited(reader.parse(.options, TextForms.statisticsOptions), for: type)
        if text.separateBySource { options.insert(.separateBySource) }
        sources = try reader.sources()
        intervalText = reader.value(.interval) ?? "1d"
        interval = try reader.parse(.interval, TextForms.interval) ?? DateComponents(day: 1)
        timeZone = try reader.parse(.tz, TextForms.timeZone) ?? defaultTimeZone
        timeZoneText = reader.value(.tz) ?? defaultTimeZoneText ?? defaultTimeZone.identifier
        interval.timeZone = timeZone
        (start, end) = try reader.range(in: timeZone)
        anchor = try reader.date(.anchor, in: timeZone) ?? start
        unit = try reader.unit(for: type)
    }
}
