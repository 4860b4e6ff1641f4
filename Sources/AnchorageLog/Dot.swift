/// Who created an entry and its number there: `(origin, counter)`.
///
/// Replicated entries keep their dot and get a new local sequence number.
/// Counters of one origin are dense from 1, so a version vector (origin →
/// highest counter applied) says exactly which entries a store holds.
///
/// ```swift
/// let dot = Dot(origin: log.originID, counter: 1)
/// ```
public struct Dot: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The origin that created the entry (the writer id of one incarnation
    /// of a store).
    public let origin: StoreID
    /// The entry's number among its origin's entries, from 1.
    public let counter: UInt64

    /// Creates a dot.
    public init(origin: StoreID, counter: UInt64) {
        self.origin = origin
        self.counter = counter
    }

    public var description: String { "\(origin)#\(counter)" }

    /// Orders by origin, then counter.
    public static func < (lhs: Dot, rhs: Dot) -> Bool {
        lhs.origin == rhs.origin ? lhs.counter < rhs.counter : lhs.origin < rhs.origin
    }
}
