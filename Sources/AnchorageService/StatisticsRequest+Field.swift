extension StatisticsRequest {
    /// The fields of a request, each spelled its own way by each front end.
    ///
    /// ```swift
    /// StatisticsRequest.Spelling.commandLine.name(.separateBySource)   // "--by-source"
    /// ```
    public enum Field: String, Sendable, CaseIterable {
        case type, options, interval, from, to, anchor, tz, unit, separateBySource, sources
    }

    /// How a front end names fields in its messages: the HTTP query's
    /// parameters or the command line's options.
    ///
    /// ```swift
    /// StatisticsRequest.Spelling.query.quoted(.from)   // "'from'"
    /// ```
    public enum Spelling: Sendable {
        /// `type`, `from`, `separateBySource`… as in `from=2024-06-01`.
        case query
        /// `--type`, `--from`, `--by-source`… as in `--from 2024-06-01`.
        case commandLine

        /// The field's name as typed.
        public func name(_ field: Field) -> String {
            switch self {
            case .query: field.rawValue
            case .commandLine:
                switch field {
                case .separateBySource: "--by-source"
                case .sources: "--source"
                default: "--" + field.rawValue
                }
            }
        }

        /// The field's name inside a sentence: quoted over HTTP.
        public func quoted(_ field: Field) -> String {
            self == .query ? "'\(name(field))'" : name(field)
        }

        /// The field given `value`, as one would type it.
        public func example(_ field: Field, _ value: String) -> String {
            self == .query ? "\(name(field))=\(value)" : "\(name(field)) \(value)"
        }

        /// What joins two examples: `&` in a query, a space on a command line.
        var joiner: String { self == .query ? "&" : " " }
    }
}
