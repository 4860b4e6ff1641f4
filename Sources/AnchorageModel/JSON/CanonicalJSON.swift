import Foundation

/// The one JSON encoding every front end writes: keys sorted, slashes left
/// as they are, so equal values give equal bytes (HTTP answers, CLI output,
/// webhook bodies and feed lines alike).
///
/// ```swift
/// let bytes = try CanonicalJSON.encoder().encode(summary)
/// ```
public enum CanonicalJSON {
    /// A new `JSONEncoder` with the canonical settings.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
