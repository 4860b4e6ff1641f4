import Foundation

/// Words for a JSON decoding failure: where, and what was expected. The
/// offending value itself is never repeated.
public enum DecodingErrorWords {
    /// Where the JSON went wrong, in words.
    public static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the body" : String(keys.drop { $0 == "." })
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not valid JSON" }
            return "\(path(context)): \(context.debugDescription)"
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

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Int.Type, is Float.Type: "a number"
        case is Bool.Type: "true or false"
        default: type is any Collection.Type ? "an array" : "an object"
        }
    }
}
