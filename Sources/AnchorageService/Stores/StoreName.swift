/// The id of one store in a multi-store node (`/v1/stores/{id}/…`; not the
/// log's ``AnchorageLog/StoreID``, which is a uuid), checked before it touches a
/// path: 1 to 64 characters of lowercase ASCII letters, digits, `-` and
/// `_`, beginning with a letter or a digit. So no id is `.`, `..`, holds a
/// slash, a percent sign, a space or anything outside ASCII, and the
/// registry's own directory (`.registry`) can never be a store's.
///
/// ```swift
/// let id = try StoreName("alice-2024")   // fine
/// _ = try StoreName("../etc")            // ServiceError(.invalidStoreID)
/// ```
public struct StoreName: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The id's text, safe to use as a directory name.
    public let rawValue: String

    /// The longest id, in characters.
    public static let maximumLength = 64

    /// Checks `text` and takes it as a store id.
    ///
    /// - Throws: ``ServiceError`` `.invalidStoreID`, quoting at most the
    ///   first 64 characters of what was given.
    public init(_ text: String) throws(ServiceError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumLength,
            Self.isLeading(bytes[0]), bytes.allSatisfy(Self.isAllowed)
        else {
            let shown = String(text.unicodeScalars.prefix(Self.maximumLength).map { Character($0) })
            throw ServiceError(
                .invalidStoreID,
                "\"\(shown.debugDescriptionWithoutQuotes)\"\(text.count > Self.maximumLength ? "…" : "") is not a store id: "
                    + "use 1 to \(Self.maximumLength) lowercase letters, digits, '-' and '_', beginning with a letter or a digit"
            )
        }
        rawValue = text
    }

    public var description: String { rawValue }

    public static func < (a: StoreName, b: StoreName) -> Bool { a.rawValue < b.rawValue }

    private static func isLeading(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        isLeading(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}

extension String {
    /// The text as Swift would print it inside quotes: control characters
    /// and quotes escaped, so an id in a message cannot forge a line.
    fileprivate var debugDescriptionWithoutQuotes: String {
        String(debugDescription.dropFirst().dropLast())
    }
}
