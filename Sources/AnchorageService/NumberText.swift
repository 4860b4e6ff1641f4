import Foundation

/// Numbers as the command line writes them: rounded for people, exact for
/// programs.
///
/// ```swift
/// NumberText.readable(33.333333333333336)   // "33.33"
/// NumberText.exact(33.333333333333336)      // "33.333333333333336"
/// ```
public enum NumberText {
    /// A value for people to read: whole numbers as such, others to two
    /// decimals (tables and messages); empty for none.
    public static func readable(_ value: Double?) -> String {
        guard let value else { return "" }
        guard value.isFinite else { return "\(value)" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.2f", value)
    }

    /// A value for programs to read (JSON and CSV): whole numbers as such,
    /// others in the shortest form that reads back as the same double, as
    /// the HTTP API writes them; `null` text for a value that is not finite;
    /// empty for none.
    public static func exact(_ value: Double?) -> String {
        guard let value else { return "" }
        guard value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
