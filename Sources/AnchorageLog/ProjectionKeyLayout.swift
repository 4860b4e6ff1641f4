/// Which parts of a projection database's keys identify something, so a
/// sealed store keeps them as keyed pseudonyms (``ProjectionCipher``).
///
/// A key is read part by part; whatever follows the last part stays as it
/// is (times, sequence numbers, uuids: what ordered scans need). A layout
/// that seals nothing leaves every key as it is:
///
/// ```swift
/// // kind ‖ bundle id: the kind becomes its pseudonym, the bundle id is sealed.
/// let sources = ProjectionKeyLayout(.kind, .identifier)
/// ```
public struct ProjectionKeyLayout: Sendable, Hashable {
    /// One part of a key.
    public enum Part: Sendable, Hashable {
        /// 4 bytes, a type's kind code: replaced by a keyed permutation of
        /// it (so every key of one kind still shares a prefix).
        case kind
        /// `n` bytes kept as they are.
        case clear(Int)
        /// The rest of the key, sealed deterministically (16 bytes longer).
        case identifier
        /// `n` bytes, sealed deterministically (16 bytes longer).
        case fixedIdentifier(Int)
        /// A length byte and that many bytes: the bytes sealed
        /// deterministically (16 bytes longer), the length kept.
        case lengthPrefixedIdentifier
        /// In a key that starts with these bytes, the rest is an
        /// ``identifier``; any other key is kept as it is from here.
        case identifierAfter([UInt8])
    }

    /// The parts, in key order.
    public let parts: [Part]

    public init(_ parts: Part...) {
        self.parts = parts
    }

    /// Keys kept as they are.
    public static let clear = ProjectionKeyLayout()
    /// A kind first, the rest kept as it is.
    public static let kindFirst = ProjectionKeyLayout(.kind)

    /// How much longer a stored key is than `key`, at most.
    var growth: Int {
        parts.reduce(0) { total, part in
            switch part {
            case .identifier, .fixedIdentifier, .lengthPrefixedIdentifier, .identifierAfter:
                total + ProjectionCipher.tagSize
            case .kind, .clear: total
            }
        }
    }
}
