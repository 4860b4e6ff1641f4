/// A small type code carried in every entry's header, so feeds can filter by
/// type without decoding payloads.
///
/// The log gives kinds no meaning; the layers above assign them.
///
/// ```swift
/// let stepCount: EntryKind = 17
/// let page = try log.entries(after: nil, limit: 100, kinds: [stepCount])
/// ```
public struct EntryKind: RawRepresentable, Hashable, Sendable, Codable, Comparable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(integerLiteral value: UInt32) { self.rawValue = value }

    public var description: String { "kind \(rawValue)" }

    public static func < (lhs: EntryKind, rhs: EntryKind) -> Bool { lhs.rawValue < rhs.rawValue }
}
