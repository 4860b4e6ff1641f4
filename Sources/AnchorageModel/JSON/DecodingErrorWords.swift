import Foundation

/// Words for a JSON decoding failure: where, and what was expected. The
/// offending value itself is never repeated.
public enum DecodingErrorWords {
    /// Where the JSON went wrong, in words.
    public static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String { Self.path(context.codingPath) }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not valid JSON" }
            return "\(path(context)): \(words(context.debugDescription))"
        case .keyNotFound(let key, let context):
            let at = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "missing field '\(key.stringValue)'\(at)"
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context)): expected \(typeName(type)), found null"
        @unknown default:
            return "the body is not valid JSON"
        }
    }

    /// Where a value is, as a person reads it: `samples[0].quantity.value`
    /// (`the body` for the whole of it).
    public static func path(_ codingPath: [any CodingKey]) -> String {
        // Keys are the sender's text: a long one is cut, not repeated whole.
        let keys = codingPath.map { key in
            key.intValue.map { "[\($0)]" } ?? "."
                + (key.stringValue.count > 40 ? key.stringValue.prefix(40) + "…" : key.stringValue)
        }.joined()
        return keys.isEmpty ? "the body" : String(keys.drop { $0 == "." })
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Int.Type, is Int64.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        // A keyed container is asked for as a dictionary: an object in JSON.
        case is [String: Any].Type, is [String: any Sendable].Type: "an object"
        default: type is any Collection.Type ? "an array" : "an object"
        }
    }

    /// Foundation's own descriptions, which name Swift types, in words.
    private static func words(_ description: String) -> String {
        if description.hasPrefix("Attempted to decode UUID") {
            return "not a uuid; write one as 32 hexadecimal digits in groups of 8-4-4-4-12, "
                + "like 7C55AA60-944C-4B04-A52D-F02F2DF6D26E"
        }
        if description.hasPrefix("Cannot initialize ") {
            return "not one of the values this field takes (docs/json-format.md lists them)"
        }
        if description.hasPrefix("Could not convert key") {
            return "not a key this object takes"
        }
        if description.hasPrefix("Expected date string") || description.contains("ISO8601") {
            return "not a date; write one in ISO 8601, like 2026-11-22T10:00:00Z"
        }
        return description
    }
}
